/**
 * The generator's check mode, in process: every kind's build() against the committed
 * vectors/*.json byte for byte, and proof that a changed committed file is reported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { VECTOR_KINDS } from '../load.js';
import {
  checkVectors,
  compareFile,
  describeDifference,
  firstDifferentLine,
  firstDifferentTcId,
  isVectorFileName,
} from './check.js';
import { serialise } from './common.js';
import { KINDS } from './kinds.js';

const committedFiles = readdirSync(kitPath('vectors')).filter(isVectorFileName);
const committed = new Map(committedFiles.map((f) => [f, readFileSync(kitPath('vectors', f), 'utf8')]));
const read = (f: string): string | undefined => committed.get(f);

/** `text` with the first occurrence of `from` replaced; fails when absent, so a mutation is never a no-op. */
function mutate(text: string, from: string, to: string): string {
  expect(text.includes(from)).toBe(true);
  return text.replace(from, to);
}

const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('vector generator check mode', () => {
  it('the committed vectors are exactly what every kind builds', () => {
    expect(checkVectors(KINDS, read, committedFiles)).toEqual([]);
  });

  it('covers every kind the loader knows, each file once', () => {
    expect(KINDS.map((k) => k.kind)).toEqual([...VECTOR_KINDS]);
    expect(KINDS.map((k) => k.file)).toEqual(VECTOR_KINDS.map((k) => `${k}.json`));
    expect(committedFiles.sort()).toEqual(KINDS.map((k) => k.file).sort());
  });

  it('reports a changed vector with its file, first differing line and tcId', () => {
    const text = committed.get('signing.json') ?? '';
    const v = JSON.parse(text).tests[11] as { tcId: number; comment: string };
    expect(v.tcId).toBe(12);
    const was = `"comment": ${JSON.stringify(v.comment)}`;
    const changed = mutate(text, was, `"comment": ${JSON.stringify(`${v.comment}!`)}`);
    const diffs = checkVectors(KINDS, (f) => (f === 'signing.json' ? changed : read(f)), committedFiles);
    expect(diffs).toHaveLength(1);
    const d = diffs[0];
    expect(d).toMatchObject({ file: 'signing.json', problem: 'differs', tcId: 12, line: lineOf(text, was) });
    const lines = describeDifference(d ?? { file: '', problem: 'missing' });
    expect(lines[0]).toMatch(/^vectors\/signing\.json: differs from the generator at line \d+, tcId 12$/);
    expect(lines[1]).toContain(v.comment);
  });

  it('reports a change outside the vectors by line only, and a change in whitespace or the final newline', () => {
    const text = committed.get('orders.json') ?? '';
    const header = compareFile(
      'orders.json',
      text,
      mutate(text, 'Golden vectors for order validation', 'Golden vectors for order checks'),
    );
    expect(header).toMatchObject({ problem: 'differs', line: 4, tcId: undefined });
    expect(compareFile('orders.json', text, text.trimEnd())).toMatchObject({
      problem: 'differs',
      line: text.split('\n').length,
      committed: undefined,
    });
    expect(compareFile('orders.json', text, mutate(text, '"tcId": 3,', '"tcId": 3 ,'))).toMatchObject({
      line: lineOf(text, '"tcId": 3,'),
      tcId: undefined,
    });
    expect(compareFile('orders.json', text, text)).toBeUndefined();
  });

  it('reports a vector added or removed by the first tcId that differs', () => {
    const text = committed.get('doctor.json') ?? '';
    const file = JSON.parse(text) as { tests: unknown[] };
    const fewer = serialise({ ...file, tests: file.tests.slice(0, -1) });
    expect(firstDifferentTcId(text, fewer)).toBe(file.tests.length);
    expect(firstDifferentTcId(text, 'not json')).toBeUndefined();
    expect(firstDifferentLine('a\nb\nc', 'a\nb\nc')).toBeUndefined();
    expect(firstDifferentLine('a\nb\nc', 'a\nB\nc')).toBe(2);
  });

  it('reports a missing file and a vector file no kind writes', () => {
    const diffs = checkVectors(KINDS, (f) => (f === 'time-window.json' ? undefined : read(f)), [
      ...committedFiles,
      'stray.json',
    ]);
    expect(diffs).toEqual([
      { file: 'time-window.json', problem: 'missing' },
      { file: 'stray.json', problem: 'not-generated' },
    ]);
    expect(diffs.flatMap(describeDifference).join('\n')).toMatch(
      /vectors\/time-window\.json: missing[\s\S]*vectors\/stray\.json: no generator kind writes it/,
    );
  });

  it('counts the generator tsconfig as no vector file', () => {
    expect(isVectorFileName('tsconfig.generate.json')).toBe(false);
    expect(isVectorFileName('signing.json')).toBe(true);
    expect(isVectorFileName('README.md')).toBe(false);
  });
});

describe('describeDifference', () => {
  it('shows both lines around their first differing character', () => {
    const long = `${'x'.repeat(200)}A${'y'.repeat(200)}`;
    const [, gen, com] = describeDifference({
      file: 'f.json',
      problem: 'differs',
      line: 2,
      expected: long,
      committed: long.replace('A', 'B'),
      tcId: undefined,
    });
    expect(gen).toMatch(/^ {2}generated: \.\.\."x+Ay+"\.\.\.$/);
    expect(com).toMatch(/^ {2}committed: \.\.\."x+By+"\.\.\.$/);
    expect(
      describeDifference({
        file: 'f.json',
        problem: 'differs',
        line: 9,
        expected: '}',
        committed: undefined,
        tcId: undefined,
      })[2],
    ).toBe('  committed: (end of file)');
    expect(
      describeDifference({ file: 'f.json', problem: 'differs', line: 1, expected: 'ab', committed: 'ac', tcId: 3 }),
    ).toEqual([
      'vectors/f.json: differs from the generator at line 1, tcId 3',
      '  generated: "ab"',
      '  committed: "ac"',
    ]);
  });
});
