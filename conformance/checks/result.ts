/**
 * RESULT family (§2.2, §4.1 rule 4, §7): the shape and content of the batch answer.
 * Each check is a property over generated valid batches.
 */
import fc from 'fast-check';
import { LIMITS } from '../../src/core/wire.js';
import { charLength, parseDecimal } from '../../src/core/validation/fields.js';
import { sameDecimalValue } from '../../src/core/validation/decimal.js';
import { longValue, sameSymbol } from '../../src/core/validation/meaning.js';
import type { BatchOrderItem } from '../../src/core/types.js';
import type { CheckDefinition } from '../judgement/types.js';
import { boundaryBatches, editableBatch, firstValue, validBatch, withClientIds } from '../engine/generators.js';
import { describe, isRecord, resultEntries, type Observation } from '../../src/core/response.js';
import {
  expectAccepted,
  fail,
  firstFailure,
  inconclusive,
  info,
  outcome,
  pass,
  property,
  send,
  sendBatchOnce,
  skip,
  type Step,
  verdictOf,
} from './helpers.js';
import { expect as want } from '../judgement/verdict.js';
import { ofType, oneOrder } from './orders.js';
import { judgeExtreme } from './extremes.js';
import type { Route } from '../engine/requests.js';
import { offGrid } from '../target/decimal-grid.js';
import type { Exchange } from '../engine/transport.js';

type Sent = Array<BatchOrderItem & { newClientOrderId: string }>;
/** Judges one accepted batch; `seen` lives for one run of the check (e.g. orderIds given so far); `now` is the server's estimated time, ms. */
type Judge = (
  sent: Sent,
  o: Observation,
  entries: unknown[],
  exchange: Exchange,
  seen: Set<string>,
  now: number,
) => Step;

const DAY_MS = 86_400_000;

/** A property over accepted valid batches, judged by `judge`. */
function resultCheck(def: Omit<CheckDefinition, 'run'>, judge: Judge): CheckDefinition {
  return {
    placesOrders: true,
    covers: ['batch/json'],
    ...def,
    run(ctx) {
      const seen = new Set<string>();
      return property(
        ctx,
        validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile),
        async (orders) => {
          const once = await sendBatchOnce(ctx, orders);
          if (once === undefined) return undefined;
          const { sent, r } = once;
          const step = expectAccepted(r, `a valid batch of ${sent.length} orders`);
          if (step) return step;
          const entries = resultEntries(r.observation);
          if (entries === undefined) return fail('a `result` array', describe(r.observation), r.exchange);
          return judge(sent, r.observation, entries, r.exchange, seen, ctx.clock.serverNow());
        },
        { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile) },
      );
    },
  };
}

const orderOf = (e: unknown): Record<string, unknown> | undefined =>
  isRecord(e) && isRecord(e.order) ? e.order : undefined;
const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);

/** The batch route. */
const BATCH: Route = { endpoint: 'batch', placement: 'json' };

/** Values past the LONG range (2^63 - 1): 2^64 + 5 wraps to 5 in 64 bits; 10^39 is past 128 bits too. */
const HUGE: ReadonlyArray<readonly ['quantity' | 'price', string]> = [
  ['quantity', '18446744073709551621'],
  ['price', '18446744073709551621'],
  ['quantity', `1${'0'.repeat(39)}`],
];

