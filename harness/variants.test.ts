/**
 * The variants' self-test: servers making legitimate choices the seed leaves open, or shaped
 * like real deployments, each with the verdict it must get: no false failure, no pass
 * earned by a request that never reached its rule.
 */
import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../src/core/errors.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { runConformance } from '../conformance/runner.js';
import { resolveDescription, type TargetDescription } from '../conformance/target/description.js';
import type { RunReport } from '../conformance/types.js';
import { startVariant, type RunningVariant, type VariantOptions } from './variants.js';

/** The variant each report was earned against (its counters stay readable after it closed). */
const served = new WeakMap<RunReport, RunningVariant>();

async function check(
  opts: VariantOptions,
  description: TargetDescription = {},
  secret = DEMO_SECRET,
  runs = 4,
): Promise<RunReport> {
  const variant = await startVariant(opts, 7);
  const profile = resolveDescription(description);
  try {
    const r = await runConformance({
      target: {
        baseUrl: variant.url,
        apiKey: DEMO_API_KEY,
        secret,
        symbol: profile.symbol,
        otherSymbol: profile.otherSymbol,
        profile,
      },
      profile: 'core',
      seed: 11,
      // the variants test how verdicts are earned, not the depth of the properties
      runs,
      rate: 0,
      timeoutMs: 5000,
      only: [],
      maxOrders: Infinity,
    });
    served.set(r, variant);
    return r;
  } finally {
    await variant.close();
  }
}

const ids = (r: RunReport, status: string) =>
  r.checks
    .filter((c) => c.status === status)
    .map((c) => c.id)
    .sort();
const byId = (r: RunReport, id: string) => r.checks.find((c) => c.id === id);

/** Checks that send nothing but batches: without a batch endpoint they cannot pass. */
const BATCH_ONLY = ['BATCH-MAX-ORDERS', 'BATCH-SINGLE-SYMBOL', 'SIG-BODY-COVERED', 'RESULT-ORDER-MATCH'];

