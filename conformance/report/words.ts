/**
 * Text cut or wrapped only between words, so a note, a reason or a server's answer is never
 * shown ending mid-word.
 */

/** `text` whole when it fits in `max` characters, else cut at the last space that fits and ended with `…`. */
export function clipWords(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const room = flat.slice(0, Math.max(1, max - 1));
  const space = flat[room.length] === ' ' ? room.length : room.lastIndexOf(' ');
  // a single word longer than the room has no boundary to cut at: it is cut, still marked
  const kept = space > 0 ? room.slice(0, space) : room;
  return `${kept.replace(/[\s,;:]+$/, '')}…`;
}

/**
 * Lines of at most `width` characters (a word longer than that alone on its line), broken
 * only at spaces; the first line keeps the text's leading spaces, the others start with `indent`.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const lead = /^\s*/.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let line = lead;
  let fresh = true;
  for (const word of text
    .slice(lead.length)
    .split(/\s+/)
    .filter((w) => w !== '')) {
    if (!fresh && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = fresh ? line + word : `${line} ${word}`;
    fresh = false;
  }
  if (!fresh) lines.push(line);
  return lines;
}

/**
 * Items joined by two spaces into lines of at most `width`, each line starting with `indent`,
 * broken between items; an item longer than a line is wrapped at its words.
 */
export function packItems(items: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const candidate = line === '' ? indent + item : `${line}  ${item}`;
    if (candidate.length <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    const alone = indent + item;
    if (alone.length <= width) {
      line = alone;
      continue;
    }
    const wrapped = wrapWords(alone, width, `${indent}  `);
    lines.push(...wrapped.slice(0, -1));
    line = wrapped.at(-1) ?? '';
  }
  if (line !== '') lines.push(line);
  return lines;
}
