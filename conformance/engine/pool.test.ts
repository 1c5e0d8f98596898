import { describe, expect, it } from 'vitest';
import { inOrder } from './pool.js';

describe('the one worker pool', () => {
  it('keeps results in input order with at most `width` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await inOrder([5, 1, 4, 2, 3, 0], 3, async (ms, i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(most).toBe(3);
  });

  it('starts no item once stop says so (the items already started finish)', async () => {
    const started: number[] = [];
    await inOrder(
      [0, 1, 2, 3, 4, 5, 6, 7],
      2,
      async (_v, i) => {
        started.push(i);
        await new Promise((r) => setTimeout(r, 1));
      },
      (next) => next >= 3,
    );
    expect(started.sort()).toEqual([0, 1, 2]);
  });
});
