import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTimeWindow, DEFAULT_RECV_WINDOW, MAX_LEAD_MS, systemClock } from './time.js';

const S = 1_767_225_600_000;
const ms = fc.integer({ min: 0, max: 4_000_000_000_000 });
const window = fc.integer({ min: 0, max: 120_000 });

describe('constants (§5.4, §8)', () => {
  it('default recvWindow 5000 ms, lead under 1000 ms', () => {
    expect(DEFAULT_RECV_WINDOW).toBe(5000);
    expect(MAX_LEAD_MS).toBe(1000);
  });
});

describe('checkTimeWindow (§5.4 item 3)', () => {
  it('accepts exactly recvWindow old and refuses one ms more, as too-old / TIME-WINDOW-PAST', () => {
    expect(checkTimeWindow({ serverTime: S, timestamp: S - 2500, recvWindow: 2500 })).toEqual({
      accepted: true,
      age: 2500,
      recvWindow: 2500,
    });
    expect(checkTimeWindow({ serverTime: S, timestamp: S - 2501, recvWindow: 2500 })).toEqual({
      accepted: false,
      reason: 'too-old',
      ruleId: 'TIME-WINDOW-PAST',
      age: 2501,
      recvWindow: 2500,
    });
  });

  it('accepts a lead of 999 ms and refuses 1000 ms, as too-far-ahead / TIME-WINDOW-LEAD', () => {
    expect(checkTimeWindow({ serverTime: S, timestamp: S + 999 })).toEqual({
      accepted: true,
      age: -999,
      recvWindow: 5000,
    });
    expect(checkTimeWindow({ serverTime: S, timestamp: S + 1000 })).toEqual({
      accepted: false,
      reason: 'too-far-ahead',
      ruleId: 'TIME-WINDOW-LEAD',
      age: -1000,
      recvWindow: 5000,
    });
  });

  it('uses 5000 when recvWindow is absent or undefined', () => {
    expect(checkTimeWindow({ serverTime: S, timestamp: S - 5000 }).accepted).toBe(true);
    expect(checkTimeWindow({ serverTime: S, timestamp: S - 5001, recvWindow: undefined }).accepted).toBe(false);
  });

  it('with recvWindow 0 accepts only timestamps not older than serverTime', () => {
    expect(checkTimeWindow({ serverTime: S, timestamp: S, recvWindow: 0 }).accepted).toBe(true);
    expect(checkTimeWindow({ serverTime: S, timestamp: S - 1, recvWindow: 0 }).accepted).toBe(false);
    expect(checkTimeWindow({ serverTime: S, timestamp: S + 500, recvWindow: 0 }).accepted).toBe(true);
  });

  it('accepts iff timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow (property)', () => {
    fc.assert(
      fc.property(ms, fc.integer({ min: -100_000, max: 100_000 }), window, (serverTime, offset, recvWindow) => {
        const timestamp = serverTime + offset;
        const v = checkTimeWindow({ serverTime, timestamp, recvWindow });
        expect(v.accepted).toBe(offset < 1000 && -offset <= recvWindow);
        expect(v.age).toBe(serverTime - timestamp);
        expect(v.age === -offset).toBe(true);
        expect(v.recvWindow).toBe(recvWindow);
      }),
    );
  });

  it('a lead of 1000 ms or more is refused whatever the recvWindow (property)', () => {
    fc.assert(
      fc.property(ms, fc.integer({ min: 1000, max: 10_000_000 }), window, (serverTime, lead, recvWindow) => {
        const v = checkTimeWindow({ serverTime, timestamp: serverTime + lead, recvWindow });
        expect(v.accepted).toBe(false);
        if (!v.accepted) expect(v.ruleId).toBe('TIME-WINDOW-LEAD');
      }),
    );
  });

  it('widening recvWindow never turns an accepted request into a refused one (property)', () => {
    fc.assert(
      fc.property(
        ms,
        fc.integer({ min: -2000, max: 200_000 }),
        window,
        fc.nat(100_000),
        (serverTime, age, w, extra) => {
          const narrow = checkTimeWindow({ serverTime, timestamp: serverTime - age, recvWindow: w });
          const wide = checkTimeWindow({ serverTime, timestamp: serverTime - age, recvWindow: w + extra });
          if (narrow.accepted) expect(wide.accepted).toBe(true);
        },
      ),
    );
  });

  it('depends only on the difference, not on the clock reading (property)', () => {
    fc.assert(
      fc.property(ms, ms, fc.integer({ min: -3000, max: 8000 }), (a, b, offset) => {
        const x = checkTimeWindow({ serverTime: a, timestamp: a + offset });
        const y = checkTimeWindow({ serverTime: b, timestamp: b + offset });
        expect(x).toEqual(y);
      }),
    );
  });
});

describe('systemClock', () => {
  it('reads the wall clock in epoch milliseconds', () => {
    const before = Date.now();
    const t = systemClock();
    const after = Date.now();
    expect(Number.isInteger(t)).toBe(true);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });
});
