import { describe, expect, it } from 'vitest';
import { compare, formatRate, median, table } from './measure.js';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('compare', () => {
  it('gives every variant one sample per round, in input order, with their median', () => {
    const seen: string[] = [];
    const r = compare(
      [
        { name: 'a', run: () => seen.push('a') },
        { name: 'b', run: () => seen.push('b') },
      ],
      { rounds: 3, sampleMs: 1 },
    );
    expect(r.map((t) => t.name)).toEqual(['a', 'b']);
    for (const t of r) {
      expect(t.samples.length).toBe(3);
      expect(t.median).toBe(median(t.samples));
      expect(t.median).toBeGreaterThan(0);
    }
    expect(seen).toContain('a');
    expect(seen).toContain('b');
  });
});

describe('formatting', () => {
  it('rounds rates with thousands separators', () => {
    expect(formatRate(1234567.8)).toBe('1,234,568');
  });

  it('aligns the first column left and the others right', () => {
    expect(
      table([
        ['name', 'n'],
        ['x', '100'],
      ]),
    ).toBe('name    n\nx     100');
  });
});
