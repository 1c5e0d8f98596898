import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { isVectorFileName } from './check.js';
import type { GeneratorKind } from './kinds.js';
import { runVectors, type GeneratorIo } from './run.js';

/** vectors/ in memory, starting from the committed files, with the output captured. */
function memoryIo(): GeneratorIo & {
  files: Map<string, string>;
  writes: string[];
  stdout: string[];
  stderr: string[];
} {
  const files = new Map(
    readdirSync(kitPath('vectors'))
      .filter(isVectorFileName)
      .map((f) => [f, readFileSync(kitPath('vectors', f), 'utf8')] as const),
  );
  const io = {
    files,
    writes: [] as string[],
    stdout: [] as string[],
    stderr: [] as string[],
    read: (f: string) => files.get(f),
    write: (f: string, text: string) => {
      io.writes.push(f);
      files.set(f, text);
    },
    list: () => [...files.keys()],
    out: (l: string) => io.stdout.push(l),
    err: (l: string) => io.stderr.push(l),
  };
  return io;
}

describe('npm run vectors', () => {
  it('--check exits 0 on the committed files and writes nothing', () => {
    const io = memoryIo();
    expect(runVectors(['--check'], io)).toBe(0);
    expect(io.writes).toEqual([]);
    expect(io.stdout).toEqual(['vectors: 4 files are what the generator writes']);
  });

  it('--check exits 1 listing each differing file, and writing restores them', () => {
    const io = memoryIo();
    const signing = io.files.get('signing.json') ?? '';
    io.files.set('signing.json', signing.replace('"numberOfTests": 63', '"numberOfTests": 64'));
    io.files.delete('doctor.json');
    expect(runVectors(['--check'], io)).toBe(1);
    expect(io.writes).toEqual([]);
    expect(io.stderr.join('\n')).toMatch(
      /vectors\/signing\.json: differs from the generator at line \d+\n[\s\S]*vectors\/doctor\.json: missing[\s\S]*2 file\(s\) differ/,
    );

    expect(runVectors([], io)).toBe(0);
    expect(io.writes).toEqual(['signing.json', 'doctor.json']);
    expect(io.stdout).toContain('vectors/time-window.json: 30 vectors, unchanged');
    expect(io.stdout).toContain('vectors/signing.json: 63 vectors, written');
    expect(io.files.get('signing.json')).toBe(signing);
    expect(runVectors(['--check'], io)).toBe(0);
  });

  it('refuses an unknown argument with exit 2 and the usage; --help prints it', () => {
    const io = memoryIo();
    expect(runVectors(['--chek'], io)).toBe(2);
    expect(io.stderr[0]).toBe('vectors: unknown argument "--chek"');
    expect(io.stderr[1]).toMatch(/^Usage: npm run vectors/);
    expect(runVectors(['--help'], io)).toBe(0);
    expect(io.stdout[0]).toMatch(/--check/);
    expect(io.writes).toEqual([]);
  });

  it('a failing builder is one error line and exit 1, no stack trace', () => {
    const io = memoryIo();
    const broken: GeneratorKind = {
      kind: 'orders',
      file: 'orders.json',
      build: () => {
        throw new Error('orders: flag Z has no note');
      },
    };
    expect(runVectors([], io, [broken])).toBe(1);
    expect(io.stderr).toEqual(['vectors: orders: flag Z has no note']);
    expect(io.writes).toEqual([]);
  });
});
