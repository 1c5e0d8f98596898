/**
 * ORDER family (§2.1, §4.2, §9): field rules of single orders on the v1 and v1.1
 * endpoints; the readings the seed leaves open are INFO.
 */
import fc from 'fast-check';
import type { RuleId } from '../../src/core/rule-id.js';
import { LIMITS } from '../../src/core/wire.js';
import { validateOrder, type ApiVersion } from '../../src/core/validation/order.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import type { CheckOutcome } from '../judgement/verdict.js';
import { disputedReading, firstValue, validOrder } from '../engine/generators.js';
import { describe, entriesOf, isRecord, resultEntries } from '../../src/core/response.js';
import {
  expectAccepted,
  expectRefused,
  fail,
  firstFailure,
  info,
  openPoint,
  outcome,
  property,
  send,
  type Step,
} from './helpers.js';
import { limitParams, marketAmount, marketParams, ofType, oneOrder } from './orders.js';
import { ALL_ROUTES, onRoute, perRoute, routes, versionOf } from './routes.js';
import { ORDER_PATHS } from '../../src/client/requests.js';
import { routeKey, type Route } from '../engine/requests.js';
import { orderParams } from './sig.js';

type Params = Record<string, unknown>;

/** Drop a field from order parameters. */
function without(o: Params, field: string): Params {
  const { [field]: _drop, ...rest } = o;
  return rest;
}

/**
 * A property over the routes a field rule applies to: generate a valid order, apply one
 * defect, keep the case only when the validator finds exactly the intended rule (for the
 * route's parameter set), send it and expect it refused: a rejection, or inside a batch
 * its entry failed (§4.1 rule 3).
 */
function negative(
  id: string,
  ruleId: RuleId,
  title: string,
  on: readonly Route[],
  defect: (o: Params) => fc.Arbitrary<Params>,
): CheckDefinition {
  return {
    id,
    ruleId,
    title,
    covers: on.map(routeKey),
    run(ctx) {
      const defective = validOrder(ctx.target.symbol, ctx.target.profile).chain((o) =>
        defect(orderParams(o, ctx.clientId())),
      );
      const arb = fc.tuple(fc.constantFrom(...on), defective);
      // One case on each route first, so every route the rule applies to is decided (design notes, "Verdicts per cell").
      const examples = on.map((route, i): [Route, Params] => [
        route,
        fc.sample(defective, { seed: ctx.seed + i, numRuns: 1 })[0] ?? {},
      ]);
      return property(
        ctx,
        arb,
        async ([route, params]) => {
          const rules = new Set(validateOrder(params, { version: versionOf(route) }).map((i) => i.ruleId));
          if (rules.size !== 1 || !rules.has(ruleId)) return undefined;
          return expectRefused(
            await send(ctx, onRoute(ctx, route, {}, params)),
            `${routeKey(route)} order ${JSON.stringify(params).slice(0, 200)}`,
          );
        },
        { examples, runs: Math.max(ctx.runs, on.length) },
      );
    },
  };
}

const V1_AND_BATCH = routes('batch/json', 'v1/query', 'v1/body', 'v1/split');
const V11 = routes('v1.1/query', 'v1.1/body', 'v1.1/split');
const V1 = routes('v1/query', 'v1/body', 'v1/split');

/** A value no reading takes for an enum; an optional field's empty value is left out (read as omitted by some, D-EMPTY-OPTIONAL). */
const badEnum = (valid: readonly string[], optional = false) =>
  fc
    .oneof(
      fc.constantFrom('', 'HOLD', 'buy', 'limit', 'NONE', '0', 'STOP_LOSS'),
      fc.string({ minLength: 1, maxLength: 12 }),
    )
    .filter((s) => !valid.includes(s) && !(optional && s === ''));

/**
 * A valid MARKET order accepted on `r`. On v1.1 no one form is valid under every reading of
 * D-V11-MARKET-SIZE (quantity or amount, both, exactly one), but every reading accepts one of
 * quantity only, amount only and both: they are sent in turn until one is accepted, and the
 * step fails only when all three are refused. The refused forms state no expectation.
 */
