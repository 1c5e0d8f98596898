import { describe, expect, it } from 'vitest';
import { classify } from '../../src/core/response.js';
import {
  countExchange,
  emptyTally,
  failuresOf,
  mergeTally,
  REFERENCE_FINGERPRINTS,
  totalOf,
  type Exchange,
  type Fingerprints,
} from './verdict.js';

const T = 1_767_225_600_000;
const fp: Fingerprints = { signature: [{ status: 401, code: -1022 }], time: [{ status: 400, code: -1021 }] };
const batch = (body: unknown, over: Partial<Exchange> = {}): Exchange => ({
  timestamp: T,
  recvWindow: 5000,
  clientIds: ['a', 'b'],
  writtenAt: T + 1,
  receivedAt: T + 20,
  batch: true,
  status: 200,
  body: JSON.stringify(body),
  ...over,
});
const entry = (id: string, code = 0) => ({ code, msg: 'ok', order: { clientOrderId: id } });

describe('countExchange', () => {
  it('counts an accepted batch: one entry per order, codes, orders placed', () => {
    const t = emptyTally();
    expect(countExchange(t, batch({ code: 0, result: [entry('a'), entry('b')] }), fp)).toBe('accepted');
    expect(t).toMatchObject({
      requests: 1,
      accepted: 1,
      ordersPlaced: 2,
      results: { entries: 2, misalignedEntries: 0, countMismatch: 0, entryCodes: { '0': 2 } },
    });
    expect(failuresOf({ batch: t })).toEqual([]);
  });

  it('fails entries echoing another client id at their position, and a result of the wrong length', () => {
    const t = emptyTally();
    expect(countExchange(t, batch({ code: 0, result: [entry('b'), entry('a')] }), fp)).toBe('failure');
    expect(t.results.misalignedEntries).toBe(2);
    expect(countExchange(t, batch({ code: 0, result: [entry('a')] }), fp)).toBe('failure');
    expect(t.results.countMismatch).toBe(1);
    expect(countExchange(t, batch({ code: 0 }), fp)).toBe('failure');
    expect(t.results.countMismatch).toBe(2);
    expect(failuresOf({ batch: t }).map((f) => [f.kind, f.count])).toEqual([
      ['countMismatch', 2],
      ['misalignedEntries', 2],
    ]);
  });

  it('fails a valid order refused inside an accepted batch, and counts its code', () => {
    const t = emptyTally();
    countExchange(t, batch({ code: 0, result: [entry('a'), { code: -1130, msg: 'no' }] }), fp);
    expect(t.results.refusedEntries).toBe(1);
    expect(t.results.entryCodes).toEqual({ '0': 1, '-1130': 1 });
    expect(t.ordersPlaced).toBe(1);
  });

  it('a single order echoing its client id at the top level is accepted; another id is misaligned', () => {
    const t = emptyTally();
    const one = (id: string): Exchange => ({
      ...batch({ code: 0, clientOrderId: id }),
      batch: false,
      clientIds: ['a'],
    });
    expect(countExchange(t, one('a'), fp)).toBe('accepted');
    expect(countExchange(t, one('z'), fp)).toBe('failure');
    expect(t.results.misalignedEntries).toBe(1);
  });

  it('names bad signatures by the fingerprint and other refusals of valid requests by status x code', () => {
    const t = emptyTally();
    countExchange(t, batch({ code: -1022, msg: 'sig' }, { status: 401 }), fp);
    countExchange(t, batch({ code: -1141, msg: 'dup' }, { status: 400 }), fp);
    countExchange(t, batch({ code: 7 }, { status: 200 }), fp);
    expect(t.badSignatures).toBe(1);
    expect(t.refusedValid).toBe(2);
    expect(t.refused).toEqual({ '401 -1022': 1, '400 -1141': 1, '200 7': 1 });
  });

  it('splits time-window refusals by where the time went (§5.4)', () => {
    const t = emptyTally();
    const stale = (writtenAt: number, receivedAt: number): Exchange =>
      batch({ code: -1021 }, { status: 400, writtenAt, receivedAt });
    expect(countExchange(t, stale(T + 6000, T + 6010), fp)).toBe('refused');
    expect(countExchange(t, stale(T + 10, T + 5200), fp)).toBe('refused');
    expect(countExchange(t, stale(T + 10, T + 40), fp)).toBe('failure');
    expect(t.timeWindow).toEqual({ clientQueue: 1, networkServer: 1, inWindow: 1 });
    expect(failuresOf({ 'v1/body': t })).toEqual([{ route: 'v1/body', kind: 'timeInWindow', count: 1 }]);
  });

  it('counts 429 and 503 with Retry-After as shedding, other 5xx (503 without it) as failures, unreadable 2xx as bad responses, no answer apart: as the core classifies them for run', () => {
    const t = emptyTally();
    expect(countExchange(t, batch({ code: -1 }, { status: 429 }), fp)).toBe('shed');
    expect(countExchange(t, batch({}, { status: 503, body: 'busy', retryAfter: true }), fp)).toBe('shed');
    expect(countExchange(t, batch({}, { status: 503, body: 'busy' }), fp)).toBe('failure');
    expect(countExchange(t, batch({}, { status: 500, body: 'oops' }), fp)).toBe('failure');
    expect(countExchange(t, batch({}, { status: 200, body: '<html>' }), fp)).toBe('failure');
    const { status: _s, body: _b, ...noAnswer } = batch({});
    expect(countExchange(t, { ...noAnswer, error: 'ECONNRESET' }, fp)).toBe('error');
    expect(t).toMatchObject({ shed429: 1, shed503: 1, http5xx: 2, badResponses: 1, transportErrors: 1, requests: 6 });
    expect(failuresOf({ batch: t }).map((f) => f.kind)).toEqual(['http5xx', 'badResponses']);
  });

  it('reads an answer as run does (src/core/response.ts answerVerdict): the same verdict for every status, Retry-After and body', () => {
    const bodies = [{}, { code: 0 }, { code: -2010 }, { code: 'x' }, '<html>', { code: 0, result: [{ code: 0 }] }];
    for (const status of [200, 201, 302, 400, 401, 404, 429, 500, 502, 503])
      for (const retryAfter of [false, true])
        for (const body of bodies) {
          const t = emptyTally();
          const text = typeof body === 'string' ? body : JSON.stringify(body);
          const out = countExchange(t, { ...batch({}), status, body: text, retryAfter, clientIds: ['a'] }, fp);
          const json = typeof body === 'string' ? undefined : body;
          const core = classify({
            status,
            text,
            json,
            ...(retryAfter ? { headers: { 'retry-after': '1' } } : {}),
          }).verdict;
          const loadVerdict =
            out === 'shed'
              ? 'rate-limited'
              : t.http5xx > 0
                ? 'server-error'
                : t.badResponses > 0
                  ? 'bad-response'
                  : t.accepted > 0
                    ? 'accepted'
                    : 'rejected';
          expect(loadVerdict, `${status} ${retryAfter} ${text}`).toBe(core);
        }
  });

  it('a batch entry without a code is not placed (the core entryPlaced): a valid order not shown placed', () => {
    const t = emptyTally();
    expect(countExchange(t, batch({ code: 0, result: [{ order: { clientOrderId: 'a' } }, { code: 0 }] }), fp)).toBe(
      'failure',
    );
    expect(t.results.refusedEntries).toBe(1);
    expect(t.ordersPlaced).toBe(1);
  });

  it('reference fingerprints match on the code alone', () => {
    const t = emptyTally();
    countExchange(t, batch({ code: -1022 }, { status: 400 }), REFERENCE_FINGERPRINTS);
    expect(t.badSignatures).toBe(1);
  });

  it('merges and totals tallies, maps included', () => {
    const a = emptyTally();
    const b = emptyTally();
    countExchange(a, batch({ code: -1022 }, { status: 401 }), fp);
    countExchange(b, batch({ code: -1022 }, { status: 401 }), fp);
    countExchange(b, batch({ code: 0, result: [entry('a'), entry('b')] }), fp);
    expect(mergeTally(emptyTally(), a).refused).toEqual({ '401 -1022': 1 });
    const total = totalOf({ batch: a, 'v1/query': b });
    expect(total).toMatchObject({
      requests: 3,
      badSignatures: 2,
      refused: { '401 -1022': 2 },
      ordersPlaced: 2,
      results: { entryCodes: { '0': 2 } },
    });
  });
});