export const resultChecks: CheckDefinition[] = [
  resultCheck(
    {
      id: 'RESULT-TOP-CODE',
      ruleId: 'RESULT-TOP-CODE',
      title: 'a successful batch call has an integer top-level code',
    },
    (_s, o, _e, x) =>
      isRecord(o.json) && isInteger(o.json.code) ? undefined : fail('an integer top-level `code`', describe(o), x),
  ),
  resultCheck(
    {
      id: 'RESULT-SUCCESS-CODE-ZERO',
      ruleId: 'RESULT-SUCCESS-CODE-ZERO',
      title: 'a successful batch call has top-level code 0',
    },
    (_s, o, _e, x) => (isRecord(o.json) && o.json.code === 0 ? undefined : fail('top-level `code` 0', describe(o), x)),
  ),
  resultCheck(
    {
      id: 'RESULT-ONE-PER-ORDER',
      ruleId: 'RESULT-ONE-PER-ORDER',
      title: '`result` has exactly one entry per submitted order',
    },
    (s, _o, e, x) => (e.length === s.length ? undefined : fail(`${s.length} entries`, `${e.length} entries`, x)),
  ),
  resultCheck(
    {
      id: 'RESULT-ENTRY-CODE-MSG',
      ruleId: 'RESULT-ENTRY-CODE-MSG',
      title: 'every result entry has an integer code and a string msg',
    },
    (_s, _o, e, x) => {
      const i = e.findIndex((v) => !isRecord(v) || !isInteger(v.code) || typeof v.msg !== 'string');
      return i === -1
        ? undefined
        : fail(`result[${i}] with integer code and string msg`, JSON.stringify(e[i]) ?? 'missing', x);
    },
  ),
  resultCheck(
    {
      id: 'RESULT-ORDER-MATCH',
      ruleId: 'RESULT-ORDER-MATCH',
      title: 'entry i answers order i (its clientOrderId is order i’s newClientOrderId)',
    },
    (s, _o, e, x) => {
      const i = s.findIndex(
        (o, k) => orderOf(e[k])?.clientOrderId !== o.newClientOrderId && orderOf(e[k]) !== undefined,
      );
      return i === -1
        ? undefined
        : fail(`result[${i}].order.clientOrderId = ${s[i]?.newClientOrderId}`, String(orderOf(e[i])?.clientOrderId), x);
    },
  ),
  resultCheck(
    {
      id: 'RESULT-CLIENT-ORDER-ID-ECHO',
      ruleId: 'RESULT-CLIENT-ORDER-ID-ECHO',
      title: 'every placed order echoes the newClientOrderId sent as clientOrderId',
    },
    (s, _o, e, x) => {
      const sentIds = new Set(s.map((o) => o.newClientOrderId));
      const placed = e.map(orderOf).filter((o) => o !== undefined);
      if (placed.length === 0) return fail('placed orders in `result`', 'no entry carries an order', x);
      const bad = placed.find((o) => typeof o.clientOrderId !== 'string' || !sentIds.has(o.clientOrderId));
      return bad === undefined
        ? undefined
        : fail('clientOrderId equal to a newClientOrderId sent', JSON.stringify(bad.clientOrderId), x);
    },
  ),
  resultCheck(
    {
      id: 'RESULT-ORDER-ID',
      ruleId: 'RESULT-ORDER-ID',
      title: 'every placed order has an orderId of at most 20 characters, unique in the run',
    },
    (_s, _o, e, x, seen) => {
      for (const [i, entry] of e.entries()) {
        const o = orderOf(entry);
        if (o === undefined) continue;
        const id = o.orderId;
        const text =
          typeof id === 'number' && Number.isInteger(id)
            ? String(id)
            : typeof id === 'string' && /^[0-9]+$/.test(id)
              ? id
              : undefined;
        if (text === undefined || charLength(text) > LIMITS.maxOrderId)
          return fail(
            `result[${i}].order.orderId: a LONG of at most ${LIMITS.maxOrderId} characters`,
            JSON.stringify(id),
            x,
          );
        // unique by value (design notes, "Values by their seed meaning"): "0042" and 42 are one LONG
        const value = String(longValue(text));
        if (seen.has(value))
          return fail(`result[${i}].order.orderId unique`, `${text} was already given to another order`, x);
        seen.add(value);
      }
      return undefined;
    },
  ),
  resultCheck(
    {
      id: 'RESULT-ORDER-ECHO',
      ruleId: 'RESULT-ORDER-ECHO',
      title:
        'each placed order echoes the symbol, side, type, timeInForce (when sent), price and origQty of the order sent, entry by entry, decimals compared exactly by value',
    },
    (s, _o, e, x) => {
      for (const [i, sent] of s.entries()) {
        const o = orderOf(e[i]);
        if (o === undefined) continue;
        const wrong: string[] = [];
        if (!sameSymbol(o.symbol, sent.symbol)) wrong.push(`symbol ${JSON.stringify(o.symbol)}`);
        if (o.side !== sent.side) wrong.push(`side ${JSON.stringify(o.side)}`);
        if (o.type !== sent.type) wrong.push(`type ${JSON.stringify(o.type)}`);
        if (sent.timeInForce !== undefined && o.timeInForce !== undefined && o.timeInForce !== sent.timeInForce)
          wrong.push(`timeInForce ${JSON.stringify(o.timeInForce)}`);
        if (sent.type !== 'MARKET' && o.price !== undefined && !sameDecimalValue(o.price, sent.price))
          wrong.push(`price ${JSON.stringify(o.price)}`);
        if (o.origQty !== undefined && !sameDecimalValue(o.origQty, sent.quantity))
          wrong.push(`origQty ${JSON.stringify(o.origQty)}`);
        if (wrong.length > 0) return fail(`result[${i}].order describing ${JSON.stringify(sent)}`, wrong.join(', '), x);
      }
      return undefined;
    },
  ),
  resultCheck(
    {
      id: 'RESULT-TRANSACT-TIME-MS',
      ruleId: 'RESULT-TRANSACT-TIME-MS',
      title: "every placed order's transactTime is a time in milliseconds within a day of the server's clock",
    },
    (_s, _o, e, x, _seen, now) => {
      for (const [i, entry] of e.entries()) {
        const t = orderOf(entry)?.transactTime;
        if (t === undefined) continue;
        const ms = typeof t === 'number' ? t : typeof t === 'string' && /^[0-9]+$/.test(t) ? Number(t) : NaN;
        if (!(Math.abs(ms - now) <= DAY_MS)) {
          return fail(
            `result[${i}].order.transactTime: milliseconds near ${now} (within a day)`,
            `${JSON.stringify(t)}${ms > 0 && Math.abs(ms * 1000 - now) <= DAY_MS ? ' (seconds, not milliseconds)' : ''}`,
            x,
          );
        }
      }
      return undefined;
    },
  ),
  resultCheck(
    {
      id: 'RESULT-EXECUTED-QTY',
      ruleId: 'RESULT-EXECUTED-QTY',
      title: "every placed order's executedQty is a traded volume from 0 up to its origQty",
    },
    (_s, _o, e, x) => {
      for (const [i, entry] of e.entries()) {
        const o = orderOf(entry);
        if (o?.executedQty === undefined) continue;
        const done = parseDecimal(o.executedQty);
        const ordered = o.origQty === undefined ? undefined : parseDecimal(o.origQty);
        if (done === undefined || done < 0 || (ordered !== undefined && done > ordered * (1 + 1e-9))) {
          return fail(
            `result[${i}].order.executedQty from 0 to origQty ${JSON.stringify(o.origQty)}`,
            JSON.stringify(o.executedQty),
            x,
          );
        }
      }
      return undefined;
    },
  ),
  {
    id: 'RESULT-FAILED-ORDER-REPORTED',
    ruleId: 'RESULT-FAILED-ORDER-REPORTED',
    covers: ['batch/json'],
    title:
      'a bad order between good ones gets its own entry with a non-zero code while the good ones succeed (or the whole call is rejected)',
    placesOrders: true,
    run(ctx) {
      return property(
        ctx,
        fc.tuple(validBatch(ctx.target.symbol, 2, 19, ctx.target.profile), fc.nat()),
        async ([orders, at]) => {
          const sent = editableBatch(orders, ctx.clientId);
          const i = at % sent.length;
          // broken in one way only: a LIMIT order (its timeInForce the one §2.1 names) without price
          const { price: _p, ...bad } = ofType(sent[i] ?? {}, 'LIMIT');
          sent[i] = bad;
          const r = await send(ctx, ctx.requests.batch(sent));
          if (r.observation.verdict === 'rejected') return undefined;
          const step = expectAccepted(r, 'a batch with one LIMIT order lacking price (or a rejection)');
          if (step) return step;
          const e = resultEntries(r.observation) ?? [];
          if (e.length !== sent.length)
            return fail(`${sent.length} entries, the failed one included`, `${e.length} entries`, r.exchange);
          const entry = e[i];
          if (!isRecord(entry) || !isInteger(entry.code) || entry.code === 0 || typeof entry.msg !== 'string') {
            return fail(`result[${i}] with a non-zero code and a msg`, JSON.stringify(entry) ?? 'missing', r.exchange);
          }
          const goodFailed = e.findIndex((v, k) => k !== i && (!isRecord(v) || v.code !== 0));
          return goodFailed === -1
            ? undefined
            : fail(`result[${goodFailed}] (a valid order) with code 0`, JSON.stringify(e[goodFailed]), r.exchange);
        },
      );
    },
  },
  {
    id: 'RESULT-FAILED-ORDER-REPORTED.business',
    ruleId: 'RESULT-FAILED-ORDER-REPORTED',
    // no cell of its own: it runs only with a declared grid; the cell is RESULT-FAILED-ORDER-REPORTED's
    title:
      'an order the venue refuses for a business reason (off the declared tick, under the minimum) between valid ones gets its own entry, in order, with a non-zero code (or the whole call is refused)',
    placesOrders: true,
    run(ctx) {
      const p = ctx.target.profile;
      const field = p?.price !== undefined ? 'price' : p?.quantity !== undefined ? 'quantity' : undefined;
      const grid = field === undefined ? undefined : p?.[field];
      if (field === undefined || grid === undefined)
        return Promise.resolve(
          skip(
            'no order grid declared (target description order.price or order.quantity): the kit cannot name an order the venue must refuse for a business reason',
          ),
        );
      const bad = offGrid(grid);
      const kinds = [
        [`${field} ${bad.offTick}, off the declared step`, bad.offTick],
        [`${field} ${bad.underMin}, under the declared minimum`, bad.underMin],
      ] as const;
      let judged = 0;
      const out = property(
        ctx,
        fc.tuple(validBatch(ctx.target.symbol, 2, 19, p), fc.nat(), fc.integer({ min: 0, max: kinds.length - 1 })),
        async ([orders, at, k]) => {
          const sent = editableBatch(orders, ctx.clientId);
          const i = at % sent.length;
          const [what, value] = kinds[k] ?? kinds[0];
          sent[i] = { ...sent[i], type: 'LIMIT', timeInForce: 'GTC', price: firstValue(p?.price, '1'), [field]: value };
          const r = await send(ctx, ctx.requests.batch(sent));
          if (r.observation.verdict === 'rejected') {
            if (verdictOf(r, want.entry(i)).verdict === 'pass') judged++;
            return undefined;
          }
          const step = expectAccepted(r, `a batch whose order ${i} has ${what} (or a rejection)`);
          if (step) return step;
          const e = resultEntries(r.observation) ?? [];
          if (e.length !== sent.length)
            return fail(
              `${sent.length} entries, one per order, the refused one (${i}: ${what}) included`,
              `${e.length} entries: ${describe(r.observation)}`,
              r.exchange,
            );
          const entry = e[i];
          // The venue accepted the off-grid order: its grid is wider than declared; nothing to judge here.
          if (isRecord(entry) && entry.code === 0) return undefined;
          judged++;
          if (!isRecord(entry) || !isInteger(entry.code) || typeof entry.msg !== 'string') {
            return fail(
              `result[${i}] (${what}) with its own non-zero code and a msg`,
              JSON.stringify(entry) ?? 'missing',
              r.exchange,
            );
          }
          const misplaced = sent.findIndex(
            (o, n) => n !== i && orderOf(e[n]) !== undefined && orderOf(e[n])?.clientOrderId !== o.newClientOrderId,
          );
          if (misplaced !== -1)
            return fail(
              `result[${misplaced}] answering order ${misplaced} (${String(sent[misplaced]?.newClientOrderId)})`,
              `clientOrderId ${String(orderOf(e[misplaced])?.clientOrderId)}`,
              r.exchange,
            );
          const goodFailed = e.findIndex((v, n) => n !== i && (!isRecord(v) || v.code !== 0));
          return goodFailed === -1
            ? undefined
            : fail(`result[${goodFailed}] (a valid order) with code 0`, JSON.stringify(e[goodFailed]), r.exchange);
        },
      );
      return out.then((o) =>
        o.status === 'pass' && judged === 0
          ? {
              status: 'inconclusive',
              reason:
                'the venue accepted every off-grid order: its grid is wider than declared, no business refusal to judge',
            }
          : o,
      );
    },
  },
  {
    id: 'RESULT-ONE-PER-ORDER.duplicate-ids',
    ruleId: 'RESULT-ONE-PER-ORDER',
    covers: ['batch/json'],
    title:
      'a batch whose first and last orders share a newClientOrderId gets one entry per submitted order, in order (or is refused as a whole)',
    placesOrders: true,
    async run(ctx) {
      const [orders] = fc.sample(validBatch(ctx.target.symbol, 3, 3, ctx.target.profile), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const sent = editableBatch(orders ?? [], ctx.clientId);
      sent[2] = { ...sent[2], newClientOrderId: sent[0]?.newClientOrderId };
      const r = await send(ctx, ctx.requests.batch(sent));
      if (r.observation.verdict === 'rejected')
        return pass({ observed: `refused as a whole: ${describe(r.observation)}` });
      const step = expectAccepted(r, 'a batch of 3 orders, the first and last sharing a client id (or a rejection)');
      if (step) return step;
      const e = resultEntries(r.observation) ?? [];
      if (e.length !== sent.length)
        return fail(
          `${sent.length} entries, one per submitted order (the repeated client id's included)`,
          `${e.length} entries: ${describe(r.observation)}`,
          r.exchange,
        );
      const bad = e.findIndex((v) => !isRecord(v) || !isInteger(v.code));
      return bad === -1
        ? pass()
        : fail(`result[${bad}] with its own integer code`, JSON.stringify(e[bad]) ?? 'missing', r.exchange);
    },
  },
  {
    id: 'RESULT-CLIENT-ORDER-ID-ECHO.long',
    ruleId: 'RESULT-CLIENT-ORDER-ID-ECHO',
    covers: ['batch/json'],
    title: 'a placed order echoes a 255-character newClientOrderId whole (§8: up to 255 characters), compared exactly',
    placesOrders: true,
    async run(ctx) {
      const id = `${ctx.clientId()}-`.padEnd(255, 'x');
      const r = await send(ctx, ctx.requests.batch([{ ...oneOrder(ctx), newClientOrderId: id }]));
      const step = expectAccepted(r, 'a one-order batch with a 255-character client id');
      if (step) return step;
      const e = resultEntries(r.observation)?.[0];
      if (!isRecord(e) || e.code !== 0)
        return inconclusive(`the order was not placed: ${JSON.stringify(e) ?? 'no entry'}`, r.exchange);
      const echoed = orderOf(e)?.clientOrderId;
      return echoed === id
        ? pass()
        : fail(
            `order.clientOrderId equal to the 255 characters sent`,
            `${typeof echoed === 'string' ? `${echoed.length} characters` : JSON.stringify(echoed)}: ${JSON.stringify(echoed)?.slice(0, 80)}…`,
            r.exchange,
          );
    },
  },
  {
    id: 'RESULT-ORDER-ECHO.huge',
    ruleId: 'RESULT-ORDER-ECHO',
    covers: ['batch/json'],
    title:
      'a quantity or price past the LONG range (2^64 + 5, 10^39) is refused, or placed and echoed with its exact value (§2.1 DECIMAL: never wrapped or overflowed)',
    placesOrders: true,
    async run(ctx) {
      const steps: Step[] = [];
      for (const [field, value] of HUGE) {
        const o = {
          ...oneOrder(ctx),
          type: 'LIMIT',
          timeInForce: 'GTC',
          price: firstValue(ctx.target.profile?.price, '0.1'),
          [field]: value,
        };
        const r = await send(ctx, ctx.requests.batch([o]));
        // refused, or placed echoing the exact value; placed without an echo to compare is undecided
        steps.push(judgeExtreme(r, BATCH, field, value, `a one-order batch with ${field} ${value}`));
      }
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'RESULT-STP-MODE-PLACEMENT',
    ruleId: 'RESULT-STP-MODE-PLACEMENT',
    covers: ['batch/json'],
    title: 'where the server puts `concentration` and `stpMode` (open point D-STP-PLACEMENT)',
    placesOrders: true,
    async run(ctx) {
      const [orders] = fc.sample(validBatch(ctx.target.symbol, 2, 2, ctx.target.profile), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const r = await send(ctx, ctx.requests.batch(withClientIds(orders ?? [], ctx.clientId)));
      const step = expectAccepted(r, 'a valid batch of two orders');
      if (step) return step;
      const top = isRecord(r.observation.json) ? r.observation.json : {};
      const e = resultEntries(r.observation)?.[0];
      const where = (k: string) =>
        [
          k in top ? 'top level' : '',
          isRecord(e) && k in e ? 'per entry' : '',
          isRecord(orderOf(e)) && k in (orderOf(e) ?? {}) ? 'in order' : '',
        ]
          .filter(Boolean)
          .join(' + ') || 'absent';
      return info(
        `stpMode: ${where('stpMode')}; concentration: ${where('concentration')}`,
        isRecord(e) && 'stpMode' in e && 'concentration' in e,
        r.exchange,
      );
    },
  },
  {
    id: 'RESULT-ORDER-STATUS',
    ruleId: 'RESULT-ORDER-STATUS',
    covers: ['batch/json'],
    title: 'the status values the server reports (only FILLED is named by the seed)',
    placesOrders: true,
    async run(ctx) {
      const base = { symbol: ctx.target.symbol, side: 'BUY', quantity: firstValue(ctx.target.profile?.quantity, '1') };
      const price = firstValue(ctx.target.profile?.price, '1');
      const sent = [
        { ...base, type: 'MARKET' },
        { ...base, type: 'LIMIT', price },
        { ...base, type: 'LIMIT_MAKER', price },
      ];
      const r = await send(ctx, ctx.requests.batch(withClientIds(sent, ctx.clientId)));
      const step = expectAccepted(r, 'a batch of one MARKET, one LIMIT and one LIMIT_MAKER order');
      if (step) return step;
      const st = (resultEntries(r.observation) ?? []).map((e) => orderOf(e)?.status);
      return info(
        `status MARKET=${String(st[0])}, LIMIT=${String(st[1])}, LIMIT_MAKER=${String(st[2])}`,
        st[0] === 'FILLED' && st[1] === 'NEW' && st[2] === 'NEW',
        r.exchange,
      );
    },
  },
];
