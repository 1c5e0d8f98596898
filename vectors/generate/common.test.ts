import { describe, expect, it } from 'vitest';
import type { TimeWindowVector } from '../types.js';
import { serialise, vectorFile, type Draft } from './common.js';

const draft = (flags: string[]): Draft<TimeWindowVector> => ({
  comment: 'c',
  flags,
  result: 'valid',
  serverTime: 1,
  timestamp: 1,
});

describe('vectorFile', () => {
  it('numbers the vectors from 1 in order and wraps them in the envelope the loader expects', () => {
    const f = vectorFile<TimeWindowVector>('time-window', ['h'], { A: 'a', B: 'b' }, [draft(['A']), draft(['A', 'B'])]);
    expect(f.$schema).toBe('./schema/time-window.schema.json');
    expect(f.numberOfTests).toBe(2);
    expect(f.tests.map((t) => t.tcId)).toEqual([1, 2]);
    expect(Object.keys(f)).toEqual(['$schema', 'header', 'numberOfTests', 'notes', 'tests']);
    expect(Object.keys(f.tests[0] ?? {})[0]).toBe('tcId');
  });

  it('refuses a flag without a note and a note no vector uses', () => {
    expect(() => vectorFile<TimeWindowVector>('time-window', [], { A: 'a' }, [draft(['A', 'Z'])])).toThrow(
      'time-window: flag Z has no note',
    );
    expect(() => vectorFile<TimeWindowVector>('time-window', [], { A: 'a', B: 'b' }, [draft(['A'])])).toThrow(
      'time-window: note B is not used',
    );
  });
});

describe('serialise', () => {
  it('writes two-space JSON with a final newline', () => {
    expect(serialise({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});
