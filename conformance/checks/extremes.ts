/**
 * Extreme DECIMAL values on every route (§2.1 DECIMAL, ORDER-DECIMAL-FORMAT): values past the
 * LONG range, and exponent forms past the double range (`1e400`). The seed sets no maximum, so
 * refusing is right, and so is placing the order with its exact value; placing it with another
 * value (wrapped to 64 bits, rounded or overflowed by a double) is not. A placed order is judged
 * by the value it echoes: the batch entry's order (§2.2), or a single order's answer, whose body
 * the seed does not show (D-SINGLE-RESPONSE): an answer without the field leaves the cell open.
 */
import { echoesDecimal } from '../../src/core/validation/decimal.js';
import { describe, entriesOf, entryFailed, entryPlaced, isRecord } from '../../src/core/response.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import type { SendResult } from '../engine/transport.js';
import { firstValue } from '../engine/generators.js';
import { expect as want } from '../judgement/verdict.js';
import { fail, firstFailure, inconclusive, send, type Step, verdictOf } from './helpers.js';
import { limitParams, marketParams, oneOrder } from './orders.js';
import { ALL_ROUTES, onRoute, perRoute, routes, SINGLE_ROUTES } from './routes.js';
import { routeKey, type Route } from '../engine/requests.js';

/** The order field a decimal is sent in, and the §2.2 field that echoes it. */
const ECHO = { quantity: 'origQty', price: 'price', amount: 'reqAmount' } as const;
type Field = keyof typeof ECHO;

/** 2^64 + 5: a 64-bit integer wraps it to 5, a double rounds it to 18446744073709552000. */
export const PAST_LONG = '18446744073709551621';
/** 10^39 + 7: past 128 bits; a double reads it as 1e39. */
export const PAST_INT128 = `1${'0'.repeat(38)}7`;
/** Past the double range: a float parser reads Infinity. */
export const PAST_DOUBLE = '1e400';

/**
 * What an accepted answer shows of the order: its entry failed (batch), or the value echoed for
 * `key` by the batch's first entry's order or a single order's answer (top level, or its `order`
 * or `data` object); `value` undefined when nothing is echoed.
 */
function echoed(route: Route, json: unknown, key: string): 'entry-failed' | { value?: unknown } {
  if (route.endpoint === 'batch') {
    const e = entriesOf(json)?.[0];
    if (entryFailed(e)) return 'entry-failed';
    const order = isRecord(e) && isRecord(e.order) ? e.order : undefined;
    return entryPlaced(e) && order?.[key] !== undefined ? { value: order[key] } : {};
  }
  for (const o of isRecord(json) ? [json, json.order, json.data] : [])
    if (isRecord(o) && o[key] !== undefined) return { value: o[key] };
  return {};
}

/**
 * One extreme value sent: refused (any refusal through a controlled route: nothing placed),
 * or placed and echoing exactly `value`. A 5xx or an unreadable answer fails; no echo to
 * compare, or an echo no JSON parser can read exactly, leaves the probe undecided.
 */
export function judgeExtreme(r: SendResult, route: Route, field: Field, value: string, what: string): Step {
  const key = ECHO[field];
  if (r.observation.verdict !== 'accepted') {
    const v = verdictOf(r, want.refuse('any', true));
    if (v.verdict === 'pass') return undefined;
    if (v.verdict === 'fail') return fail(`${what}: refused, or placed with its exact value`, v.reason, r.exchange);
    return inconclusive(`${what}: ${v.reason}`, r.exchange);
  }
  const e = echoed(route, r.observation.json, key);
  if (e === 'entry-failed') return undefined;
  if (e.value === undefined)
    return inconclusive(
      `${what}: accepted, and no placed order's ${key} to compare${route.endpoint === 'batch' ? '' : ' (the single-order answer is not shown, D-SINGLE-RESPONSE)'}: ${describe(r.observation)}`,
      r.exchange,
    );
  const same = echoesDecimal(e.value, value);
  if (same === true) return undefined;
  if (same === undefined)
    return inconclusive(
      `${what}: accepted, ${key} echoed as the JSON number ${JSON.stringify(e.value)}, whose digits no JSON parser keeps`,
      r.exchange,
    );
  return fail(
    `${what}: refused, or placed with ${key} equal to ${value}`,
    `placed with ${key} ${JSON.stringify(e.value)}`,
    r.exchange,
  );
}

