import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../types.js';
import { fail, property, SHRINK_ORDER_BUDGET } from './helpers.js';

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
    expect(out.counterexample).toBeDefined();
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
