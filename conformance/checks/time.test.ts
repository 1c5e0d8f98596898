import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../judgement/types.js';
import { checks } from './index.js';
import { earlyMargin, probeMargin, windowSides } from './time.js';

describe('windowSides: which edge of a measured window is off (§5.4 item 3)', () => {
  const clock = { offsetMs: 10, uncertaintyMs: 40 };
  const cases: Array<[string, { lead: number; past: number }, 'right' | 'off', 'right' | 'off']> = [
    ['both edges where the clock puts them', { lead: 1005, past: -2992 }, 'right', 'right'],
    ['a lead 3 s wide, the past side exact', { lead: 2992, past: -2989 }, 'right', 'off'],
    ['a past side 2 s too long, the lead exact', { lead: 1010, past: -4990 }, 'off', 'right'],
  ];
  for (const [name, found, past, lead] of cases) {
    it(name, () => {
      const s = windowSides(clock, found, 3000, 300);
      expect([s?.past, s?.lead]).toEqual([past, lead]);
    });
  }
  it('without a clock estimate the side is not known', () => {
    expect(windowSides({}, { lead: 2992, past: -2989 }, 3000, 300)).toBeUndefined();
  });
});

describe('probe margins: what a delay can do to a probe (§5.4 items 3 and 4)', () => {
  /** The context a time check sizes its probes from (the clock estimate, the slowest round trip, the rate spacing), with a sender that records each probe and goes no further. */
  const context = (uncertaintyMs: number, maxRttMs: number, requestSpacingMs = 0) => {
    const sent: unknown[] = [];
    const built = (...args: unknown[]) => ({ request: args, facts: {} });
    const ctx = {
      target: { symbol: 'BTCUSDT', otherSymbol: 'ETHUSDT' },
      seed: 1,
      clientId: () => 'c',
      clock: { method: 'date-header', offsetMs: 0, uncertaintyMs, serverNow: () => Date.now() },
      maxRttMs,
      requestSpacingMs,
      requests: { batch: built, order: built, onRoute: built },
      send: (request: unknown) => {
        sent.push(request);
        return Promise.reject(new Error('probe sent'));
      },
    } as unknown as CheckContext;
    return { ctx, sent };
  };

  it('a slow round trip widens the margin of probes a delay pushes across an edge, not that of an early probe', () => {
    expect(probeMargin(context(72, 400, 100).ctx)).toEqual({ margin: 72 + 400 + 100 + 150 });
    expect(earlyMargin(context(72, 400, 100).ctx)).toBe(72 + 150);
  });

  it('TIME-WINDOW-LEAD.within is sized by the clock alone: a 400 ms round trip on a busy machine does not skip it, an uncertain clock does', async () => {
    const within = checks.find((c) => c.id === 'TIME-WINDOW-LEAD.within');
    const uncertain = context(400, 10);
    expect(await within?.run(uncertain.ctx)).toMatchObject({
      status: 'skip',
      reason: expect.stringMatching(/550 ms margin\) is too large to place a probe inside the 1000 ms lead/),
    });
    expect(uncertain.sent).toEqual([]);
    const slow = context(72, 400);
    await expect(within?.run(slow.ctx)).rejects.toThrow('probe sent');
    expect(slow.sent.length).toBeGreaterThan(0);
  });
});
