/**
 * The variants' self-test, servers making legitimate choices the seed leaves open in their
 * answers: a transparent proxy, 429s with Retry-After, gzip, 19-digit ids as numbers, failed
 * entries echoing an order, a mixed-symbol batch answered entry by entry, no Date header. Each
 * gets the verdict it must get: no false failure, no pass earned by a request that never reached
 * its rule. (The deployment-shape variants: variants.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { byId, checkVariant as check, idsWith as ids, servedBy as served } from './run-variant.js';

// Each test owns its server: they run together, overlapping their clock waits.
describe.concurrent('verdicts against servers nobody on the team wrote', () => {
  it('a transparent proxy changes nothing: the reference verdict, every route controlled', async () => {
    const r = await check({});
    expect(ids(r, 'fail')).toEqual([]);
    expect(ids(r, 'inconclusive')).toEqual([]);
    expect(r.discovery?.controls.every((c) => c.state === 'accepted')).toBe(true);
    expect(r.discovery?.fingerprints).toMatchObject({
      signature: 'HTTP 401 code -1022',
      unknownKey: 'HTTP 401 code -2015',
      stale: 'HTTP 400 code -1021',
    });
    // a missing signature, key and timestamp: answers that prove nothing about a signature
    expect(r.discovery?.fingerprints.missing).toHaveLength(3);
    expect(r.summary.cells?.inconclusive).toBe(0);
  });

  it('random 429s with Retry-After: waited, re-signed, resent; no verdict changes', async () => {
    const r = await check({ rate429: 0.15, retryAfterSeconds: 0 });
    expect(ids(r, 'fail')).toEqual([]);
    expect(served.get(r)?.throttled()).toBeGreaterThan(10);
    expect(r.rateLimits?.responses).toBe(served.get(r)?.throttled());
    expect(r.rateLimits?.retried).toBeGreaterThan(0);
  });

  it('every answer gzip-compressed though the request did not ask for gzip (RFC 9110 §12.5.3): decoded, the reference verdict', async () => {
    const r = await check({ compress: 'gzip' });
    expect(ids(r, 'fail')).toEqual([]);
    expect(ids(r, 'inconclusive')).toEqual([]);
    expect(r.discovery?.controls.every((c) => c.state === 'accepted')).toBe(true);
  });

  it('19-digit orderIds as JSON numbers: read losslessly, distinct ids stay distinct', async () => {
    const r = await check({ numericIds: true });
    expect(ids(r, 'fail')).toEqual([]);
    expect(r.checks.find((c) => c.id === 'RESULT-ORDER-ID')?.status).toBe('pass');
  });

  it('failed batch entries that echo an order: placement is judged by the entry code', async () => {
    // The families whose batches get failed entries (an order rule broken in a batch, a client id
    // reused by an effect probe); the SIG, TIME and SCHEMA checks' batches are accepted whole or
    // refused whole (no entries), so this proxy answers them as the transparent one does.
    const r = await check(
      { echoFailedEntries: true },
      {},
      { only: ['AUTH-', 'BATCH-', 'ORDER-', 'RESULT-', 'ROBUST-'] },
    );
    expect(ids(r, 'fail')).toEqual([]);
    expect(r.checks.find((c) => c.id === 'BATCH-PER-ORDER-RULES')?.status).toBe('pass');
  });

  it('a mixed-symbol batch answered with every entry failed and nothing placed: accepted as "unsupported"', async () => {
    // Only BATCH checks send a batch of two symbols (the target's other symbol is theirs alone).
    const r = await check({ mixedSymbolEntries: true }, {}, { only: ['BATCH-'] });
    expect(ids(r, 'fail')).toEqual([]);
    expect(r.checks.find((c) => c.id === 'BATCH-SINGLE-SYMBOL')?.status).toBe('pass');
  });

  it('no Date header: the clock-sized checks skip with the reason, the clock-free ones still decide', async () => {
    // Only the clock reads the Date header, and only the TIME checks read the clock (needsClock): the
    // other families send the same requests with or without it.
    const r = await check({ noDateHeader: true }, {}, { only: ['TIME-'] });
    expect(r.clock.method).toBe('none');
    expect(ids(r, 'fail')).toEqual([]);
    expect(byId(r, 'TIME-WINDOW-PAST')?.status).toBe('skip');
    for (const id of [
      'TIME-WINDOW-PAST.hour',
      'TIME-WINDOW-LEAD.hour',
      'TIME-RECVWINDOW-DEFAULT.width',
      'TIME-RECVWINDOW-HONOURED.width',
    ]) {
      expect(byId(r, id)?.status, id).toBe('pass');
    }
  });
});
