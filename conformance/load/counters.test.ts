import { describe, expect, it } from 'vitest';
import { FAIL_COUNTERS, hookName, tallyCounters, talliesFromCounters } from './counters.js';
import { countExchange, emptyTally, REFERENCE_FINGERPRINTS, type Exchange } from './verdict.js';
import { LOAD_ROUTES } from './mix.js';

const x = (body: unknown, status = 200): Exchange => ({
  timestamp: 1,
  recvWindow: 5000,
  clientIds: ['a', 'b'],
  receivedAt: 2,
  batch: true,
  status,
  body: JSON.stringify(body),
});

describe('counters', () => {
  it('round-trips tallies through summed counters, on every route (v1.1 has a dot in its name)', () => {
    for (const route of LOAD_ROUTES) {
      const sent = emptyTally();
      countExchange(
        sent,
        x({ code: 0, result: [{ code: 0, order: { clientOrderId: 'b' } }, { code: -1130 }] }),
        REFERENCE_FINGERPRINTS,
      );
      countExchange(sent, x({ code: -1022 }, 401), REFERENCE_FINGERPRINTS);
      countExchange(sent, x({}, 429), REFERENCE_FINGERPRINTS);
      const summed: Record<string, number> = {};
      // Artillery sums each counter over every emit.
      for (const [k, v] of [...tallyCounters(route, sent), ...tallyCounters(route, sent)])
        summed[k] = (summed[k] ?? 0) + v;
      const back = talliesFromCounters(summed)[route];
      expect(back?.requests, route).toBe(6);
      expect(back?.refused, route).toEqual({ '401 -1022': 2 });
      expect(back?.results.entryCodes, route).toEqual({ '0': 2, '-1130': 2 });
      expect(back?.results.misalignedEntries, route).toBe(2);
      expect(back?.shed429, route).toBe(2);
      expect(summed['spotcheck.fail.badSignatures']).toBe(2);
    }
  });

  it('has one correctness total per failure kind and hook names without dots or slashes', () => {
    expect(FAIL_COUNTERS).toContain('spotcheck.fail.misalignedEntries');
    expect(LOAD_ROUTES.map(hookName)).toEqual([
      'sign_batch',
      'sign_v1_query',
      'sign_v1_body',
      'sign_v1_split',
      'sign_v1_1_query',
      'sign_v1_1_body',
      'sign_v1_1_split',
    ]);
  });

  it('ignores counters that are not its own', () => {
    expect(talliesFromCounters({ 'http.requests': 5, 'spotcheck.unknown.x': 1, 'spotcheck.batch.nosuch': 2 })).toEqual({
      batch: expect.objectContaining({ requests: 0 }),
    });
  });
});
