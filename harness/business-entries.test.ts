/**
 * Business refusals inside a batch (§2.2 "one entry per submitted order", §4.1 rule 4): with
 * an order grid declared, an order off the tick or under the minimum sits between valid
 * ones; a venue that refuses it entry by entry must still give it its own entry, in order.
 */
import { describe, expect, it } from 'vitest';
import type { TargetDescription } from '../conformance/target/description.js';
import { runVariant } from './run-variant.js';
import type { VariantOptions } from './variants.js';
import type { RunReport } from '../conformance/judgement/types.js';

const GRID: TargetDescription = { order: { price: { min: '100', max: '150', step: '0.5' } } };
const FILTER = { tick: '0.5', minPrice: '100' };

const run = (options: VariantOptions, description: TargetDescription): Promise<RunReport> =>
  runVariant(options, description, { serverSeed: 9, seed: 37, runs: 6, only: ['RESULT-'] });

const status = (r: RunReport, id: string) => r.checks.find((c) => c.id === id);

describe.concurrent('business refusals inside a batch', () => {
  it('a venue refusing off-grid orders entry by entry, each in its place: every RESULT check passes, the business one judged', async () => {
    const r = await run({ priceFilter: { ...FILTER, entries: 'report' } }, GRID);
    expect(r.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([]);
    expect(status(r, 'RESULT-FAILED-ORDER-REPORTED.business')?.status).toBe('pass');
  });

  it('a venue dropping the entries of orders its filter refused: RESULT-FAILED-ORDER-REPORTED.business fails', async () => {
    const r = await run({ priceFilter: { ...FILTER, entries: 'drop' } }, GRID);
    const c = status(r, 'RESULT-FAILED-ORDER-REPORTED.business');
    expect(c?.status, JSON.stringify(c)).toBe('fail');
    expect(c?.expected).toMatch(
      /entries, one per order, the refused one \(\d+: price (99\.5|100\.25), (off the declared step|under the declared minimum)\) included/,
    );
  });

  it('without a declared grid the check is skipped, saying why', async () => {
    const r = await run({}, {});
    expect(status(r, 'RESULT-FAILED-ORDER-REPORTED.business')?.status).toBe('skip');
    expect(status(r, 'RESULT-FAILED-ORDER-REPORTED.business')?.reason).toMatch(/no order grid declared/);
  });
});
