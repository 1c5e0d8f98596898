/**
 * BATCH family (§4.1): at most 20 orders of one symbol, each validated by §2.1,
 * a rejected batch places nothing; open points (empty batch, atomicity) as INFO.
 */
import fc from 'fast-check';
import type { RuleId } from '../../src/core/rule-id.js';
import { LIMITS } from '../../src/core/wire.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import type { CheckDefinition } from '../judgement/types.js';
import { boundaryBatches, editableBatch, validBatch, validOrder, withClientIds } from '../engine/generators.js';
import { describe, entryFailed, entryPlaced, isRecord, resultEntries } from '../../src/core/response.js';
import {
  expectAccepted,
  expectRefused,
  expectRejected,
  fail,
  firstFailure,
  info,
  openPoint,
  outcome,
  property,
  send,
  sendBatchOnce,
} from './helpers.js';
import { ofType, oneOrder } from './orders.js';
import { flipFirstDigit } from '../engine/sig-edits.js';
import type { Built } from '../engine/requests.js';
import type { SendResult } from '../engine/transport.js';

/** A refused batch whose answer reports no placed entry (an answer that is no refusal is judged elsewhere). */
function placedNothing(r: SendResult, what: string) {
  const entries = resultEntries(r.observation);
  if (r.observation.verdict === 'rejected' && entries?.some((e) => isRecord(e) && e.code === 0)) {
    return fail(
      `${what}: refused, no order placed`,
      `a refusal that still reports placed orders: ${describe(r.observation)}`,
      r.exchange,
    );
  }
  return undefined;
}

/** Whether every listed rule ID, and no other, is what the validator finds. */
function onlyRules(body: unknown, ruleIds: readonly RuleId[]): boolean {
  const found = new Set(validateBatch(body).map((i) => i.ruleId));
  return found.size === ruleIds.length && ruleIds.every((r) => found.has(r));
}

