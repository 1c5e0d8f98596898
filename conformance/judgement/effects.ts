/**
 * Place-nothing by effect (§1, §4.1, §5.4 item 3 "otherwise it is rejected"; design notes
 * "Effects, not only answers"): a refused call is shown to have placed nothing by what
 * happens next, not by reading the refusal. Either a valid order reusing a client id of
 * the refused call is accepted (where the target refuses a repeated client id,
 * D-DUPLICATE-CLIENT-ID), or the target's order-lookup path (target description) does not
 * find that id.
 */
import type { RawRequest } from '../../src/client/http.js';
import { encodePairs, parsePairs } from '../../src/core/signing/query.js';
import { sign } from '../../src/signing/hmac.js';
import { codeValue, entriesOf, isRecord, type Observation } from '../../src/core/response.js';
import { fingerprintOf } from './verdict.js';
import { routeKey, type Built, type Route } from '../engine/requests.js';
import type { Place, SendResult } from '../engine/transport.js';
import type { OrderLookup } from '../target/description.js';

/** How the run tells whether a client id was used on a route. */
export type EffectMethod =
  | { kind: 'reuse'; duplicate: string }
  | { kind: 'lookup'; path: string }
  | { kind: 'none'; why: string };

/** What one follow-up showed about a refused call. */
export type EffectReading = 'placed-nothing' | 'placed' | 'unknown';

/** A client id the refused request carried, with the order that bore it (batch element or single parameters). */
export interface CarriedId {
  id: string;
  order: Record<string, unknown>;
}

const ID_SHAPE = /^[\x21-\x7e]{1,255}$/;

/**
 * The orders a request carries: each batch element that is an object, or the single order's
 * parameters (query, form body or both; a parameter text that does not parse carries none).
 * Undefined: a batch body that is not JSON.
 */
export function ordersCarried(route: Route, req: RawRequest): Array<Record<string, unknown>> | undefined {
  if (route.endpoint === 'batch') {
    let v: unknown;
    try {
      v = JSON.parse(req.body);
    } catch {
      return undefined;
    }
    return Array.isArray(v) ? v.filter(isRecord) : [];
  }
  try {
    return [Object.fromEntries([...parsePairs(req.query), ...parsePairs(req.body)])];
  } catch {
    return [];
  }
}

/** The client ids a request carries: each batch element's newClientOrderId, or the single order's (query, form body or both). */
export function clientIdsOf(route: Route, req: RawRequest): CarriedId[] {
  const orders = ordersCarried(route, req);
  // a malformed batch body still names its client ids: a lenient parser may have placed them
  if (orders === undefined)
    return [...req.body.matchAll(/"newClientOrderId"\s*:\s*"([\x21\x23-\x5b\x5d-\x7e]{1,255})"/g)].map((m) => ({
      id: m[1] as string,
      order: {},
    }));
  return orders.flatMap((o) =>
    typeof o.newClientOrderId === 'string' && ID_SHAPE.test(o.newClientOrderId)
      ? [{ id: o.newClientOrderId, order: o }]
      : [],
  );
}

/** The mark a refused repeat of a client id leaves on a route: a whole-call fingerprint, or a failed first entry's code in a batch. */
export function duplicateMark(route: Route, o: Observation): string | undefined {
  if (o.verdict === 'rejected') return fingerprintOf(o);
  if (o.verdict !== 'accepted' || route.endpoint !== 'batch') return undefined;
  const e = entriesOf(o.json)?.[0];
  const code = isRecord(e) ? codeValue(e.code) : undefined;
  return code === undefined || code === 0 ? undefined : `entry code ${code}`;
}

/** Whether an answer shows the valid order placed: accepted, and for a batch its first entry code 0. */
export function placedFirst(route: Route, o: Observation): boolean {
  if (o.verdict !== 'accepted') return false;
  if (route.endpoint !== 'batch') return true;
  const e = entriesOf(o.json)?.[0];
  return isRecord(e) && codeValue(e.code) === 0;
}

