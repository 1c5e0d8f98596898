/**
 * The vector generator's command: write every kind's file, or with `--check` compare
 * them with the committed files (exit 1 listing each difference). File access and
 * output come in as {@link GeneratorIo}, so the tests run it in memory.
 */
import { checkVectors, describeDifference } from './check.js';
import { serialise } from './common.js';
import { KINDS, type GeneratorKind } from './kinds.js';

/** The files under vectors/ and the output streams. */
export interface GeneratorIo {
  /** Text of vectors/<file>, undefined when absent. */
  read(file: string): string | undefined;
  write(file: string, text: string): void;
  /** Names of the vector files present in vectors/ (see `isVectorFileName`). */
  list(): string[];
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `Usage: npm run vectors [-- --check]

Writes vectors/<kind>.json from the generator modules of vectors/generate/.
  --check   write nothing; exit 1 listing each committed file that differs from
            what the generator writes (first differing line and tcId), 0 otherwise
  --help    this text`;

/** Run with the command-line arguments; returns the exit code (0 done/equal, 1 differs or a builder failed, 2 bad usage). */
export function runVectors(
  args: ReadonlyArray<string>,
  io: GeneratorIo,
  kinds: ReadonlyArray<GeneratorKind> = KINDS,
): number {
  const unknown = args.filter((a) => a !== '--check' && a !== '--help' && a !== '-h');
  if (unknown.length > 0) {
    io.err(`vectors: unknown argument ${unknown.map((a) => JSON.stringify(a)).join(', ')}`);
    io.err(USAGE);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  try {
    return args.includes('--check') ? check(io, kinds) : write(io, kinds);
  } catch (e) {
    io.err(`vectors: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

function check(io: GeneratorIo, kinds: ReadonlyArray<GeneratorKind>): number {
  const diffs = checkVectors(kinds, (f) => io.read(f), io.list());
  if (diffs.length === 0) {
    io.out(`vectors: ${kinds.length} files are what the generator writes`);
    return 0;
  }
  for (const d of diffs) for (const line of describeDifference(d)) io.err(line);
  io.err(`vectors: ${diffs.length} file(s) differ; run npm run vectors to regenerate, then review the diff`);
  return 1;
}

function write(io: GeneratorIo, kinds: ReadonlyArray<GeneratorKind>): number {
  for (const k of kinds) {
    const content = k.build();
    const text = serialise(content);
    const same = io.read(k.file) === text;
    if (!same) io.write(k.file, text);
    io.out(`vectors/${k.file}: ${content.tests.length} vectors${same ? ', unchanged' : ', written'}`);
  }
  return 0;
}
