/**
 * SCHEMA family (§2.2): every accepted response body validates against the spec's
 * schemas, with the wire encodings of the design notes (LONG as integer or digit
 * string, DECIMAL as number or decimal string).
 */
import fc from 'fast-check';
import { validateBatch } from '../../src/validation/index.js';
import type { CheckDefinition } from '../types.js';
import { validBatch, withClientIds } from '../generators.js';
import { isRecord, resultEntries } from '../observe.js';
import { schemaErrors } from '../schemas.js';
import { expectAccepted, fail, property, send } from './helpers.js';

export const schemaChecks: CheckDefinition[] = [
  {
    id: 'SCHEMA-BATCH-RESPONSE',
    ruleId: 'SCHEMA-BATCH-RESPONSE',
    title: 'accepted batch responses validate against batch-order-response.schema.json',
    placesOrders: true,
    run(ctx) {
      return property(ctx, validBatch(ctx.target.symbol, 1, 20), async (orders) => {
        const sent = withClientIds(orders, ctx.clientId);
        if (validateBatch(sent).length > 0) return undefined;
        const r = await send(ctx, ctx.requests.batch(sent));
        const step = expectAccepted(r, 'a valid batch');
        if (step) return step;
        const errors = schemaErrors('batch-order-response', r.observation.json);
        return errors.length === 0 ? undefined : fail('a body valid against batch-order-response.schema.json', errors.slice(0, 5).join('; '), r.exchange);
      });
    },
  },
  {
    id: 'SCHEMA-ORDER-RESPONSE',
    ruleId: 'SCHEMA-ORDER-RESPONSE',
    title: 'every result[].order validates against order-response.schema.json, orders of every type included',
    placesOrders: true,
    run(ctx) {
      const arb = fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER').chain((type) =>
        validBatch(ctx.target.symbol, 1, 5).map((os) => os.map((o) => (type === 'MARKET' ? { ...o, type, price: undefined } : { ...o, type, price: o.price ?? '1' }))),
      );
      return property(ctx, arb, async (orders) => {
        const sent = withClientIds(orders, ctx.clientId).map((o) => JSON.parse(JSON.stringify(o)) as object);
        if (validateBatch(sent).length > 0) return undefined;
        const r = await send(ctx, ctx.requests.batch(sent));
        const step = expectAccepted(r, 'a valid batch');
        if (step) return step;
        for (const [i, e] of (resultEntries(r.observation) ?? []).entries()) {
          if (!isRecord(e) || !isRecord(e.order)) continue;
          const errors = schemaErrors('order-response', e.order);
          if (errors.length > 0) return fail(`result[${i}].order valid against order-response.schema.json`, errors.slice(0, 5).join('; '), r.exchange);
        }
        return undefined;
      });
    },
  },
];
