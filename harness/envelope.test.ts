/**
 * The declared envelope, honoured everywhere (design notes, "Probes valid or invalid under every
 * reading"): over random target descriptions (a recvWindow maximum, price, quantity and amount
 * grids, the placements offered, with or without the batch), every probe of a whole run that
 * states it must be accepted stays inside the description: its route offered, its recvWindow
 * within the maximum, each decimal on its grid, the declared symbol. A generator drawing a
 * positive probe outside (catalogue forms, property cases, edges, the largest request) fails here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/server/server.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { parsePairs, SIGNATURE_PARAM } from '../src/core/signing/query.js';
import { runConformance } from '../conformance/engine/runner.js';
import { DEFAULT_TIMEOUT_MS } from '../conformance/engine/transport.js';
import { resolveDescription, type TargetDescription } from '../conformance/target/description.js';
import { offGrid, toGrid, type DecimalSpec, type Grid } from '../conformance/target/decimal-grid.js';
import { validateOrder } from '../src/core/validation/order.js';
import type { CheckRecord } from '../conformance/judgement/decide.js';

const PLACEMENTS = ['query', 'body', 'split'] as const;

/** A grid of `count` steps from `min` (both in units of `step`). */
const grid = fc
  .record({
    step: fc.constantFrom('0.01', '0.5', '1', '0.001', '0.25'),
    from: fc.integer({ min: 1, max: 50 }),
    count: fc.integer({ min: 0, max: 2000 }),
  })
  .map(({ step, from, count }): DecimalSpec => {
    const scale = step.includes('.') ? step.length - step.indexOf('.') - 1 : 0;
    const units = BigInt(step.replace('.', ''));
    const text = (n: bigint) => {
      const s = n.toString().padStart(scale + 1, '0');
      return scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
    };
    return { min: text(units * BigInt(from)), max: text(units * BigInt(from + count)), step };
  });

const description: fc.Arbitrary<TargetDescription> = fc.record(
  {
    maxRecvWindow: fc.integer({ min: 1000, max: 60000 }),
    order: fc.record({ price: grid, quantity: grid, amount: grid }, { requiredKeys: [] }),
    endpoints: fc.record({
      batch: fc.record({ offered: fc.boolean() }),
      v1: fc.record({ placements: fc.subarray([...PLACEMENTS], { minLength: 1 }) }),
      'v1.1': fc.record({ placements: fc.subarray([...PLACEMENTS], { minLength: 1 }) }),
    }),
  },
  { requiredKeys: ['maxRecvWindow'] },
);

/** Whether a decimal text lies on a grid (exactly, by value). */
function onGrid(v: string, g: Grid): boolean {
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(v);
  if (m === null) return false;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > g.scale) return false;
  const scaled = BigInt(`${m[1]}${frac.padEnd(g.scale, '0')}`);
  return scaled >= g.min && (scaled - g.min) % g.step === 0n && (scaled - g.min) / g.step < g.count;
}

/** Why a probe expected to be accepted lies outside the description; [] when it lies inside. */
function outside(rec: CheckRecord, d: TargetDescription): string[] {
  const profile = resolveDescription(d);
  const out: string[] = [];
  for (const e of rec.evidence) {
    if (e.expectation.kind !== 'accept' || e.request === undefined || e.route === undefined) continue;
    if (e.observation.verdict === 'not-sent') continue;
    const at = `${rec.def.id} on ${e.route}`;
    const [endpoint = '', placement = ''] = e.route.split('/');
    const ep = profile.endpoints[endpoint as 'batch' | 'v1' | 'v1.1'];
    if (ep === undefined || !ep.offered || (endpoint !== 'batch' && !ep.placements.includes(placement as 'query')))
      out.push(`${at}: a route the target does not offer`);
    const req = e.request;
    const pairs = parsePairs(req.query);
    const orders: Array<Record<string, unknown>> = [];
    if (endpoint === 'batch') {
      try {
        const v: unknown = JSON.parse(req.body);
        if (Array.isArray(v)) orders.push(...(v as Array<Record<string, unknown>>));
      } catch {
        // not JSON: nothing to compare
      }
    } else {
      pairs.push(...parsePairs(req.body));
      orders.push(Object.fromEntries(pairs.filter(([k]) => k !== SIGNATURE_PARAM)));
    }
    const rw = pairs.find(([k]) => k === 'recvWindow')?.[1];
    if (rw !== undefined && /^[0-9]+$/.test(rw) && Number(rw) > profile.maxRecvWindow)
      out.push(`${at}: recvWindow ${rw} over the declared ${profile.maxRecvWindow}`);
    for (const o of orders) {
      // a batch element broken on purpose (an entry the check expects to fail) is no positive probe
      if (endpoint === 'batch' && validateOrder(o, { version: 'v1' }).length > 0) continue;
      if (o.symbol !== undefined && o.symbol !== profile.symbol) out.push(`${at}: symbol ${String(o.symbol)}`);
      for (const f of ['price', 'quantity', 'amount'] as const) {
        const g = profile[f];
        const v = o[f];
        if (g === undefined || v === undefined) continue;
        const text = String(v);
        // the values a venue with this grid refuses, sent on purpose as the failing entry (RESULT-FAILED-ORDER-REPORTED.business)
        const bad = offGrid(g);
        if (endpoint === 'batch' && (text === bad.offTick || text === bad.underMin)) continue;
        if (!onGrid(text, g)) out.push(`${at}: ${f} ${text} off the declared grid`);
      }
    }
  }
  return out;
}

describe('the declared envelope: no positive probe outside a random target description', () => {
  const samples = fc.sample(description, { seed: 20261129, numRuns: 6 });
  samples.forEach((d, i) => {
    it.concurrent(`description ${i + 1}: ${JSON.stringify(d)}`, async () => {
      for (const spec of [d.order?.price, d.order?.quantity, d.order?.amount])
        if (spec !== undefined) expect('error' in toGrid(spec)).toBe(false);
      const server = await startServer({ port: 0 });
      const found: string[] = [];
      let accepts = 0;
      try {
        const profile = resolveDescription(d);
        await runConformance({
          target: {
            baseUrl: server.url,
            apiKey: DEMO_API_KEY,
            secret: DEMO_SECRET,
            symbol: profile.symbol,
            otherSymbol: profile.otherSymbol,
            profile,
          },
          profile: 'core',
          seed: 100 + i,
          runs: 20,
          rate: 0,
          timeoutMs: DEFAULT_TIMEOUT_MS,
          only: [],
          maxOrders: Infinity,
          concurrency: 8,
          onRecord: (rec) => {
            accepts += rec.evidence.filter((e) => e.expectation.kind === 'accept').length;
            found.push(...outside(rec, d));
          },
        });
      } finally {
        await server.close();
      }
      expect(accepts).toBeGreaterThan(100);
      expect([...new Set(found)]).toEqual([]);
    });
  });
});
