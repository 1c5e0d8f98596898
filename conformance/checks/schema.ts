/**
 * SCHEMA family (§2.2): every accepted response body validates against the spec's
 * schemas, with the wire encodings of the design notes (LONG as integer or digit
 * string, DECIMAL as number or decimal string).
 */
import fc from 'fast-check';
import { LIMITS } from '../../src/core/wire.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import type { CheckDefinition } from '../judgement/types.js';
import { boundaryBatches, firstValue, validBatch, withClientIds } from '../engine/generators.js';
import { isRecord, resultEntries } from '../../src/core/response.js';
import { schemaErrors } from '../judgement/schemas.js';
import { expectAccepted, fail, info, property, send, sendBatchOnce } from './helpers.js';
import { limitParams } from './orders.js';

export const schemaChecks: CheckDefinition[] = [
  {
    id: 'SCHEMA-BATCH-RESPONSE',
    ruleId: 'SCHEMA-BATCH-RESPONSE',
    covers: ['batch/json'],
    title: 'accepted batch responses validate against the 200 response schema of spec/openapi.yaml',
    placesOrders: true,
    run(ctx) {
      return property(
        ctx,
        validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile),
        async (orders) => {
          const once = await sendBatchOnce(ctx, orders);
          if (once === undefined) return undefined;
          const { r } = once;
          const step = expectAccepted(r, 'a valid batch');
          if (step) return step;
          const errors = await schemaErrors('batch-order-response', r.observation.json);
          return errors.length === 0
            ? undefined
            : fail('a body valid against the batch 200 response schema', errors.slice(0, 5).join('; '), r.exchange);
        },
        { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile) },
      );
    },
  },
  {
    id: 'SCHEMA-ORDER-RESPONSE',
    ruleId: 'SCHEMA-ORDER-RESPONSE',
    covers: ['batch/json'],
    title:
      'every result[].order validates against the order schema of spec/openapi.yaml, orders of every type included',
    placesOrders: true,
    run(ctx) {
      const arb = fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER').chain((type) =>
        validBatch(ctx.target.symbol, 1, 5, ctx.target.profile).map((os) =>
          os.map((o) =>
            // (a timeInForce only as §2.1 names it for the type: valid under every reading, D-UNDEFINED-FIELDS)
            type === 'MARKET'
              ? { ...o, type, price: undefined, ...(o.timeInForce === undefined ? {} : { timeInForce: 'IOC' }) }
              : {
                  ...o,
                  type,
                  price: o.price ?? firstValue(ctx.target.profile?.price, '1'),
                  ...(o.timeInForce === undefined ? {} : { timeInForce: 'GTC' }),
                },
          ),
        ),
      );
      return property(ctx, arb, async (orders) => {
        const sent = withClientIds(orders, ctx.clientId).map((o) => JSON.parse(JSON.stringify(o)) as object);
        if (validateBatch(sent).length > 0) return undefined;
        const r = await send(ctx, ctx.requests.batch(sent));
        const step = expectAccepted(r, 'a valid batch');
        if (step) return step;
        for (const [i, e] of (resultEntries(r.observation) ?? []).entries()) {
          if (!isRecord(e) || !isRecord(e.order)) continue;
          const errors = await schemaErrors('order-response', e.order);
          if (errors.length > 0)
            return fail(
              `result[${i}].order valid against the order response schema`,
              errors.slice(0, 5).join('; '),
              r.exchange,
            );
        }
        return undefined;
      });
    },
  },
  {
    id: 'SCHEMA-ORDER-RESPONSE.single',
    ruleId: 'SCHEMA-ORDER-RESPONSE',
    covers: ['v1/query'],
    title:
      'the answer of an accepted single order, against the reference shape (the seed does not show it, D-SINGLE-RESPONSE)',
    level: 'INFO',
    levelReason:
      'the seed shows no single-order response (D-SINGLE-RESPONSE): its shape against the reference is reported, never failed',
    placesOrders: true,
    async run(ctx) {
      const r = await send(ctx, ctx.requests.order(limitParams(ctx), 'v1', 'query'));
      const step = expectAccepted(r, 'a valid v1 LIMIT order');
      if (step) return step;
      const errors = await schemaErrors('single-order-response', r.observation.json);
      return info(
        errors.length === 0
          ? 'matches the reference single-order response'
          : `differs from the reference shape: ${errors.slice(0, 3).join('; ')}`,
        errors.length === 0,
        r.exchange,
      );
    },
  },
];