export const batchChecks: CheckDefinition[] = [
  {
    id: 'BATCH-ACCEPT-UP-TO-MAX',
    ruleId: 'BATCH-ACCEPT-UP-TO-MAX',
    covers: ['batch/json'],
    title: 'batches of 1 to 20 valid orders of one symbol are accepted with one result entry per order',
    placesOrders: true,
    establishes: ['batch/json'],
    run(ctx) {
      const arb = validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile);
      return property(
        ctx,
        arb,
        async (orders) => {
          // the RESULT properties' batches (same seed, same cases, 1 and 20 first): sent once for all of them
          const once = await sendBatchOnce(ctx, orders);
          if (once === undefined) return undefined;
          const { sent: batch, r } = once;
          const step = expectAccepted(r, `a valid batch of ${batch.length} orders`);
          if (step) return step;
          const entries = resultEntries(r.observation);
          if (entries?.length !== batch.length) {
            return fail(
              `${batch.length} result entries`,
              `${entries?.length ?? 'no'} result entries: ${describe(r.observation)}`,
              r.exchange,
            );
          }
          return undefined;
        },
        { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile) },
      );
    },
  },
  {
    id: 'BATCH-MAX-ORDERS',
    ruleId: 'BATCH-MAX-ORDERS',
    covers: ['batch/json'],
    title: 'batches of 21 or more otherwise valid orders are rejected',
    run(ctx) {
      return property(
        ctx,
        validBatch(ctx.target.symbol, 21, 40, ctx.target.profile),
        async (orders) => {
          const batch = withClientIds(orders, ctx.clientId);
          if (!onlyRules(batch, ['BATCH-MAX-ORDERS'])) return undefined;
          return expectRejected(await send(ctx, ctx.requests.batch(batch)), `a batch of ${batch.length} valid orders`);
          // 21, one past the §4.1 limit, and 40 first
        },
        { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 21, 40, ctx.target.profile) },
      );
    },
  },
  {
    id: 'BATCH-MAX-ORDERS.members',
    ruleId: 'BATCH-MAX-ORDERS',
    covers: ['batch/json'],
    title:
      'a batch of 21 orders is rejected even when one member is invalid or two share a client id (the limit counts orders submitted, §4.1 rule 1)',
    async run(ctx) {
      const [orders] = fc.sample(validBatch(ctx.target.symbol, 21, 21, ctx.target.profile), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const invalid = editableBatch(orders ?? [], ctx.clientId);
      invalid[10] = { ...invalid[10], side: 'HOLD' };
      const dup = editableBatch(orders ?? [], ctx.clientId);
      dup[20] = { ...dup[20], newClientOrderId: dup[0]?.newClientOrderId };
      return outcome(
        firstFailure(
          expectRejected(await send(ctx, ctx.requests.batch(invalid)), 'a batch of 21 orders, one with side HOLD'),
          expectRejected(
            await send(ctx, ctx.requests.batch(dup)),
            'a batch of 21 orders, two sharing a newClientOrderId',
          ),
        ),
      );
    },
  },
  {
    id: 'BATCH-SINGLE-SYMBOL',
    ruleId: 'BATCH-SINGLE-SYMBOL',
    covers: ['batch/json'],
    title: 'a batch mixing two symbols is rejected',
    run(ctx) {
      const arb = fc.tuple(
        validBatch(ctx.target.symbol, 1, 19, ctx.target.profile),
        validOrder(ctx.target.otherSymbol, ctx.target.profile),
        fc.nat(),
      );
      return property(ctx, arb, async ([orders, other, at]) => {
        const mixed = [...orders];
        mixed.splice(at % (orders.length + 1), 0, other);
        const batch = withClientIds(mixed, ctx.clientId);
        if (!onlyRules(batch, ['BATCH-SINGLE-SYMBOL'])) return undefined;
        // "unsupported" (§4.1 rule 2): a rejection, or every entry failed and nothing placed.
        return expectRefused(
          await send(ctx, ctx.requests.batch(batch)),
          `a batch with symbols ${ctx.target.symbol} and ${ctx.target.otherSymbol}`,
        );
      });
    },
  },
  {
    id: 'BATCH-REJECTED-PLACES-NOTHING',
    ruleId: 'BATCH-REJECTED-PLACES-NOTHING',
    covers: ['batch/json'],
    title:
      'a batch refused as a whole places nothing: too many orders, mixed symbols, a wrong signature or key, a stale timestamp, a wrong content type, a malformed body (shown by effect where the target allows)',
    async run(ctx) {
      const [big] = fc.sample(validBatch(ctx.target.symbol, 21, 21, ctx.target.profile), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const r21 = await send(ctx, ctx.requests.batch(withClientIds(big ?? [], ctx.clientId)));
      const mixed = [oneOrder(ctx), { ...oneOrder(ctx), symbol: ctx.target.otherSymbol }];
      const rMixed = await send(ctx, ctx.requests.batch(mixed));
      // Refusals before any order rule: each batch is valid but for its one fault. The runner follows each
      // whole-call refusal with a valid order reusing one of its client ids (or the order-lookup path).
      const two = () => [oneOrder(ctx), oneOrder(ctx)];
      const others: Array<[string, Built]> = [
        ['a wrong signature', ctx.requests.batch(two(), { signature: flipFirstDigit })],
        ['an unknown API key', ctx.requests.batch(two(), { apiKey: `spotcheck-unknown-key-${ctx.seed}` })],
        ['a timestamp an hour old', ctx.requests.batch(two(), { timestamp: Date.now() - 3_600_000 })],
        ['Content-Type text/plain', ctx.requests.batch(two(), { headers: { 'content-type': 'text/plain' } })],
        ['a JSON body cut short', ctx.requests.batch(undefined, { rawBody: JSON.stringify(two()).slice(0, -1) })],
      ];
      const steps = [];
      for (const [what, b] of others) {
        const r = await send(ctx, b);
        // Accepted is for other checks to judge; refused, its entries (if any) must show nothing placed.
        if (r.observation.verdict !== 'accepted') steps.push(placedNothing(r, `a batch with ${what}`));
      }
      return outcome(
        firstFailure(expectRejected(r21, 'a 21-order batch'), expectRefused(rMixed, 'a mixed-symbol batch'), ...steps),
      );
    },
  },
  {
    id: 'BATCH-PER-ORDER-RULES',
    ruleId: 'BATCH-PER-ORDER-RULES',
    covers: ['batch/json'],
    title:
      'an order breaking a §2.1 rule inside a batch is not placed: its entry has a non-zero code, or the whole call is rejected',
    run(ctx) {
      const defects: Array<[string, (o: Record<string, unknown>) => Record<string, unknown>]> = [
        [
          'price removed from a LIMIT order',
          (o) => {
            const { price: _p, ...rest } = ofType(o, 'LIMIT');
            return rest;
          },
        ],
        ['side "HOLD"', (o) => ({ ...o, side: 'HOLD' })],
        ['type "STOP"', (o) => ({ ...o, type: 'STOP' })],
        [
          'quantity removed',
          (o) => {
            const { quantity: _q, ...rest } = o;
            return rest;
          },
        ],
        ['quantity "1.2.3"', (o) => ({ ...o, quantity: '1.2.3' })],
        ['stpMode "NONE"', (o) => ({ ...o, stpMode: 'NONE' })],
        ['newClientOrderId of 256 characters', (o) => ({ ...o, newClientOrderId: 'x'.repeat(256) })],
      ];
      const arb = fc.tuple(
        validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile),
        fc.nat(),
        fc.integer({ min: 0, max: defects.length - 1 }),
      );
      return property(ctx, arb, async ([orders, at, d]) => {
        const batch = editableBatch(orders, ctx.clientId);
        const i = at % batch.length;
        const [what, apply] = defects[d] ?? defects[0]!;
        batch[i] = apply(batch[i] ?? {});
        const issues = validateBatch(batch);
        if (issues.length === 0 || issues.some((x) => x.path[0] !== i)) return undefined;
        const r = await send(ctx, ctx.requests.batch(batch));
        if (r.observation.verdict === 'rejected') return undefined;
        const step = expectAccepted(r, `a batch whose order ${i} has ${what} (or a rejection)`);
        if (step) return step;
        const entry = resultEntries(r.observation)?.[i];
        // Placed or not is the entry's code: a failed entry may still echo what was sent.
        if (!entryFailed(entry)) {
          return fail(
            `result[${i}] (${what}) with a non-zero code`,
            `result[${i}] = ${JSON.stringify(entry) ?? 'missing'}`,
            r.exchange,
          );
        }
        return undefined;
      });
    },
  },
  {
    id: 'BATCH-JSON-BODY',
    ruleId: 'BATCH-JSON-BODY',
    covers: ['batch/json'],
    title: 'a signed batch whose body is not a JSON array is rejected',
    async run(ctx) {
      const bodies = ['{"symbol":"X"}', JSON.stringify({ orders: [oneOrder(ctx)] }), '"orders"', 'null', '42'];
      const steps = [];
      for (const rawBody of bodies)
        steps.push(
          expectRejected(
            await send(ctx, ctx.requests.batch(undefined, { rawBody })),
            `batch body ${rawBody.slice(0, 40)}`,
          ),
        );
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'BATCH-TIME-IN-QUERY',
    ruleId: 'BATCH-TIME-IN-QUERY',
    covers: ['batch/json'],
    title: 'a batch with timestamp only inside the orders, not in the query, is rejected',
    async run(ctx) {
      const o = { ...oneOrder(ctx), timestamp: Math.round(ctx.clock.serverNow()) };
      return outcome(
        expectRejected(
          await send(ctx, ctx.requests.batch([o], { omitTimestamp: true })),
          'batch with timestamp in the body only',
        ),
      );
    },
  },
  {
    id: 'BATCH-EMPTY',
    ruleId: 'BATCH-EMPTY',
    covers: ['batch/json'],
    title: 'what the server does with an empty batch (not shown by the seed)',
    async run(ctx) {
      return openPoint(await send(ctx, ctx.requests.batch([])), 'empty batch', 'rejected');
    },
  },
  {
    id: 'BATCH-WEIGHT',
    ruleId: 'BATCH-WEIGHT',
    covers: ['batch/json'],
    title: 'rate-limit or weight headers on a batch answer (the seed gives weight 1 but no header or totals)',
    placesOrders: true,
    async run(ctx) {
      const r = await send(ctx, ctx.requests.batch([oneOrder(ctx)]));
      const step = expectAccepted(r, 'a valid one-order batch');
      if (step) return step;
      const h = Object.entries(r.response?.headers ?? {}).filter(([k]) => /weight|rate|limit|retry/i.test(k));
      return info(
        h.length === 0 ? 'no rate-limit or weight header' : h.map(([k, v]) => `${k}: ${String(v)}`).join('; '),
        undefined,
        r.exchange,
      );
    },
  },
  {
    id: 'BATCH-ATOMICITY',
    ruleId: 'BATCH-ATOMICITY',
    covers: ['batch/json'],
    title: 'whether one bad order fails the whole batch (not shown by the seed)',
    placesOrders: true,
    async run(ctx) {
      const { price: _p, ...bad } = ofType(oneOrder(ctx), 'LIMIT');
      const r = await send(ctx, ctx.requests.batch([oneOrder(ctx), bad, oneOrder(ctx)]));
      const o = r.observation;
      if (o.verdict === 'rejected')
        return info('all-or-nothing: the whole call was rejected for one bad order', false, r.exchange);
      if (o.verdict === 'accepted') {
        const entries = resultEntries(o) ?? [];
        const codes = entries.map((e) => (isRecord(e) ? e.code : undefined));
        const perOrder =
          entries.length === 3 && entryPlaced(entries[0]) && entryFailed(entries[1]) && entryPlaced(entries[2]);
        return info(`per order: entry codes ${JSON.stringify(codes)}`, perOrder, r.exchange);
      }
      return fail('an answer that is a rejection or an acceptance', describe(o), r.exchange);
    },
  },
];
