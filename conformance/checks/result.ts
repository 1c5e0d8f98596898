/**
 * RESULT family (§2.2, §4.1 rule 4, §7): the shape and content of the batch answer.
 * Each check is a property over generated valid batches.
 */
import fc from 'fast-check';
import { LIMITS } from '../../src/core/wire.js';
import { charLength, parseDecimal } from '../../src/core/validation/fields.js';
import type { BatchOrderItem } from '../../src/core/types.js';
import type { CheckDefinition } from '../types.js';
import { boundaryBatches, editableBatch, firstValue, validBatch, withClientIds } from '../generators.js';
import { describe, isRecord, resultEntries, type Observation } from '../../src/core/response.js';
import { expectAccepted, fail, info, property, send, sendBatchOnce, type Step } from './helpers.js';
import type { Exchange } from '../transport.js';

type Sent = Array<BatchOrderItem & { newClientOrderId: string }>;
/** Judges one accepted batch; `seen` lives for one run of the check (e.g. orderIds given so far); `now` is the server's estimated time, ms. */
type Judge = (sent: Sent, o: Observation, entries: unknown[], exchange: Exchange, seen: Set<string>, now: number) => Step;

const DAY_MS = 86_400_000;

/** A property over accepted valid batches, judged by `judge`. */
function resultCheck(def: Omit<CheckDefinition, 'run'>, judge: Judge): CheckDefinition {
  return {
    placesOrders: true,
    covers: ['batch/json'],
    ...def,
    run(ctx) {
      const seen = new Set<string>();
      return property(ctx, validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile), async (orders) => {
        const once = await sendBatchOnce(ctx, orders);
        if (once === undefined) return undefined;
        const { sent, r } = once;
        const step = expectAccepted(r, `a valid batch of ${sent.length} orders`);
        if (step) return step;
        const entries = resultEntries(r.observation);
        if (entries === undefined) return fail('a `result` array', describe(r.observation), r.exchange);
        return judge(sent, r.observation, entries, r.exchange, seen, ctx.clock.serverNow());
      }, { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile) });
    },
  };
}

const orderOf = (e: unknown): Record<string, unknown> | undefined => (isRecord(e) && isRecord(e.order) ? e.order : undefined);
const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);
const sameDecimal = (a: unknown, b: unknown): boolean => {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x !== undefined && y !== undefined && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
};

