import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../../src/core/errors.js';
import { artilleryReport, renderLoad, reportFromJson } from './report.js';

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