/**
 * Read a follow-up order reusing a client id: accepted = nothing was placed; refused like a
 * repeated id while the same order with a fresh id (`fresh`, sent at the same moment) was placed =
 * the refused call placed it. Refused like a repeated id with the fresh order refused too, or no
 * fresh order to compare: unknown (the code may be shared with a balance refusal; design notes,
 * "A refusal is recognised by a control, not its code").
 */
export function readReuse(route: Route, o: Observation, duplicate: string, fresh?: Observation): EffectReading {
  if (placedFirst(route, o)) return 'placed-nothing';
  if (duplicateMark(route, o) !== duplicate) return 'unknown';
  return fresh !== undefined && placedFirst(route, fresh) ? 'placed' : 'unknown';
}

/** Read an order-lookup answer: found when accepted and the id appears in it; not found when refused or absent from an accepted answer. */
export function readLookup(o: Observation, id: string): EffectReading {
  if (o.verdict === 'rejected') return 'placed-nothing';
  if (o.verdict !== 'accepted') return 'unknown';
  return (o.text ?? '').includes(JSON.stringify(id)) || (o.text ?? '').includes(`=${id}`) ? 'placed' : 'placed-nothing';
}

/** A signed order-lookup request for `id` (§5.3: all parameters in the query, signature over them). */
export function lookupRequest(
  l: OrderLookup,
  id: string,
  auth: { apiKey: string; secret: string; apiKeyHeader: string; now: number },
): RawRequest {
  const query = encodePairs([
    [l.param, id],
    ['timestamp', String(Math.round(auth.now))],
  ]);
  return {
    method: l.method,
    path: l.path,
    query: `${query}&signature=${sign(auth.secret, query)}`,
    body: '',
    headers: { [auth.apiKeyHeader]: auth.apiKey },
  };
}

/** What the prober needs from the run. */
export interface EffectDeps {
  /** Send through the run (counted, paced; `place`: the queue place of the check followed up); undefined when the order budget forbids another order. */
  send: (b: Built, place?: Place) => Promise<SendResult | undefined>;
  /** Send a request that places nothing (the lookup). */
  sendPlain: (req: RawRequest, place?: Place) => Promise<SendResult>;
  /** A valid order on the route with this client id (and, when given, the refused order's side and values kept where valid). */
  validOrder: (route: Route, id: string) => Built;
  /** A fresh client id. */
  clientId: () => string;
  lookup?: OrderLookup;
  auth: { apiKey: string; secret: string; apiKeyHeader: string; now: () => number };
  /** The target's symbol: a refused batch's follow-up reuses the id of an order of this symbol. */
  symbol: string;
}

/** The outcome of following up one refused call. */
export interface FollowUp {
  reading: EffectReading;
  method: EffectMethod;
  id: string;
  /** The follow-up exchange (a reuse order or a lookup). */
  result?: SendResult;
}

