import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artilleryReport } from './report.js';
import { latencyOverTime, renderLoadHtml } from './html.js';

const recorded = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./testdata/artillery-${name}.json`, import.meta.url), 'utf8'));

describe('load HTML report', () => {
  it('plots one p50 and one p99 point per second with data, and a requests bar per second', () => {
    const r = artilleryReport(recorded('reference'));
    const svg = latencyOverTime(r);
    const withData = r.series.filter((p) => Number.isFinite(p.p99));
    expect(withData.length).toBeGreaterThan(0);
    const points = (cls: string): number =>
      ((new RegExp(`class="${cls}" d="([^"]*)"`).exec(svg)?.[1] ?? '').match(/[ML]/g) ?? []).length;
    expect(points('p50')).toBe(withData.length);
    expect(points('p99')).toBe(withData.length);
    expect(svg.match(/<rect class="rps" x=/g)?.length).toBe(r.series.length + 1);
  });

  it('says FAIL with each failure, has no script, and escapes what it prints', () => {
    const r = artilleryReport(recorded('misalign'));
    const html = renderLoadHtml({ ...r, target: '<b>x</b>' });
    expect(html).toContain('<p class="verdict fail">FAIL</p>');
    expect(html).toMatch(/batch: \d+ result entries echoing another client id/);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toMatch(/<script/i);
  });

  it('a report without per-second latency says so instead of drawing an empty plot', () => {
    const r = { ...artilleryReport(recorded('reference')), series: [] };
    expect(latencyOverTime(r)).toContain('No per-second latency');
  });
});
