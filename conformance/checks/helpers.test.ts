import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../judgement/types.js';
import { fail, property, SHRINK_ORDER_BUDGET } from './helpers.js';
import { boundaryBatches } from '../engine/generators.js';

/** A context with only what `property` reads, and a counter standing in for orders placed. */
function fakeContext(withBudget: boolean): { ctx: CheckContext; placed: () => number; place: (n: number) => void } {
  let placed = 0;
  const ctx = { seed: 42, runs: 50, ...(withBudget ? { ordersPlaced: () => placed } : {}) } as unknown as CheckContext;
  return { ctx, placed: () => placed, place: (n) => void (placed += n) };
}

describe('property: shrinking has an order budget of its own', () => {
  // Every case "places" as many orders as it has elements and fails: shrinking would go on a long time.
  const arb = fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 20, maxLength: 40 });

  it('stops sending shrink candidates once they placed the budget, and still reports the failure', async () => {
    const f = fakeContext(true);
    let firstFailureAt: number | undefined;
    const out = await property(f.ctx, arb, async (xs) => {
      f.place(xs.length);
      firstFailureAt ??= f.placed();
      return fail('never', `case of ${xs.length}`);
    });
    expect(out.status).toBe('fail');
    expect(out.status === 'fail' && out.counterexample).toBeTruthy();
    expect(f.placed() - (firstFailureAt ?? 0)).toBeLessThanOrEqual(SHRINK_ORDER_BUDGET + 40);
  });

  it('without a budget the same property shrinks further (the budget is what bounds it)', async () => {
    const f = fakeContext(false);
    let firstFailureAt: number | undefined;
    await property(f.ctx, arb, async (xs) => {
      f.place(xs.length);
      firstFailureAt ??= f.placed();
      return fail('never', `case of ${xs.length}`);
    });
    expect(f.placed() - (firstFailureAt ?? 0)).toBeGreaterThan(SHRINK_ORDER_BUDGET + 40);
  });
});

describe('property: boundary cases first, cases in parallel, the same verdict', () => {
  it('boundaryBatches gives one batch of the smallest and one of the largest size, the same for the same seed', () => {
    const a = boundaryBatches(7, 'BTCUSDT', 1, 20);
    expect(a.map((b) => b.length)).toEqual([1, 20]);
    expect(boundaryBatches(7, 'BTCUSDT', 1, 20)).toEqual(a);
    expect(boundaryBatches(7, 'BTCUSDT', 21, 21).map((b) => b.length)).toEqual([21]);
  });

  for (const parallel of [1, 4]) {
    it(`runs the examples before any generated case (parallel ${parallel})`, async () => {
      const seen: number[] = [];
      const ctx = { seed: 9, runs: 12, parallel } as unknown as CheckContext;
      const out = await property(
        ctx,
        fc.integer({ min: 0, max: 100 }),
        async (n) => {
          seen.push(n);
          return undefined;
        },
        { examples: [-1, -2] },
      );
      expect(out.status).toBe('pass');
      expect(seen.slice(0, 2).sort()).toEqual([-1, -2].sort());
      expect(seen).toHaveLength(12);
    });
  }

  it('finds, shrinks and counts a failure the same way at any width, and sends nothing after it in parallel', async () => {
    // fails for every value >= 50: the first failing case in seed order, then shrunk to 50
    const verdict = async (parallel: number) => {
      let sent = 0;
      const ctx = { seed: 3, runs: 60, parallel } as unknown as CheckContext;
      const out = await property(ctx, fc.integer({ min: 0, max: 1000 }), async (n) => {
        sent++;
        return n >= 50 ? fail('< 50', String(n)) : undefined;
      });
      return { out, sent };
    };
    const one = await verdict(1);
    const many = await verdict(8);
    expect(one.out.status).toBe('fail');
    const field = (o: typeof one.out, k: 'counterexample' | 'runs') => (o.status === 'fail' ? o[k] : undefined);
    expect(field(many.out, 'counterexample')).toBe(field(one.out, 'counterexample'));
    expect(field(one.out, 'counterexample')).toBe('50');
    expect(field(many.out, 'runs')).toBe(field(one.out, 'runs'));
    // at most width - 1 cases beyond the failing one were in flight, plus the failing one sent again
    expect(many.sent - one.sent).toBeLessThanOrEqual(8);
  });
});
