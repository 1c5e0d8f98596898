/**
 * What every vector kind shares: numbering, the flag-note checks, the file envelope and
 * its serialisation. Pure: nothing here reads or writes a file.
 */
import type { VectorBase, VectorFile } from '../types.js';

/** Vector fields before numbering. */
export type Draft<T extends VectorBase> = T extends unknown ? Omit<T, 'tcId'> : never;

/**
 * The file of one kind: vectors numbered from 1 in the order given, wrapped in the
 * envelope the loader expects. Throws when a flag used has no note or a note is unused,
 * so a file can never explain less, or more, than it holds.
 */
export function vectorFile<T extends VectorBase>(
  kind: string,
  header: string[],
  notes: Record<string, string>,
  drafts: Array<Draft<T>>,
): VectorFile<T> {
  const tests = drafts.map((d, i) => ({ tcId: i + 1, ...d }) as T);
  const used = new Set(tests.flatMap((t) => t.flags));
  for (const f of used) if (!(f in notes)) throw new Error(`${kind}: flag ${f} has no note`);
  for (const f of Object.keys(notes)) if (!used.has(f)) throw new Error(`${kind}: note ${f} is not used`);
  return { $schema: `./schema/${kind}.schema.json`, header, numberOfTests: tests.length, notes, tests };
}

/** The committed text of a vector file: two-space JSON and a final newline. */
export function serialise(content: unknown): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}