export const resultChecks: CheckDefinition[] = [
  resultCheck({ id: 'RESULT-TOP-CODE', ruleId: 'RESULT-TOP-CODE', title: 'a successful batch call has an integer top-level code' }, (_s, o, _e, x) =>
    isRecord(o.json) && isInteger(o.json.code) ? undefined : fail('an integer top-level `code`', describe(o), x),
  ),
  resultCheck({ id: 'RESULT-SUCCESS-CODE-ZERO', ruleId: 'RESULT-SUCCESS-CODE-ZERO', title: 'a successful batch call has top-level code 0' }, (_s, o, _e, x) =>
    isRecord(o.json) && o.json.code === 0 ? undefined : fail('top-level `code` 0', describe(o), x),
  ),
  resultCheck({ id: 'RESULT-ONE-PER-ORDER', ruleId: 'RESULT-ONE-PER-ORDER', title: '`result` has exactly one entry per submitted order' }, (s, _o, e, x) =>
    e.length === s.length ? undefined : fail(`${s.length} entries`, `${e.length} entries`, x),
  ),
  resultCheck({ id: 'RESULT-ENTRY-CODE-MSG', ruleId: 'RESULT-ENTRY-CODE-MSG', title: 'every result entry has an integer code and a string msg' }, (_s, _o, e, x) => {
    const i = e.findIndex((v) => !isRecord(v) || !isInteger(v.code) || typeof v.msg !== 'string');
    return i === -1 ? undefined : fail(`result[${i}] with integer code and string msg`, JSON.stringify(e[i]) ?? 'missing', x);
  }),
  resultCheck(
    { id: 'RESULT-ORDER-MATCH', ruleId: 'RESULT-ORDER-MATCH', title: 'entry i answers order i (its clientOrderId is order i’s newClientOrderId)' },
    (s, _o, e, x) => {
      const i = s.findIndex((o, k) => orderOf(e[k])?.clientOrderId !== o.newClientOrderId && orderOf(e[k]) !== undefined);
      return i === -1 ? undefined : fail(`result[${i}].order.clientOrderId = ${s[i]?.newClientOrderId}`, String(orderOf(e[i])?.clientOrderId), x);
    },
  ),
  resultCheck(
    { id: 'RESULT-CLIENT-ORDER-ID-ECHO', ruleId: 'RESULT-CLIENT-ORDER-ID-ECHO', title: 'every placed order echoes the newClientOrderId sent as clientOrderId' },
    (s, _o, e, x) => {
      const sentIds = new Set(s.map((o) => o.newClientOrderId));
      const placed = e.map(orderOf).filter((o) => o !== undefined);
      if (placed.length === 0) return fail('placed orders in `result`', 'no entry carries an order', x);
      const bad = placed.find((o) => typeof o.clientOrderId !== 'string' || !sentIds.has(o.clientOrderId));
      return bad === undefined ? undefined : fail('clientOrderId equal to a newClientOrderId sent', JSON.stringify(bad.clientOrderId), x);
    },
  ),
  resultCheck(
    { id: 'RESULT-ORDER-ID', ruleId: 'RESULT-ORDER-ID', title: 'every placed order has an orderId of at most 20 characters, unique in the run' },
    (_s, _o, e, x, seen) => {
      for (const [i, entry] of e.entries()) {
        const o = orderOf(entry);
        if (o === undefined) continue;
        const id = o.orderId;
        const text = typeof id === 'number' && Number.isInteger(id) ? String(id) : typeof id === 'string' && /^[0-9]+$/.test(id) ? id : undefined;
        if (text === undefined || charLength(text) > LIMITS.maxOrderId) return fail(`result[${i}].order.orderId: a LONG of at most ${LIMITS.maxOrderId} characters`, JSON.stringify(id), x);
        if (seen.has(text)) return fail(`result[${i}].order.orderId unique`, `${text} was already given to another order`, x);
        seen.add(text);
      }
      return undefined;
    },
  ),
  resultCheck(
    { id: 'RESULT-ORDER-ECHO', ruleId: 'RESULT-ORDER-ECHO', title: 'placed orders echo symbol, side, type, price and origQty of the order sent' },
    (s, _o, e, x) => {
      for (const [i, sent] of s.entries()) {
        const o = orderOf(e[i]);
        if (o === undefined) continue;
        const wrong: string[] = [];
        if (o.symbol !== sent.symbol) wrong.push(`symbol ${JSON.stringify(o.symbol)}`);
        if (o.side !== sent.side) wrong.push(`side ${JSON.stringify(o.side)}`);
        if (o.type !== sent.type) wrong.push(`type ${JSON.stringify(o.type)}`);
        if (sent.type !== 'MARKET' && o.price !== undefined && !sameDecimal(o.price, sent.price)) wrong.push(`price ${JSON.stringify(o.price)}`);
        if (o.origQty !== undefined && !sameDecimal(o.origQty, sent.quantity)) wrong.push(`origQty ${JSON.stringify(o.origQty)}`);
        if (wrong.length > 0) return fail(`result[${i}].order describing ${JSON.stringify(sent)}`, wrong.join(', '), x);
      }
      return undefined;
    },
  ),
  resultCheck(
    { id: 'RESULT-TRANSACT-TIME-MS', ruleId: 'RESULT-TRANSACT-TIME-MS', title: "every placed order's transactTime is a time in milliseconds within a day of the server's clock" },
    (_s, _o, e, x, _seen, now) => {
      for (const [i, entry] of e.entries()) {
        const t = orderOf(entry)?.transactTime;
        if (t === undefined) continue;
        const ms = typeof t === 'number' ? t : typeof t === 'string' && /^[0-9]+$/.test(t) ? Number(t) : NaN;
        if (!(Math.abs(ms - now) <= DAY_MS)) {
          return fail(`result[${i}].order.transactTime: milliseconds near ${now} (within a day)`, `${JSON.stringify(t)}${ms > 0 && Math.abs(ms * 1000 - now) <= DAY_MS ? ' (seconds, not milliseconds)' : ''}`, x);
        }
      }
      return undefined;
    },
  ),
  resultCheck(
    { id: 'RESULT-EXECUTED-QTY', ruleId: 'RESULT-EXECUTED-QTY', title: "every placed order's executedQty is a traded volume from 0 up to its origQty" },
    (_s, _o, e, x) => {
      for (const [i, entry] of e.entries()) {
        const o = orderOf(entry);
        if (o?.executedQty === undefined) continue;
        const done = parseDecimal(o.executedQty);
        const ordered = o.origQty === undefined ? undefined : parseDecimal(o.origQty);
        if (done === undefined || done < 0 || (ordered !== undefined && done > ordered * (1 + 1e-9))) {
          return fail(`result[${i}].order.executedQty from 0 to origQty ${JSON.stringify(o.origQty)}`, JSON.stringify(o.executedQty), x);
        }
      }
      return undefined;
    },
  ),
  {
    id: 'RESULT-FAILED-ORDER-REPORTED',
    ruleId: 'RESULT-FAILED-ORDER-REPORTED',
    covers: ['batch/json'],
    title: 'a bad order between good ones gets its own entry with a non-zero code while the good ones succeed (or the whole call is rejected)',
    placesOrders: true,
    run(ctx) {
      return property(ctx, fc.tuple(validBatch(ctx.target.symbol, 2, 19, ctx.target.profile), fc.nat()), async ([orders, at]) => {
        const sent = editableBatch(orders, ctx.clientId);
        const i = at % sent.length;
        const bad = { ...sent[i], type: 'LIMIT' } as Record<string, unknown>;
        delete bad.price;
        sent[i] = bad;
        const r = await send(ctx, ctx.requests.batch(sent));
        if (r.observation.verdict === 'rejected') return undefined;
        const step = expectAccepted(r, 'a batch with one LIMIT order lacking price (or a rejection)');
        if (step) return step;
        const e = resultEntries(r.observation) ?? [];
        if (e.length !== sent.length) return fail(`${sent.length} entries, the failed one included`, `${e.length} entries`, r.exchange);
        const entry = e[i];
        if (!isRecord(entry) || !isInteger(entry.code) || entry.code === 0 || typeof entry.msg !== 'string') {
          return fail(`result[${i}] with a non-zero code and a msg`, JSON.stringify(entry) ?? 'missing', r.exchange);
        }
        const goodFailed = e.findIndex((v, k) => k !== i && (!isRecord(v) || v.code !== 0));
        return goodFailed === -1 ? undefined : fail(`result[${goodFailed}] (a valid order) with code 0`, JSON.stringify(e[goodFailed]), r.exchange);
      });
    },
  },
  {
    id: 'RESULT-STP-MODE-PLACEMENT',
    ruleId: 'RESULT-STP-MODE-PLACEMENT',
    covers: ['batch/json'],
    title: 'where the server puts `concentration` and `stpMode` (open point D-STP-PLACEMENT)',
    placesOrders: true,
    async run(ctx) {
      const [orders] = fc.sample(validBatch(ctx.target.symbol, 2, 2, ctx.target.profile), { seed: ctx.seed, numRuns: 1 });
      const r = await send(ctx, ctx.requests.batch(withClientIds(orders ?? [], ctx.clientId)));
      const step = expectAccepted(r, 'a valid batch of two orders');
      if (step) return step;
      const top = isRecord(r.observation.json) ? r.observation.json : {};
      const e = resultEntries(r.observation)?.[0];
      const where = (k: string) => [k in top ? 'top level' : '', isRecord(e) && k in e ? 'per entry' : '', isRecord(orderOf(e)) && k in (orderOf(e) ?? {}) ? 'in order' : ''].filter(Boolean).join(' + ') || 'absent';
      return info(`stpMode: ${where('stpMode')}; concentration: ${where('concentration')}`, isRecord(e) && 'stpMode' in e && 'concentration' in e, r.exchange);
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
      const sent = [{ ...base, type: 'MARKET' }, { ...base, type: 'LIMIT', price }, { ...base, type: 'LIMIT_MAKER', price }];
      const r = await send(ctx, ctx.requests.batch(withClientIds(sent, ctx.clientId)));
      const step = expectAccepted(r, 'a batch of one MARKET, one LIMIT and one LIMIT_MAKER order');
      if (step) return step;
      const st = (resultEntries(r.observation) ?? []).map((e) => orderOf(e)?.status);
      return info(`status MARKET=${String(st[0])}, LIMIT=${String(st[1])}, LIMIT_MAKER=${String(st[2])}`, st[0] === 'FILLED' && st[1] === 'NEW' && st[2] === 'NEW', r.exchange);
    },
  },
];
