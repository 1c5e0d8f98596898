import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../../src/core/errors.js';
import { renderLoadHtml } from './html.js';
import { artilleryReport, cutShort, renderLoad, reportFromJson, type LoadReport } from './report.js';

/** Recorded `artillery run --output` files of the generated project (Artillery 2.0.21, npm run test:artillery). */
const recorded = (name: string): { aggregate: { counters: Record<string, number> } } =>
  JSON.parse(readFileSync(new URL(`./testdata/artillery-${name}.json`, import.meta.url), 'utf8')) as {
    aggregate: { counters: Record<string, number> };
  };

describe('artilleryReport', () => {
  it('turns the recorded run against the reference server into a pass with the counts Artillery summed', () => {
    const json = recorded('reference');
    const c = json.aggregate.counters;
    const r = artilleryReport(json);
    expect(r.passed).toBe(true);
    expect(r.failures).toEqual([]);
    expect(r.requests).toBe(c['http.requests']);
    expect(r.routes.batch?.requests).toBe(c['spotcheck.batch.requests']);
    expect(r.ordersPlaced).toBe(
      Object.entries(c)
        .filter(([k]) => /^spotcheck\..*\.ordersPlaced$/.test(k))
        .reduce((s, [, v]) => s + v, 0),
    );
    expect(r.badSignatures).toBe(0);
    expect(r.misalignedEntries).toBe(0);
    expect(r.requestsPerSecond).toBeGreaterThan(0);
    expect(r.latencyMs.p99).not.toBeNull();
    expect(r.series.length).toBeGreaterThan(0);
    expect(renderLoad(r)).toContain('PASS: no correctness failure under load');
  });

  it('turns the recorded run against the misaligning server into a failure naming misaligned entries', () => {
    const json = recorded('misalign');
    const r = artilleryReport(json);
    expect(r.passed).toBe(false);
    expect(r.misalignedEntries).toBe(json.aggregate.counters['spotcheck.fail.misalignedEntries']);
    expect(r.misalignedEntries).toBeGreaterThan(0);
    expect(r.failures).toContainEqual({ route: 'batch', kind: 'misalignedEntries', count: r.misalignedEntries });
    expect(renderLoad(r)).toMatch(/FAIL:\n {2}batch: \d+ result entries echoing another client id/);
  });

  it('refuses a file that is not an Artillery report of a spotcheck project', () => {
    for (const bad of [{}, null, { aggregate: { counters: { 'http.requests': 3 } } }]) {
      try {
        artilleryReport(bad);
        expect.unreachable();
      } catch (err) {
        expect(isSpotcheckError(err) && err.code === 'ERR_USAGE').toBe(true);
      }
    }
  });
});

describe('reportFromJson', () => {
  it('judges a saved engine report again from its counts, not from its own passed flag', () => {
    const r = artilleryReport(recorded('misalign'));
    const tampered = { ...r, source: 'engine', passed: true, failures: [] };
    const again = reportFromJson(JSON.parse(JSON.stringify(tampered)));
    expect(again.passed).toBe(false);
    expect(again.failures.map((f) => f.kind)).toContain('misalignedEntries');
  });
});

describe('a load the order cap ended early', () => {
  const ran = (stopped: LoadReport['stopped'], mix: string): LoadReport => ({
    ...artilleryReport(recorded('reference')),
    source: 'engine',
    durationSeconds: 0.95,
    ordersPlaced: 9500,
    settings: { durationSeconds: 5, maxOrders: 10000, batchSize: 20, mix },
    ...(stopped === undefined ? {} : { stopped }),
  });

  it('passes saying it was cut short, how much ran, and what to change, in the console and the HTML page', () => {
    const r = ran('max-orders', 'batch=6,v1/query=1');
    expect(r.passed).toBe(true);
    const text = renderLoad(r);
    expect(text).not.toContain('PASS: no correctness failure under load');
    expect(text).toContain('PASS, CUT SHORT: no correctness failure in the 0.95 s of load that ran');
    const hint = cutShort(r) ?? '';
    // 9500 orders in 0.95 s: 10000 a second, 50000 for the 5 s asked
    expect(hint).toBe(
      '--max-orders 10000 was reached after 0.95 s of the 5 s asked: the load stopped early, and the verdict covers only that much. ' +
        'For the whole duration raise --max-orders (about 50000 at this pace) or lower --batch-size (20 orders a batch request now).',
    );
    expect(text.replace(/\n/g, ' ')).toContain(hint);
    const html = renderLoadHtml(r);
    expect(html).toContain('PASS, CUT SHORT');
    expect(html).toContain('raise --max-orders (about 50000 at this pace)');
  });

  it('names --batch-size only when batches are in the mix, and says nothing when the load ran its duration', () => {
    expect(cutShort(ran('max-orders', 'v1/query=1'))).not.toContain('--batch-size');
    expect(cutShort(ran('max-orders', 'v1/query=1'))).toContain('raise --max-orders');
    for (const stopped of [undefined, 'interrupted'] as const) {
      expect(cutShort(ran(stopped, 'batch=1'))).toBeUndefined();
      expect(renderLoad(ran(stopped, 'batch=1'))).not.toContain('CUT SHORT');
    }
  });
});
