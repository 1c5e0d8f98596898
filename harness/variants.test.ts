/**
 * The variants' self-test, servers shaped like real deployments: a path prefix, another API-key
 * header, no batch endpoint, one placement only, a test-order path, a price filter, a wrong
 * secret. Each gets the verdict it must get: no false failure, no pass earned by a request that
 * never reached its rule. (The answer-shape variants: variants-answers.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../src/core/errors.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { byId, checkVariant as check, idsWith as ids, servedBy as served } from './run-variant.js';

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
describe.concurrent('verdicts against deployments shaped unlike the reference', () => {
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

  it('form body only: the query and split placements fail once each (placement and endpoint checks); for checks that merely use them they are routes not offered, and those checks are decided on the routes that work', async () => {
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
    // a check merely using the refused placements: decided on the routes that work,
    // each refused placement a route not offered, named with its failed control in the cell
    const side = byId(r, 'ORDER-SIDE-ENUM');
    expect(side?.status).toBe('pass');
    expect(side?.cells?.filter((c) => c.verdict === 'pass').map((c) => c.route)).toEqual([
      'batch/json',
      'v1/body',
      'v1.1/body',
    ]);
    expect(side?.cells?.filter((c) => c.verdict === 'not-offered').map((c) => c.route)).toEqual([
      'v1/query',
      'v1/split',
      'v1.1/query',
      'v1.1/split',
    ]);
    for (const c of side?.cells?.filter((c) => c.verdict === 'not-offered') ?? [])
      expect(c.reason).toMatch(/positive control failed in this run/);
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

  it('a price filter described in the target file: orders on its tick, the reference verdict', async () => {
    const filter = { tick: '0.5', minPrice: '100' };
    const r = await check({ priceFilter: filter }, { order: { price: { min: '100', max: '150', step: '0.5' } } });
    expect(ids(r, 'fail')).toEqual([]);
    expect(ids(r, 'inconclusive')).toEqual([]);
  });

  it('the same price filter undescribed: signing verdicts stand (refusals that are not the signature fingerprint), the routes whose controls the filter refused fail their endpoint check and are not offered to rule checks', async () => {
    // Only the checks read below: enough cases for a price-less MARKET order to come up in a batch.
    const r = await check(
      { priceFilter: { tick: '0.5', minPrice: '1000000000' } },
      {},
      { runs: 10, only: ['SIG-PLACEMENT-QUERY', 'ORDER-SIDE-ENUM', 'BATCH-MAX-ORDERS', 'ORDER-V1-ENDPOINT'] },
    );
    // A MARKET control carries no price, so it may pass the filter; no control is refused like a bad signature.
    expect(r.discovery?.controls.every((c) => c.state === 'accepted' || c.state === 'signature-ok')).toBe(true);
    expect(r.discovery?.controls.find((c) => c.route === 'v1/query')?.state).toBe('signature-ok');
    const placement = r.checks.find((c) => c.id === 'SIG-PLACEMENT-QUERY.v1');
    expect(placement?.status).toBe('pass');
    expect(placement?.notes?.join()).toMatch(
      /refused for a reason other than the signature and count as signature accepted \(first: HTTP 400 .*PRICE_FILTER/,
    );
    // Only a price-less MARKET order in the batch gets past the filter to the rule under test: decided
    // there; the single-order routes, whose controls the filter refused, are not offered to it.
    const side = byId(r, 'ORDER-SIDE-ENUM');
    expect(side?.status).toBe('pass');
    expect(side?.cells?.find((c) => c.route === 'batch/json')?.verdict).toBe('pass');
    expect(side?.cells?.find((c) => c.route === 'v1/query')?.verdict).toBe('not-offered');
    expect(side?.cells?.find((c) => c.route === 'v1/query')?.reason).toMatch(/positive control failed in this run/);
    expect(r.checks.find((c) => c.id === 'BATCH-MAX-ORDERS')?.status).toBe('inconclusive');
    // a valid order refused is a failure of the check establishing its route, whatever the refusal
    expect(byId(r, 'ORDER-V1-ENDPOINT')?.status).toBe('fail');
    expect(byId(r, 'ORDER-V1-ENDPOINT')?.actual).toMatch(/PRICE_FILTER/);
  });

  it('a wrong secret: exit 2 within 15 s, naming the secret', async () => {
    const t0 = Date.now();
    const err = await check({}, {}, { secret: 'not-the-secret' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - t0).toBeLessThan(15000);
    expect(isSpotcheckError(err, 'ERR_TARGET')).toBe(true);
    expect((err as Error).message).toMatch(/like one with a wrong signature: the secret is wrong/);
  });
});