/** A check over several routes passed, and only through routes that demonstrably reached its rule. */
function passedOnlyThrough(r: RunReport, id: string, excluded: readonly string[]): void {
  const c = byId(r, id);
  expect(c?.status, id).toBe('pass');
  expect(c?.routes?.length, id).toBeGreaterThan(0);
  for (const route of excluded) expect(c?.routes ?? [], `${id} @ ${route}`).not.toContain(route);
}

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

  it('no batch endpoint: one failure (the batch is not accepted), the checks that only use it inconclusive, never passed on a 404', async () => {
    const r = await check({ noBatch: true });
    expect(ids(r, 'fail')).toEqual(['BATCH-ACCEPT-UP-TO-MAX']);
    for (const id of BATCH_ONLY) expect(r.checks.find((c) => c.id === id)?.status, id).toBe('inconclusive');
    expect(r.checks.find((c) => c.id === 'BATCH-MAX-ORDERS')?.reason).toMatch(/no positive control: batch\/json/);
    // checks over every route still earn their verdicts, through the single-order routes only
    passedOnlyThrough(r, 'ORDER-SIDE-ENUM', ['batch/json']);
    passedOnlyThrough(r, 'SIG-HMAC-SHA256-HEX.flipped-bit', ['batch/json']);
  });

  it('no batch endpoint, declared in the description: the same single failure, and nothing is sent to it', async () => {
    const r = await check({ noBatch: true }, { endpoints: { batch: { offered: false } } });
    expect(ids(r, 'fail')).toEqual(['BATCH-ACCEPT-UP-TO-MAX']);
    expect(r.checks.find((c) => c.id === 'BATCH-ACCEPT-UP-TO-MAX')?.actual).toMatch(/does not offer batch\/json/);
    expect(r.discovery?.controls.find((c) => c.route === 'batch/json')?.state).toBe('not-offered');
    expect(r.deviations).toContain('batch endpoint not offered');
  });

  it('form body only: the query and split placements fail once each (placement and endpoint checks), checks that merely use them are inconclusive', async () => {
    const r = await check({ formBodyOnly: true });
    expect(ids(r, 'fail')).toEqual([
      'ORDER-V1-ENDPOINT',
      'ORDER-V11-ENDPOINT',
      'SIG-PLACEMENT-QUERY.v1',
      'SIG-PLACEMENT-QUERY.v1.1',
      'SIG-PLACEMENT-SPLIT.v1',
      'SIG-PLACEMENT-SPLIT.v1.1',
    ]);
    // the endpoint checks fail on the refused placements only, and pass on the body placement
    expect(byId(r, 'ORDER-V11-ENDPOINT')?.cells?.map((c) => [c.route, c.verdict])).toEqual([
      ['v1.1/query', 'fail'],
      ['v1.1/body', 'pass'],
      ['v1.1/split', 'fail'],
    ]);
    // a check merely using the refused placements: decided on the others, inconclusive naming the refused ones
    const side = byId(r, 'ORDER-SIDE-ENUM');
    expect(side?.status).toBe('inconclusive');
    expect(side?.cells?.filter((c) => c.verdict === 'pass').map((c) => c.route)).toEqual([
      'batch/json',
      'v1/body',
      'v1.1/body',
    ]);
    expect(side?.reason).toMatch(
      /^decided on batch\/json, v1\/body, v1.1\/body; not on v1\/query \(no positive control/,
    );
    expect(r.checks.find((c) => c.id === 'SIG-PLACEMENT-BODY.v1')?.status).toBe('pass');
  });

  it('a path prefix and another API-key header, described: the reference verdict', async () => {
    const r = await check(
      { prefix: '/gw', apiKeyHeader: 'X-GW-APIKEY' },
      { pathPrefix: '/gw', apiKeyHeader: 'X-GW-APIKEY' },
    );
    expect(ids(r, 'fail')).toEqual([]);
    expect(ids(r, 'inconclusive')).toEqual([]);
    expect(r.deviations?.join(';')).toMatch(/X-GW-APIKEY/);
  });

  it('the same server undescribed: the run stops at discovery, exit 2, saying the paths are wrong', async () => {
    const err = await check({ prefix: '/gw', apiKeyHeader: 'X-GW-APIKEY' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSpotcheckError(err, 'ERR_TARGET')).toBe(true);
    expect((err as Error).message).toMatch(/404\/405: wrong --base-url or paths/);
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
    const r = await check({ echoFailedEntries: true });
    expect(ids(r, 'fail')).toEqual([]);
  });

  it('a mixed-symbol batch answered with every entry failed and nothing placed: accepted as "unsupported"', async () => {
    const r = await check({ mixedSymbolEntries: true });
    expect(ids(r, 'fail')).toEqual([]);
    expect(r.checks.find((c) => c.id === 'BATCH-SINGLE-SYMBOL')?.status).toBe('pass');
  });

  it('a price filter described in the target file: orders on its tick, the reference verdict', async () => {
    const filter = { tick: '0.5', minPrice: '100' };
    const r = await check({ priceFilter: filter }, { order: { price: { min: '100', max: '150', step: '0.5' } } });
    expect(ids(r, 'fail')).toEqual([]);
    expect(ids(r, 'inconclusive')).toEqual([]);
  });

  it('the same price filter undescribed: signing verdicts stand (refusals that are not the signature fingerprint), rule verdicts are inconclusive, not passed', async () => {
    // enough cases for a price-less MARKET order to come up in a batch
    const r = await check({ priceFilter: { tick: '0.5', minPrice: '1000000000' } }, {}, DEMO_SECRET, 10);
    // A MARKET control carries no price, so it may pass the filter; no control is refused like a bad signature.
    expect(r.discovery?.controls.every((c) => c.state === 'accepted' || c.state === 'signature-ok')).toBe(true);
    expect(r.discovery?.controls.find((c) => c.route === 'v1/query')?.state).toBe('signature-ok');
    const placement = r.checks.find((c) => c.id === 'SIG-PLACEMENT-QUERY.v1');
    expect(placement?.status).toBe('pass');
    expect(placement?.notes?.join()).toMatch(
      /refused for a reason other than the signature and count as signature accepted \(first: HTTP 400 .*PRICE_FILTER/,
    );
    // Only a price-less MARKET order in the batch gets past the filter to the rule under test: decided
    // there, the single-order routes named as undecided (an inconclusive route never hides a judged one).
    const side = byId(r, 'ORDER-SIDE-ENUM');
    expect(side?.status).toBe('inconclusive');
    expect(side?.cells?.find((c) => c.route === 'batch/json')?.verdict).toBe('pass');
    expect(side?.cells?.find((c) => c.route === 'v1/query')?.reason).toMatch(/no positive control/);
    expect(side?.reason).toMatch(/^decided on batch\/json; not on v1\/query/);
    expect(r.checks.find((c) => c.id === 'BATCH-MAX-ORDERS')?.status).toBe('inconclusive');
    // a valid order refused is a failure of the check establishing its route, whatever the refusal
    expect(byId(r, 'ORDER-V1-ENDPOINT')?.status).toBe('fail');
    expect(byId(r, 'ORDER-V1-ENDPOINT')?.actual).toMatch(/PRICE_FILTER/);
  });

  it('no Date header: the clock-sized checks skip with the reason, the clock-free ones still decide', async () => {
    const r = await check({ noDateHeader: true });
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

  it('a test-order path, described: v1 requests go there, only ORDER-V1-ENDPOINT uses the real endpoint; the reference verdict', async () => {
    const r = await check({ testOrderPath: '/api/v1/spot/order/test' }, { testOrderPath: '/api/v1/spot/order/test' });
    expect(ids(r, 'fail')).toEqual([]);
    const counts = served.get(r)?.v1Requests();
    expect(counts?.test).toBeGreaterThan(100);
    // ORDER-V1-ENDPOINT: a LIMIT and a MARKET order in each of the three placements; a few garbage probes (ROBUST-NO-5XX.garbage) place nothing.
    expect(counts?.real).toBeGreaterThanOrEqual(6);
    expect(counts?.real).toBeLessThan((counts?.test ?? 0) / 10);
    expect(byId(r, 'ORDER-V1-ENDPOINT')?.status).toBe('pass');
    expect(r.deviations?.join(';')).toMatch(/test-order path/);
  });

  it('a wrong secret: exit 2 within 15 s, naming the secret', async () => {
    const t0 = Date.now();
    const err = await check({}, {}, 'not-the-secret').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - t0).toBeLessThan(15000);
    expect(isSpotcheckError(err, 'ERR_TARGET')).toBe(true);
    expect((err as Error).message).toMatch(/like one with a wrong signature: the secret is wrong/);
  });
});