/** The run's prober: learns each route's method once, then follows up refused calls. */
export function createEffectProber(deps: EffectDeps) {
  const methods = new Map<string, Promise<EffectMethod>>();

  async function learnReuse(route: Route, place?: Place): Promise<EffectMethod> {
    const a = deps.clientId();
    const first = await deps.send(deps.validOrder(route, a), place);
    if (first === undefined)
      return {
        kind: 'none',
        why: 'the order budget (--max-orders) left no order to learn whether a repeated client id is refused',
      };
    if (!placedFirst(route, first.observation))
      return {
        kind: 'none',
        why: `a valid order on ${routeKey(route)} was not placed, so a repeated client id could not be tried`,
      };
    // The repeat and the same order with a fresh id, sent together: only a repeat refused while
    // the fresh one is placed shows the refusal is about the id (a balance refusal may share its code).
    const [again, fresh] = await Promise.all([
      deps.send(deps.validOrder(route, a), place),
      deps.send(deps.validOrder(route, deps.clientId()), place),
    ]);
    if (again === undefined || fresh === undefined)
      return {
        kind: 'none',
        why: 'the order budget (--max-orders) left no order to learn whether a repeated client id is refused',
      };
    const mark = duplicateMark(route, again.observation);
    if (mark === undefined)
      return {
        kind: 'none',
        why: `${routeKey(route)} accepts a repeated newClientOrderId (D-DUPLICATE-CLIENT-ID) and the target description names no order-lookup path`,
      };
    if (!placedFirst(route, fresh.observation))
      return {
        kind: 'none',
        why: `a repeated client id on ${routeKey(route)} was refused (${mark}), but so was the same order with a fresh id at that moment: the refusal is not shown to be about the id`,
      };
    return { kind: 'reuse', duplicate: mark };
  }

  async function learnLookup(l: OrderLookup, place?: Place): Promise<EffectMethod> {
    // A lookup that finds an id never used cannot show anything.
    const unused = deps.clientId();
    const r = await deps.sendPlain(lookupRequest(l, unused, { ...deps.auth, now: deps.auth.now() }), place);
    if (readLookup(r.observation, unused) !== 'placed-nothing')
      return {
        kind: 'none',
        why: `the order-lookup path ${l.path} did not answer "not found" for a client id never used`,
      };
    return { kind: 'lookup', path: l.path };
  }

  /** The route's method, learnt once (by the requests of the first check asking: `place`). */
  function methodFor(route: Route, place?: Place): Promise<EffectMethod> {
    const key = deps.lookup !== undefined ? 'lookup' : routeKey(route);
    let m = methods.get(key);
    if (m === undefined) {
      m = deps.lookup !== undefined ? learnLookup(deps.lookup, place) : learnReuse(route, place);
      methods.set(key, m);
    }
    return m;
  }

  return {
    methodFor,
    /** Follow up a whole-call refusal: undefined when it carried no usable client id. */
    async followUp(r: SendResult, place?: Place): Promise<FollowUp | undefined> {
      const route = r.exchange.route;
      if (route === undefined || r.observation.verdict !== 'rejected') return undefined;
      const ids = clientIdsOf(route, r.exchange.request);
      const pick = ids.find((c) => c.order.symbol === deps.symbol) ?? ids[0];
      if (pick === undefined) return undefined;
      const method = await methodFor(route, place);
      if (method.kind === 'none') return { reading: 'unknown', method, id: pick.id };
      if (method.kind === 'lookup' && deps.lookup !== undefined) {
        const res = await deps.sendPlain(
          lookupRequest(deps.lookup, pick.id, { ...deps.auth, now: deps.auth.now() }),
          place,
        );
        return { reading: readLookup(res.observation, pick.id), method, id: pick.id, result: res };
      }
      if (method.kind !== 'reuse') return undefined;
      // The refusal is itself the repeated-id answer (a check sending a duplicate on purpose): nothing to learn.
      if (fingerprintOf(r.observation) === method.duplicate) return undefined;
      // The reused id alone first: placed, or refused unlike a repeated id, it needs no control.
      const alone = await deps.send(deps.validOrder(route, pick.id), place);
      if (alone === undefined) return undefined;
      if (duplicateMark(route, alone.observation) !== method.duplicate)
        return { reading: readReuse(route, alone.observation, method.duplicate), method, id: pick.id, result: alone };
      // Refused like a repeated id: a differential pair sent together, the reused id again and the
      // same order with a fresh id (a balance refusal may share the duplicate's code).
      const [res, fresh] = await Promise.all([
        deps.send(deps.validOrder(route, pick.id), place),
        deps.send(deps.validOrder(route, deps.clientId()), place),
      ]);
      if (res === undefined) return undefined;
      return {
        reading: readReuse(route, res.observation, method.duplicate, fresh?.observation),
        method,
        id: pick.id,
        result: res,
      };
    },
  };
}

export type EffectProber = ReturnType<typeof createEffectProber>;

/** The method in words, for the report. */
export function methodText(m: EffectMethod): string {
  if (m.kind === 'reuse')
    return 'a valid order reusing a client id of the refused call (the target refuses a repeated id)';
  if (m.kind === 'lookup') return `the order-lookup path ${m.path}`;
  return m.why;
}