async function marketAccepted(ctx: CheckContext, r: Route, what: string): Promise<Step> {
  const market = marketParams(ctx);
  if (disputedReading(market, versionOf(r)) === undefined)
    return expectAccepted(await send(ctx, onRoute(ctx, r, {}, market)), what);
  const amount = marketAmount(ctx);
  const forms: Array<[string, Params]> = [
    ['quantity only', { ...market, newClientOrderId: ctx.clientId() }],
    ['amount only', { ...without(market, 'quantity'), amount, newClientOrderId: ctx.clientId() }],
    ['quantity and amount', { ...market, amount, newClientOrderId: ctx.clientId() }],
  ];
  const refused: string[] = [];
  for (const [i, [form, params]] of forms.entries()) {
    const res = await send(ctx, onRoute(ctx, r, {}, params));
    if (res.observation.verdict === 'accepted' || i === forms.length - 1)
      return expectAccepted(
        res,
        refused.length === 0 ? `${what}, ${form}` : `${what}, ${form} (refused with ${refused.join(', ')})`,
      );
    refused.push(`${form}: ${describe(res.observation)}`);
  }
  return undefined;
}

/**
 * A v1.1 MARKET order carrying amount accepted on `r` (§9: v1.1 is "adding the `amount` field"):
 * amount alone, else amount with quantity; whichever every reading of D-V11-MARKET-SIZE takes,
 * one of the two is accepted. Only the last form states an expectation when both are refused.
 */
async function amountAccepted(ctx: CheckContext, r: Route, what: string): Promise<Step> {
  const market = marketParams(ctx);
  const amount = marketAmount(ctx);
  const forms: Array<[string, Params]> = [
    ['amount only', { ...without(market, 'quantity'), amount, newClientOrderId: ctx.clientId() }],
    ['quantity and amount', { ...market, amount, newClientOrderId: ctx.clientId() }],
  ];
  let refused = '';
  for (const [i, [form, params]] of forms.entries()) {
    const res = await send(ctx, onRoute(ctx, r, {}, params));
    if (res.observation.verdict === 'accepted' || i === forms.length - 1)
      return expectAccepted(res, `${what}, ${form}${refused === '' ? '' : ` (refused with amount only: ${refused})`}`);
    refused = describe(res.observation);
  }
  return undefined;
}

/** First result entry of an accepted batch, when there is one. */
function firstEntry(o: { json?: unknown }): Record<string, unknown> | undefined {
  const e = entriesOf(o.json)?.[0];
  return isRecord(e) ? e : undefined;
}

/** Send one single order for an open point and report what the server did (INFO). */
async function infoSingle(
  ctx: CheckContext,
  params: Params,
  version: ApiVersion,
  what: string,
  referenceAccepts: boolean,
): Promise<CheckOutcome> {
  return openPoint(
    await send(ctx, ctx.requests.order(params, version, 'query')),
    what,
    referenceAccepts ? 'accepted' : 'rejected',
  );
}

/** Edges of the numeric rules (§2.1 DECIMAL, D-DECIMALS): zero and negative values of each decimal field, one defect per probe. */
const ZERO_EDGES: ReadonlyArray<[string, string]> = [
  ['quantity', '0'],
  ['quantity', '0.000'],
  ['price', '0'],
  ['price', '-0.5'],
];

/** D-AMOUNT-ELSEWHERE: a LIMIT order carrying amount on one version's query route, as INFO. */
function amountOnLimit(version: 'v1' | 'v1.1', id: string, title: string): CheckDefinition {
  return {
    id,
    ruleId: 'ORDER-AMOUNT-MARKET-ONLY',
    covers: [`${version}/query`],
    title,
    run: (ctx) =>
      infoSingle(
        ctx,
        { ...limitParams(ctx), amount: marketAmount(ctx) },
        version,
        `${version} LIMIT order with amount`,
        false,
      ),
  };
}

