import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../../src/core/errors.js';
import { DEFAULT_MIX, formatMix, LOAD_ROUTES, parseMix, routeDealer, routeParts } from './mix.js';

const usage = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (isSpotcheckError(err) && err.code === 'ERR_USAGE') return err.message;
    throw err;
  }
  throw new Error('expected a usage error');
};

describe('parseMix', () => {
  it('reads the default mix: every route, batch weighted 6', () => {
    const mix = parseMix(DEFAULT_MIX);
    expect(mix.map((m) => m.route)).toEqual(LOAD_ROUTES);
    expect(mix.find((m) => m.route === 'batch')?.weight).toBe(6);
    expect(formatMix(mix)).toBe(DEFAULT_MIX);
  });

  it('expands shorthands, reads batch/json as batch, a bare route as weight 1, and drops weight 0', () => {
    expect(parseMix('batch/json=3, v1.1=2, v1/query, v1/body=0')).toEqual([
      { route: 'batch', weight: 3 },
      { route: 'v1/query', weight: 1 },
      { route: 'v1.1/query', weight: 2 },
      { route: 'v1.1/body', weight: 2 },
      { route: 'v1.1/split', weight: 2 },
    ]);
    expect(parseMix('query=4').map((m) => m.route)).toEqual(['v1/query', 'v1.1/query']);
  });

  it('refuses unknown routes, bad weights, a route named twice and an empty mix, naming the culprit', () => {
    expect(usage(() => parseMix('batch=1,v2/query=1'))).toContain("unknown route 'v2/query'");
    expect(usage(() => parseMix('batch=-1'))).toContain("weight of 'batch'");
    expect(usage(() => parseMix('batch=1.5'))).toContain("weight of 'batch'");
    expect(usage(() => parseMix('v1=1,v1/body=2'))).toContain("'v1/body' is named twice");
    expect(usage(() => parseMix(' , '))).toContain('empty');
    expect(usage(() => parseMix('batch=0'))).toContain('weight 0');
  });
});

describe('routeDealer', () => {
  it('deals each route exactly its weight in every cycle, spread out', () => {
    const mix = parseMix('batch=6,v1/query=1,v1.1/split=1');
    const deal = routeDealer(mix);
    for (let cycle = 0; cycle < 3; cycle++) {
      const got = Array.from({ length: 8 }, deal);
      expect(got.filter((r) => r === 'batch')).toHaveLength(6);
      expect(got.filter((r) => r === 'v1/query')).toHaveLength(1);
      expect(got.filter((r) => r === 'v1.1/split')).toHaveLength(1);
    }
    // Smooth: the two single routes are never dealt back to back, batches at most 4 in a row.
    const long = Array.from({ length: 80 }, routeDealer(mix)).join(',');
    expect(long).not.toContain('batch,batch,batch,batch,batch');
    expect(long).not.toMatch(/v1\/query,v1\.1\/split|v1\.1\/split,v1\/query/);
  });

  it('splits a route into endpoint and placement', () => {
    expect(routeParts('batch')).toEqual({ endpoint: 'batch', placement: 'json' });
    expect(routeParts('v1.1/split')).toEqual({ endpoint: 'v1.1', placement: 'split' });
  });
});
