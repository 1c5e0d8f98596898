/**
 * Place-nothing by effect: a server that refuses a batch as a whole but places its valid
 * orders fails BATCH-REJECTED-PLACES-NOTHING, shown by a client id of the refused call reused
 * in a valid order, or by the order-lookup path when the target description names one; the
 * clean server passes either way and the report says which method decided.
 */
import { describe, expect, it } from 'vitest';
import type { TargetDescription } from '../conformance/target/description.js';
import { runVariant } from './run-variant.js';
import type { VariantOptions } from './variants.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { effectFaults } from './effect-faults.js';

const LOOKUP = '/api/v1/spot/order/lookup';

const run = (options: VariantOptions, description: TargetDescription, only: string[]): Promise<RunReport> =>
  runVariant(options, description, { serverSeed: 5, seed: 31, runs: 4, only });

const check = (r: RunReport, id: string) => r.checks.find((c) => c.id === id);

describe.concurrent('refused batches that still place orders are caught by effect', () => {
  for (const f of effectFaults) {
    for (const lookup of [false, true]) {
      it(`${f.name}: BATCH-REJECTED-PLACES-NOTHING fails (${lookup ? 'order-lookup path' : 'client id reused'})`, async () => {
        const r = await run({ ...f.options, orderLookup: LOOKUP }, lookup ? { orderLookup: { path: LOOKUP } } : {}, [
          'BATCH-REJECTED-PLACES-NOTHING',
        ]);
        const c = check(r, 'BATCH-REJECTED-PLACES-NOTHING');
        expect(c?.status, JSON.stringify(c)).toBe('fail');
        expect(c?.actual).toMatch(
          lookup
            ? /it placed an order: the order-lookup path \/api\/v1\/spot\/order\/lookup showed client id/
            : /it placed an order: a valid order reusing a client id of the refused call/,
        );
      });
    }
  }

  for (const lookup of [false, true]) {
    it(`the clean server passes, and the report says the method (${lookup ? 'order-lookup path' : 'client id reused'})`, async () => {
      const r = await run({ orderLookup: LOOKUP }, lookup ? { orderLookup: { path: LOOKUP } } : {}, [
        'BATCH-REJECTED-PLACES-NOTHING',
        'BATCH-MAX-ORDERS',
        'SIG-HMAC',
      ]);
      expect(r.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([]);
      const c = check(r, 'BATCH-REJECTED-PLACES-NOTHING');
      expect(c?.status).toBe('pass');
      expect(c?.notes?.join('\n')).toMatch(
        lookup
          ? /place-nothing by effect: [1-9]\d* refused call\(s\) shown to have placed nothing; method: the order-lookup path/
          : /place-nothing by effect: [1-9]\d* refused call\(s\) shown to have placed nothing; method: a valid order reusing a client id/,
      );
    });
  }
});