export const orderChecks: CheckDefinition[] = [
  perRoute({
    id: 'ORDER-DECIMAL-FORMAT.zero',
    ruleId: 'ORDER-DECIMAL-FORMAT',
    title:
      'a zero or negative quantity or price (a LIMIT order) is refused, on every route (D-DECIMALS: positive decimals)',
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const steps: Step[] = [];
      for (const [field, value] of ZERO_EDGES) {
        const o = {
          ...(r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)),
          type: 'LIMIT',
          timeInForce: 'GTC',
          price: firstValue(ctx.target.profile?.price, '0.1'),
          [field]: value,
        };
        steps.push(expectRefused(await send(ctx, onRoute(ctx, r, {}, o)), `${routeKey(r)}: ${field} ${value}`));
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'ORDER-QUANTITY-REQUIRED-V1.amount',
    ruleId: 'ORDER-QUANTITY-REQUIRED-V1',
    title:
      'a v1 MARKET order (or batch element) carrying the v1.1-only amount instead of quantity is refused (§4.2: no amount field in v1)',
    routes: V1_AND_BATCH,
    async probe(ctx, r) {
      const { quantity: _q, ...m } = marketParams(ctx);
      const o = { ...m, amount: marketAmount(ctx) };
      return expectRefused(await send(ctx, onRoute(ctx, r, {}, o)), `${routeKey(r)}: MARKET with amount, no quantity`);
    },
  }),

  negative(
    'ORDER-PRICE-REQUIRED-LIMIT',
    'ORDER-PRICE-REQUIRED-LIMIT',
    'LIMIT and LIMIT_MAKER orders without price are refused (batch and v1)',
    V1_AND_BATCH,
    (o) =>
      fc.constantFrom('LIMIT', 'LIMIT_MAKER').map((type) => ({ ...without(o, 'price'), type, timeInForce: 'GTC' })),
  ),
  negative(
    'ORDER-PRICE-REQUIRED-LIMIT.v1.1',
    'ORDER-PRICE-REQUIRED-LIMIT',
    'v1.1 LIMIT and LIMIT_MAKER orders without price are rejected',
    V11,
    (o) =>
      fc.constantFrom('LIMIT', 'LIMIT_MAKER').map((type) => ({ ...without(o, 'price'), type, timeInForce: 'GTC' })),
  ),
  negative(
    'ORDER-SIDE-ENUM',
    'ORDER-SIDE-ENUM',
    'a side other than BUY or SELL is refused, on every route',
    ALL_ROUTES,
    (o) => badEnum(['BUY', 'SELL']).map((side) => ({ ...o, side })),
  ),
  negative(
    'ORDER-TYPE-ENUM',
    'ORDER-TYPE-ENUM',
    'a type other than LIMIT, MARKET, LIMIT_MAKER is refused, on every route',
    ALL_ROUTES,
    (o) => badEnum(['LIMIT', 'MARKET', 'LIMIT_MAKER']).map((type) => ({ ...o, type })),
  ),
  negative(
    'ORDER-STP-MODE-ENUM',
    'ORDER-STP-MODE-ENUM',
    'an stpMode other than EXPIRE_TAKER or EXPIRE_MAKER is refused, on every route',
    ALL_ROUTES,
    (o) => badEnum(['EXPIRE_TAKER', 'EXPIRE_MAKER'], true).map((stpMode) => ({ ...o, stpMode })),
  ),
  {
    ...negative(
      'ORDER-TIME-IN-FORCE',
      'ORDER-TIME-IN-FORCE',
      'a timeInForce that is no time-in-force at all is refused, on every route',
      ALL_ROUTES,
      (o) => fc.constantFrom('NEVER', 'XYZ', 'gtc ', '0').map((timeInForce) => ({ ...o, timeInForce })),
    ),
  },
  negative(
    'ORDER-QUANTITY-REQUIRED-V1',
    'ORDER-QUANTITY-REQUIRED-V1',
    'a v1 order (or batch element) without quantity is refused',
    V1_AND_BATCH,
    (o) => fc.constant(without(o, 'quantity')),
  ),
  negative(
    'ORDER-MARKET-SIZE-V11',
    'ORDER-MARKET-SIZE-V11',
    'a v1.1 MARKET order with neither quantity nor amount is rejected',
    V11,
    (o) => fc.constant({ ...without(without(o, 'quantity'), 'price'), type: 'MARKET', timeInForce: 'IOC' }),
  ),
  negative(
    'ORDER-SYMBOL-REQUIRED',
    'ORDER-SYMBOL-REQUIRED',
    'an order without symbol is refused, on every route',
    ALL_ROUTES,
    (o) => fc.constant(without(o, 'symbol')),
  ),
  negative(
    'ORDER-DECIMAL-FORMAT',
    'ORDER-DECIMAL-FORMAT',
    'a quantity or price that is not a decimal is refused, on every route',
    ALL_ROUTES,
    (o) =>
      fc
        .tuple(fc.constantFrom('quantity', 'price'), fc.constantFrom('abc', '1.2.3', '1,5', '0x10', 'NaN', '-1'))
        .map(([f, v]) => ({ ...ofType(o, 'LIMIT'), price: o.price ?? '1', [f]: v })),
  ),
  {
    id: 'ORDER-DECIMAL-FORMAT.encodings',
    ruleId: 'ORDER-DECIMAL-FORMAT',
    covers: ['batch/json'],
    title: 'decimals in a batch body are accepted both as JSON numbers and as JSON strings',
    placesOrders: true,
    async run(ctx) {
      // Values the target accepts (target description), else two with a fraction each.
      const quantity = firstValue(ctx.target.profile?.quantity, '1.5');
      const price = firstValue(ctx.target.profile?.price, '0.25');
      const asNumbers = { ...ofType(oneOrder(ctx), 'LIMIT'), quantity: Number(quantity), price: Number(price) };
      const asStrings = { ...ofType(oneOrder(ctx), 'LIMIT'), quantity, price };
      return outcome(
        firstFailure(
          expectAccepted(await send(ctx, ctx.requests.batch([asNumbers])), 'a batch with decimals as JSON numbers'),
          expectAccepted(await send(ctx, ctx.requests.batch([asStrings])), 'a batch with decimals as JSON strings'),
        ),
      );
    },
  },
  perRoute({
    id: 'ORDER-CLIENT-ID-LENGTH',
    ruleId: 'ORDER-CLIENT-ID-LENGTH',
    title: 'a newClientOrderId of 255 characters is accepted and one of 256 refused, on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const id255 = (s: string) => (s + 'x'.repeat(LIMITS.maxClientOrderId)).slice(0, LIMITS.maxClientOrderId);
      const order = r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx);
      const ok = await send(ctx, onRoute(ctx, r, {}, { ...order, newClientOrderId: id255(ctx.clientId()) }));
      const long = await send(ctx, onRoute(ctx, r, {}, { ...order, newClientOrderId: `${id255(ctx.clientId())}y` }));
      return firstFailure(
        expectAccepted(ok, `${routeKey(r)}: a 255-character newClientOrderId`),
        expectRefused(long, `${routeKey(r)}: a 256-character newClientOrderId`),
      );
    },
  }),
  {
    id: 'ORDER-CLIENT-ID-GENERATED',
    ruleId: 'ORDER-CLIENT-ID-GENERATED',
    covers: ['batch/json'],
    title: 'an order sent without newClientOrderId gets a generated clientOrderId',
    placesOrders: true,
    async run(ctx) {
      const o = oneOrder(ctx);
      delete o.newClientOrderId;
      const r = await send(ctx, ctx.requests.batch([o, o]));
      const step = expectAccepted(r, 'a batch of two orders without newClientOrderId');
      if (step) return step;
      const ids = (resultEntries(r.observation) ?? []).map((e) =>
        isRecord(e) && isRecord(e.order) ? e.order.clientOrderId : undefined,
      );
      const good = ids.length === 2 && ids.every((x) => typeof x === 'string' && x !== '') && ids[0] !== ids[1];
      return good
        ? outcome(undefined)
        : fail('two distinct non-empty generated clientOrderId values', JSON.stringify(ids), r.exchange);
    },
  },
  perRoute({
    id: 'ORDER-V1-ENDPOINT',
    ruleId: 'ORDER-V1-ENDPOINT',
    title: `POST ${ORDER_PATHS.v1} accepts a valid LIMIT and a valid MARKET order, in every placement`,
    placesOrders: true,
    realEndpoint: true,
    establishes: V1.map(routeKey),
    routes: V1,
    async probe(ctx, r) {
      return firstFailure(
        expectAccepted(await send(ctx, onRoute(ctx, r)), `a v1 LIMIT order (${routeKey(r)})`),
        expectAccepted(await send(ctx, onRoute(ctx, r, {}, marketParams(ctx))), `a v1 MARKET order (${routeKey(r)})`),
      );
    },
  }),
  perRoute({
    id: 'ORDER-V11-ENDPOINT',
    ruleId: 'ORDER-V11-ENDPOINT',
    title: `POST ${ORDER_PATHS['v1.1']} accepts a valid LIMIT order and a MARKET order in one of the forms every reading of its size allows, in every placement`,
    placesOrders: true,
    establishes: V11.map(routeKey),
    routes: V11,
    async probe(ctx, r) {
      return firstFailure(
        expectAccepted(await send(ctx, onRoute(ctx, r)), `a v1.1 LIMIT order (${routeKey(r)})`),
        await marketAccepted(ctx, r, `a v1.1 MARKET order (${routeKey(r)})`),
        await amountAccepted(
          ctx,
          r,
          `a v1.1 MARKET order carrying amount (${routeKey(r)}; §9: v1.1 adds the amount field)`,
        ),
      );
    },
  }),
  perRoute({
    id: 'ORDER-CLIENT-ID-LENGTH.distinct',
    ruleId: 'ORDER-CLIENT-ID-LENGTH',
    title:
      'a new client id is accepted even where it matches an earlier one as a pattern: after "...q", the ids "..._" and "...%" (SQL LIKE wildcards) and "...." (a regular expression\'s any character), on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const stem = ctx.clientId();
      const order = (id: string) => ({
        ...(r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)),
        newClientOrderId: id,
      });
      const first = expectAccepted(
        await send(ctx, onRoute(ctx, r, {}, order(`${stem}q`))),
        `${routeKey(r)}: id ${stem}q`,
      );
      if (first !== undefined) return first;
      const steps: Step[] = [];
      // each a client id never sent before (§2.1 "Client-defined order id"): a store matching it as a pattern finds the first
      for (const tail of ['_', '%', '.'])
        steps.push(
          expectAccepted(
            await send(ctx, onRoute(ctx, r, {}, order(`${stem}${tail}`))),
            `${routeKey(r)}: the new id ${stem}${tail}, after ${stem}q was placed`,
          ),
        );
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'ORDER-TIME-IN-FORCE.named',
    ruleId: 'ORDER-TIME-IN-FORCE',
    title: 'GTC on limit orders and IOC on market orders are accepted, on every route',
    level: 'MUST',
    levelReason:
      'GTC on limit orders and IOC on market orders are named by the seed (§2.1): accepting them is a MUST, only other values are SHOULD (D-TIF-VALUES)',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const maker = { ...limitParams(ctx), type: 'LIMIT_MAKER', timeInForce: 'GTC' };
      return firstFailure(
        expectAccepted(await send(ctx, onRoute(ctx, r, {}, maker)), `LIMIT_MAKER with GTC (${routeKey(r)})`),
        await marketAccepted(ctx, r, `MARKET with IOC (${routeKey(r)})`),
      );
    },
  }),
  {
    id: 'ORDER-MARKET-SIZE-V11.which',
    ruleId: 'ORDER-MARKET-SIZE-V11',
    covers: ['v1.1/query'],
    title: 'which of quantity and amount a v1.1 MARKET order may carry alone (open point D-V11-MARKET-SIZE)',
    level: 'INFO',
    levelReason:
      'which of quantity and amount suffices alone is an open point (D-V11-MARKET-SIZE): reported, never failed',
    async run(ctx) {
      const a = await infoSingle(
        ctx,
        { ...without(marketParams(ctx), 'quantity'), amount: marketAmount(ctx) },
        'v1.1',
        'amount only',
        true,
      );
      const q = await infoSingle(ctx, marketParams(ctx), 'v1.1', 'quantity only', true);
      if (a.status !== 'info') return a;
      if (q.status !== 'info') return q;
      return info(`${a.observed}; ${q.observed}`, a.matchesReference === true && q.matchesReference === true);
    },
  },
  {
    id: 'ORDER-QUANTITY-V11',
    ruleId: 'ORDER-QUANTITY-V11',
    covers: ['v1.1/query'],
    title: 'what the server does with a v1.1 LIMIT order without quantity (open point D-V11-LIMIT-QUANTITY)',
    async run(ctx) {
      return infoSingle(ctx, without(limitParams(ctx), 'quantity'), 'v1.1', 'v1.1 LIMIT without quantity', false);
    },
  },
  amountOnLimit(
    'v1',
    'ORDER-AMOUNT-MARKET-ONLY',
    'what the server does with amount on a v1 order (open point D-AMOUNT-ELSEWHERE)',
  ),
  amountOnLimit(
    'v1.1',
    'ORDER-AMOUNT-MARKET-ONLY.v1.1',
    'what the server does with amount on a v1.1 LIMIT order (§2.1 "Market orders only"; open point D-AMOUNT-ELSEWHERE)',
  ),
  {
    id: 'ORDER-CLIENT-ID-DUPLICATE',
    ruleId: 'ORDER-CLIENT-ID-DUPLICATE',
    covers: ['v1/query'],
    title: 'what the server does with a newClientOrderId it has already seen (open point D-DUPLICATE-CLIENT-ID)',
    placesOrders: true,
    async run(ctx) {
      const p = limitParams(ctx);
      const first = await send(ctx, ctx.requests.order(p, 'v1', 'query'));
      const step: Step = expectAccepted(first, 'the first order with a new client id');
      if (step) return step;
      // another order placed in between: the id is held by an order that is not the latest
      const between = await send(ctx, ctx.requests.order(limitParams(ctx), 'v1', 'query'));
      const next: Step = expectAccepted(between, 'an order with another new client id');
      if (next) return next;
      return infoSingle(ctx, p, 'v1', 'the first newClientOrderId again, after another order', false);
    },
  },
  {
    id: 'ORDER-STP-MODE-DEFAULT',
    ruleId: 'ORDER-STP-MODE-DEFAULT',
    covers: ['batch/json'],
    title: 'the stpMode reported for an order sent without one (seed: default EXPIRE_TAKER)',
    placesOrders: true,
    async run(ctx) {
      const o = oneOrder(ctx);
      delete o.stpMode;
      const r = await send(ctx, ctx.requests.batch([o]));
      const e = firstEntry(r.observation);
      const top = isRecord(r.observation.json) ? r.observation.json.stpMode : undefined;
      const seen = e?.stpMode ?? (isRecord(e?.order) ? e.order.stpMode : undefined) ?? top;
      return info(
        `stpMode reported: ${seen === undefined ? 'none' : JSON.stringify(seen)}`,
        seen === 'EXPIRE_TAKER',
        r.exchange,
      );
    },
  },
];
