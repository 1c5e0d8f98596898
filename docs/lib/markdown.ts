/**
 * Small Markdown writers shared by the page generators: escaping, code spans and
 * tables, so generated text never breaks the page it lands on.
 */

function escapePlain(s: string): string {
  return s.replace(/[\\`*_[\]<>|]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`));
}

/**
 * Escape text for Markdown prose and table cells (HTML, emphasis, links, pipes), on
 * one line. Code spans written in the text (`like this`) stay code spans, their
 * content untouched but for pipes.
 */
export function escapeMd(s: string): string {
  const parts = s.replace(/\r?\n/g, ' ').split(/(`[^`]+`)/);
  return parts.map((p, i) => (i % 2 === 1 ? p.replace(/\|/g, '\\|') : escapePlain(p))).join('');
}

/** A code span holding `s` exactly, whatever backticks it contains. An empty value shows as *(empty)*. */
export function code(s: string): string {
  if (s === '') return '*(empty)*';
  const runs = s.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || s.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${s.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** A fenced code block holding `s` exactly. */
export function codeBlock(s: string, lang = 'text'): string {
  const runs = s.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  return `${fence}${lang}\n${s}\n${fence}`;
}

/** A Markdown table; cells are written as given (escape them first). */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The anchor TypeDoc gives a heading: lower case, spaces to dashes, other punctuation dropped. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
}
