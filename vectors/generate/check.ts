/**
 * The check mode of the vector generator: the generated text of every kind against the
 * committed file, byte for byte. Pure: the committed files come in as text.
 */
import { serialise } from './common.js';
import type { GeneratorKind } from './kinds.js';

/** One committed file that is not what the generator writes. */
export type Difference =
  | { file: string; problem: 'missing' }
  | { file: string; problem: 'not-generated' }
  | {
      file: string;
      problem: 'differs';
      line: number;
      expected: string | undefined;
      committed: string | undefined;
      tcId: number | undefined;
    };

/** Whether a file name of vectors/ is a vector file (every JSON file there but the generator's tsconfig). */
export function isVectorFileName(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('tsconfig');
}

/** 1-based number of the first line where the two texts differ; undefined when equal. */
export function firstDifferentLine(expected: string, committed: string): number | undefined {
  if (expected === committed) return undefined;
  const a = expected.split('\n');
  const b = committed.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i + 1;
}

function testsOf(text: string): unknown[] | undefined {
  try {
    const tests = (JSON.parse(text) as { tests?: unknown } | null)?.tests;
    return Array.isArray(tests) ? tests : undefined;
  } catch {
    return undefined;
  }
}

function tcIdOf(test: unknown): number | undefined {
  const id = (test as { tcId?: unknown } | null | undefined)?.tcId;
  return typeof id === 'number' ? id : undefined;
}

/** tcId of the first vector that differs between the two texts; undefined when no vector does or a text is not JSON. */
export function firstDifferentTcId(expected: string, committed: string): number | undefined {
  const a = testsOf(expected);
  const b = testsOf(committed);
  if (a === undefined || b === undefined) return undefined;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return tcIdOf(a[i]) ?? tcIdOf(b[i]);
  }
  return undefined;
}

/** How the committed text of `file` differs from the generated one; undefined when identical. */
export function compareFile(file: string, expected: string, committed: string | undefined): Difference | undefined {
  if (committed === undefined) return { file, problem: 'missing' };
  const line = firstDifferentLine(expected, committed);
  if (line === undefined) return undefined;
  return {
    file,
    problem: 'differs',
    line,
    expected: expected.split('\n')[line - 1],
    committed: committed.split('\n')[line - 1],
    tcId: firstDifferentTcId(expected, committed),
  };
}

/**
 * Every difference between what `kinds` generate and the committed files: `read` gives a
 * committed file's text (undefined when absent), `committedFiles` the JSON files present,
 * each of which some kind must generate.
 */
export function checkVectors(
  kinds: ReadonlyArray<GeneratorKind>,
  read: (file: string) => string | undefined,
  committedFiles: ReadonlyArray<string>,
): Difference[] {
  const out: Difference[] = [];
  for (const k of kinds) {
    const d = compareFile(k.file, serialise(k.build()), read(k.file));
    if (d !== undefined) out.push(d);
  }
  const generated = new Set(kinds.map((k) => k.file));
  for (const f of committedFiles) if (!generated.has(f)) out.push({ file: f, problem: 'not-generated' });
  return out;
}

/** Characters of a line shown around its first difference. */
const EXCERPT = 80;

/** Index of the first character where `a` and `b` differ (their common length when one is a prefix). */
function firstDifferentColumn(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** A line as JSON text, cut to a window that starts a little before `column`. */
function excerpt(line: string | undefined, column: number): string {
  if (line === undefined) return '(end of file)';
  const start = Math.max(0, Math.min(column - 20, line.length - EXCERPT));
  const end = Math.min(line.length, start + EXCERPT);
  return `${start > 0 ? '...' : ''}${JSON.stringify(line.slice(start, end))}${end < line.length ? '...' : ''}`;
}

/** One difference as report lines, naming the file, the first differing line and tcId. */
export function describeDifference(d: Difference): string[] {
  const file = `vectors/${d.file}`;
  if (d.problem === 'missing') return [`${file}: missing (the generator writes it)`];
  if (d.problem === 'not-generated')
    return [`${file}: no generator kind writes it (add a module to vectors/generate/kinds.ts or remove the file)`];
  const column = firstDifferentColumn(d.expected ?? '', d.committed ?? '');
  return [
    `${file}: differs from the generator at line ${d.line}${d.tcId === undefined ? '' : `, tcId ${d.tcId}`}`,
    `  generated: ${excerpt(d.expected, column)}`,
    `  committed: ${excerpt(d.committed, column)}`,
  ];
}