/** A LIMIT order for a route with `field` set to `value`, the other fields valid. */
function limitWith(ctx: CheckContext, route: Route, field: Field, value: string): Record<string, unknown> {
  return {
    ...(route.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)),
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: firstValue(ctx.target.profile?.price, '0.1'),
    [field]: value,
  };
}

/**
 * A v1.1 MARKET order sized by `amount` alone (§2.1: amount is the cash size of a v1.1 MARKET
 * order; whether it suffices alone is D-V11-MARKET-SIZE, and a server wanting quantity too
 * refuses it, which is no fault here). Without a quantity beside it, a placed order can only
 * have been sized by the amount, so its reqAmount echo is the value read.
 */
function marketWithAmount(ctx: CheckContext, amount: string): Record<string, unknown> {
  const { quantity: _q, ...m } = marketParams(ctx);
  return { ...m, amount };
}

const V11 = routes('v1.1/query', 'v1.1/body', 'v1.1/split');

export const extremeChecks: CheckDefinition[] = [
  perRoute({
    id: 'ORDER-DECIMAL-FORMAT.huge',
    ruleId: 'ORDER-DECIMAL-FORMAT',
    title: `a single order's quantity past the LONG range (2^64 + 5) or price past 128 bits (10^39 + 7) is refused, or placed with its exact value, on every single-order route (never wrapped or rounded)`,
    placesOrders: true,
    routes: SINGLE_ROUTES,
    async probe(ctx, r) {
      const steps: Step[] = [];
      for (const [field, value] of [
        ['quantity', PAST_LONG],
        ['price', PAST_INT128],
      ] as const) {
        const res = await send(ctx, onRoute(ctx, r, {}, limitWith(ctx, r, field, value)));
        steps.push(judgeExtreme(res, r, field, value, `${routeKey(r)}: ${field} ${value}`));
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'ORDER-DECIMAL-FORMAT.huge-amount',
    ruleId: 'ORDER-DECIMAL-FORMAT',
    title:
      'a v1.1 MARKET order sized by an amount past the LONG range (2^64 + 5) is refused, or placed with that exact amount (reqAmount), on every v1.1 route',
    placesOrders: true,
    routes: V11,
    async probe(ctx, r) {
      const res = await send(ctx, onRoute(ctx, r, {}, marketWithAmount(ctx, PAST_LONG)));
      return judgeExtreme(res, r, 'amount', PAST_LONG, `${routeKey(r)}: MARKET sized by amount ${PAST_LONG}`);
    },
  }),
  perRoute({
    id: 'ORDER-DECIMAL-FORMAT.overflow',
    ruleId: 'ORDER-DECIMAL-FORMAT',
    title:
      'a decimal written 1e400 (past the double range: a float parser reads Infinity) is refused, or placed with that exact value, on every route: in a batch as a JSON number and as a JSON string, the v1.1 amount included',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      if (r.endpoint === 'batch') {
        const asString = [limitWith(ctx, r, 'quantity', PAST_DOUBLE)];
        // The same order with 1e400 as a bare JSON number (JSON.stringify cannot write one).
        const asNumber = [limitWith(ctx, r, 'quantity', PAST_DOUBLE)];
        const raw = JSON.stringify(asNumber).replace(`"quantity":"${PAST_DOUBLE}"`, `"quantity":${PAST_DOUBLE}`);
        const n = await send(ctx, ctx.requests.batch(asNumber, { rawBody: raw }));
        const s = await send(ctx, ctx.requests.batch(asString));
        return firstFailure(
          judgeExtreme(n, r, 'quantity', PAST_DOUBLE, `batch/json: quantity ${PAST_DOUBLE} as a JSON number`),
          judgeExtreme(s, r, 'quantity', PAST_DOUBLE, `batch/json: quantity "${PAST_DOUBLE}" as a JSON string`),
        );
      }
      if (r.endpoint === 'v1.1') {
        const res = await send(ctx, onRoute(ctx, r, {}, marketWithAmount(ctx, PAST_DOUBLE)));
        return judgeExtreme(res, r, 'amount', PAST_DOUBLE, `${routeKey(r)}: MARKET sized by amount ${PAST_DOUBLE}`);
      }
      const res = await send(ctx, onRoute(ctx, r, {}, limitWith(ctx, r, 'quantity', PAST_DOUBLE)));
      return judgeExtreme(res, r, 'quantity', PAST_DOUBLE, `${routeKey(r)}: quantity ${PAST_DOUBLE}`);
    },
  }),
];
