import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertSeeded, FIXED_SEEDS, propertySeeds } from './seeds.js';

describe('property seeds', () => {
  it('are the fixed list plus one more, taken from SPOTCHECK_PROPERTY_SEED when set', () => {
    expect(propertySeeds({ SPOTCHECK_PROPERTY_SEED: '77' })).toEqual([...FIXED_SEEDS, 77]);
    const s = propertySeeds({});
    expect(s.slice(0, FIXED_SEEDS.length)).toEqual([...FIXED_SEEDS]);
    expect(s).toHaveLength(FIXED_SEEDS.length + 1);
  });

  it('a failing property names the seed that found it', async () => {
    const err = await assertSeeded(
      fc.property(fc.integer(), (n) => n < 1000),
      { numRuns: 200 },
      [5],
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/seed 5 \(rerun it: SPOTCHECK_PROPERTY_SEED=5/);
  });

  it('runs every seed with its share of the runs', async () => {
    let calls = 0;
    await assertSeeded(
      fc.property(fc.nat(), () => void calls++),
      { numRuns: 90 },
      [1, 2, 3],
    );
    expect(calls).toBe(90);
  });
});
