import { describe, expect, it } from 'vitest';
import { esc, latencyHistogram, measuredEdges, symlog, timePlot } from './plots.js';

describe('symlog', () => {
  it('is linear within ±1 s and logarithmic beyond, keeping order and sign', () => {
    expect(symlog(0)).toBe(0);
    expect(symlog(500)).toBe(0.5);
    expect(symlog(-1000)).toBe(-1);
    expect(symlog(10_000)).toBeCloseTo(2);
    expect(symlog(-3_600_000)).toBeCloseTo(-(1 + Math.log10(3600)));
    expect(symlog(1001)).toBeGreaterThan(symlog(1000));
  });
});

describe('measuredEdges', () => {
  it('puts each edge halfway between the last accepted and the first refused probe', () => {
    const probes = [
      { offsetMs: -5050, verdict: 'rejected' },
      { offsetMs: -4950, verdict: 'accepted' },
      { offsetMs: 0, verdict: 'accepted' },
      { offsetMs: 975, verdict: 'accepted' },
      { offsetMs: 1025, verdict: 'rejected' },
      { offsetMs: 5000, verdict: 'rejected' },
    ];
    expect(measuredEdges(probes)).toEqual({ lead: 1000, past: -5000 });
  });
  it('claims no edge from a wide bracket, from answers that are not refusals, or without an acceptance', () => {
    expect(
      measuredEdges([
        { offsetMs: 0, verdict: 'accepted' },
        { offsetMs: 2000, verdict: 'rejected' },
      ]),
    ).toEqual({});
    expect(
      measuredEdges([
        { offsetMs: 0, verdict: 'accepted' },
        { offsetMs: 100, verdict: 'no-answer' },
      ]),
    ).toEqual({});
    expect(measuredEdges([{ offsetMs: 100, verdict: 'rejected' }])).toEqual({});
  });
});

describe('timePlot and latencyHistogram', () => {
  it('draws the measured edge of a row, the seed edges and one mark per probe', () => {
    const svg = timePlot(
      [
        { offsetMs: 900, verdict: 'accepted', check: 'A' },
        { offsetMs: 1100, verdict: 'rejected', check: 'A' },
        { offsetMs: -2900, recvWindow: 3000, verdict: 'accepted', check: 'B' },
      ],
      { offsetMs: 0, uncertaintyMs: 40, method: 'date-header' },
    );
    expect(svg.match(/<g class="probe /g)?.length).toBe(3);
    expect(svg.match(/class="seed-edge"/g)?.length).toBe(2 * 2 + 1); // two rows, two edges each, and the legend
    expect(svg).toContain('data-side="lead"');
    expect(svg).toContain('measured lead edge ≈ +1000 ms');
  });
  it('labels every bucket and escapes text', () => {
    const svg = latencyHistogram({
      timed: 2,
      histogram: [
        { upToMs: 5, count: 1 },
        { upToMs: 2000, count: 0 },
        { upToMs: null, count: 1 },
      ],
      answers: {},
    });
    expect(svg).toContain('≤ 5 ms');
    expect(svg).toContain('≤ 2 s');
    expect(svg).toContain('&gt; 2 s');
    expect(esc(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });
});
