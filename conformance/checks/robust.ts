/**
 * ROBUST family: malformed requests get a client error, never a 5xx, a hang or a
 * placed order (design principle "bad input gets a clear error"; §7 gives every
 * answer an integer code).
 */
import fc from 'fast-check';
import { flipFirstDigit } from '../engine/sig-edits.js';
import { API_KEY_HEADER, LIMITS } from '../../src/core/wire.js';
import type { RawRequest } from '../../src/client/http.js';
import type { CheckDefinition } from '../judgement/types.js';
import { describe, entryFailed, entryPlaced, resultEntries } from '../../src/core/response.js';
import type { SendResult } from '../engine/transport.js';
import { BATCH_ORDERS_PATH as BATCH_PATH, ORDER_PATHS } from '../../src/client/requests.js';
import { routeKey, type Route } from '../engine/requests.js';
import { inOrder } from '../engine/pool.js';
import { ALL_ROUTES, onRoute, perRoute, SINGLE_ROUTES } from './routes.js';
import {
  expectAccepted,
  expectRefused,
  fail,
  firstFailure,
  inconclusive,
  outcome,
  property,
  send,
  skip,
  type Step,
  verdictOf,
} from './helpers.js';
import { expect as want } from '../judgement/verdict.js';
import { limitParams, oneOrder } from './orders.js';
import type { Built, SignOptions } from '../engine/requests.js';

const without = (o: Record<string, unknown>, k: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([key]) => key !== k));

/** Refused: rejected as a call, or its only entry failed. */
function refused(r: SendResult): boolean {
  const o = r.observation;
  if (o.verdict === 'rejected') return true;
  const e = resultEntries(o)?.[0];
  return o.verdict === 'accepted' && entryFailed(e);
}

/** Any answer but a 5xx, a hang or a garbled response; a reset connection is tolerated only when allowed. */
function noBreakage(r: SendResult, what: string, allowReset = false): Step {
  const o = r.observation;
  // where a closed connection is an allowed answer (a front refusing an oversized body or garbage), the
  // exchange is recorded so: it decides its route, as the check does, instead of standing unanswered
  if (allowReset) verdictOf(r, want.observeClosing);
  if (o.verdict === 'server-error') return fail(`${what}: a client error (4xx), not a 5xx`, describe(o), r.exchange);
  if (o.verdict === 'no-answer') {
    if (allowReset && o.errorCode === 'ERR_NETWORK') return undefined;
    return fail(`${what}: an answer`, describe(o), r.exchange);
  }
  return undefined;
}

/** A malformed request must not place anything. */
function placesNothing(r: SendResult, what: string): Step {
  const o = r.observation;
  // A batch answer says per entry what was placed (by code); any other accepted answer placed its order.
  const entries = resultEntries(o);
  const placed = entries !== undefined ? entries.some(entryPlaced) : o.verdict === 'accepted';
  return placed ? fail(`${what}: rejected, nothing placed`, describe(o), r.exchange) : undefined;
}

/**
 * The reference's request-size edges, probed exactly at and one past each: the body limit
 * (D-BODY-LIMIT, 64 KiB) and the batch body's nesting limit (D-JSON-DEPTH, 16 levels). The seed
 * sets neither, so a target answers them by its own limits; its answers are compared with the
 * reference's by RESULT-REFERENCE-ANSWER (pinned by the reference profile).
 */
export const REFERENCE_EDGES = Object.freeze({ bodyBytes: 64 * 1024, jsonDepth: 16 });

/** A one-order batch body of exactly `bytes` bytes: the order, then blanks before the closing `]` (RFC 8259 §2). */
export function batchOfBytes(order: Record<string, unknown>, bytes: number): string {
  const head = `[${JSON.stringify(order)}`;
  return `${head}${' '.repeat(Math.max(0, bytes - Buffer.byteLength(head) - 1))}]`;
}

/** A one-order batch body nesting exactly `depth` levels: the order carries an unknown member of nested arrays. */
export function batchOfDepth(order: Record<string, unknown>, depth: number): string {
  const arrays = Math.max(0, depth - 2);
  const value = arrays === 0 ? '0' : `${'['.repeat(arrays)}${']'.repeat(arrays)}`;
  return `[${JSON.stringify(order).slice(0, -1)},"spotcheckNesting":${value}}]`;
}

/** The same request sent with `Transfer-Encoding: chunked` (RFC 9112 §7.1), rebuilt alike. */
function chunkedOf(b: Built): Built {
  const rebuild = b.rebuild;
  return {
    ...b,
    request: { ...b.request, chunked: true },
    ...(rebuild === undefined ? {} : { rebuild: () => chunkedOf(rebuild()) }),
  };
}

const printable = fc.string({
  unit: fc.constantFrom(...'abcXYZ019=&%+-_.~ []{}",:\\/?#@!$\'()*;'.split('')),
  maxLength: 60,
});
const bytes = fc.uint8Array({ maxLength: 120 }).map((a) => Buffer.from(a).toString('latin1'));

export const robustChecks: CheckDefinition[] = [
  {
    id: 'ROBUST-NO-5XX.malformed-json',
    ruleId: 'ROBUST-NO-5XX',
    covers: ['batch/json'],
    title: 'a signed batch with malformed JSON gets a 4xx, places nothing',
    async run(ctx) {
      const good = JSON.stringify([oneOrder(ctx)]);
      const steps: Step[] = [];
      for (const rawBody of [
        good.slice(0, -2),
        `${good},`,
        '[{"symbol":',
        '[{"symbol":"\u0000"}',
        '\u00ff\u00fe[]',
        '[]]',
      ]) {
        const r = await send(ctx, ctx.requests.batch(undefined, { rawBody }));
        steps.push(
          noBreakage(r, `malformed JSON ${JSON.stringify(rawBody.slice(0, 30))}`),
          placesNothing(r, 'malformed JSON'),
        );
      }
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'ROBUST-NO-5XX.oversized',
    ruleId: 'ROBUST-NO-5XX',
    covers: ['batch/json'],
    title: 'an oversized body (2 MiB) gets a client error or a closed connection, never a 5xx or a hang',
    async run(ctx) {
      // 21 orders (one past §4.1's limit), each padded by an unknown member to 2 MiB in all: the body
      // is oversized in bytes while it could place 21 orders at most (the order budget reserves them).
      const order = oneOrder(ctx);
      const pad = 'x'.repeat(100_000);
      const copies = Array.from({ length: LIMITS.maxBatchOrders + 1 }, (_, i) =>
        JSON.stringify({
          ...(i === 0 ? order : { ...order, newClientOrderId: ctx.clientId() }),
          spotcheckPadding: pad,
        }),
      );
      const big = `[${copies.join(',')}]`;
      const r = await send(ctx, ctx.requests.batch(undefined, { rawBody: big }));
      return outcome(
        firstFailure(
          noBreakage(r, `a ${Math.round(big.length / 1024)} KiB body`, true),
          placesNothing(r, 'an oversized batch'),
        ),
      );
    },
  },
  {
    id: 'ROBUST-NO-5XX.edges',
    ruleId: 'ROBUST-NO-5XX',
    covers: ['batch/json'],
    title:
      "one-order batches exactly at and one past the reference's body limit (64 KiB, D-BODY-LIMIT; with a Content-Length and chunked) and nesting limit (16 levels, D-JSON-DEPTH), and a request with no parameters at all on each endpoint, get an answer, never a 5xx or a hang; the empty ones place nothing",
    async run(ctx) {
      const { bodyBytes, jsonDepth } = REFERENCE_EDGES;
      const steps: Step[] = [];
      const probes: Array<[string, string, boolean]> = [
        [`a ${bodyBytes}-byte body`, batchOfBytes(oneOrder(ctx), bodyBytes), false],
        [`a ${bodyBytes + 1}-byte body`, batchOfBytes(oneOrder(ctx), bodyBytes + 1), false],
        [`a ${bodyBytes}-byte chunked body`, batchOfBytes(oneOrder(ctx), bodyBytes), true],
        [`a ${bodyBytes + 1}-byte chunked body`, batchOfBytes(oneOrder(ctx), bodyBytes + 1), true],
        [`a body nesting ${jsonDepth} levels`, batchOfDepth(oneOrder(ctx), jsonDepth), false],
        [`a body nesting ${jsonDepth + 1} levels`, batchOfDepth(oneOrder(ctx), jsonDepth + 1), false],
      ];
      for (const [what, rawBody, chunked] of probes) {
        const b = ctx.requests.batch(undefined, { rawBody });
        const r = await send(ctx, chunked ? chunkedOf(b) : b);
        // each is a valid order: a target with larger limits may place it (one order each, budgeted)
        steps.push(noBreakage(r, what, true));
      }
      // the smallest request: the API key and nothing else, no query and no body, on each endpoint
      const e = ctx.target.profile?.endpoints;
      for (const [path, contentType] of [
        [e?.batch.path ?? BATCH_PATH, 'application/json'],
        [e?.v1.path ?? ORDER_PATHS.v1, undefined],
        [e?.['v1.1'].path ?? ORDER_PATHS['v1.1'], undefined],
      ] as const) {
        const headers: Record<string, string> = {
          [ctx.target.profile?.apiKeyHeader ?? API_KEY_HEADER]: ctx.target.apiKey,
        };
        if (contentType !== undefined) headers['content-type'] = contentType;
        const r = await ctx.send({ method: 'POST', path, query: '', body: '', headers });
        steps.push(
          noBreakage(r, `POST ${path} with no parameters`),
          placesNothing(r, `POST ${path} with no parameters`),
        );
      }
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'ROBUST-NO-5XX.garbage',
    ruleId: 'ROBUST-NO-5XX',
    title: 'random query strings, bodies, headers and paths never produce a 5xx, a hang or a placed order',
    run(ctx) {
      // The target's own paths (a prefix or other paths from its description), and two it does not serve.
      const e = ctx.target.profile?.endpoints;
      const batchPath = e?.batch.path ?? BATCH_PATH;
      const paths = [
        batchPath,
        e?.v1.path ?? ORDER_PATHS.v1,
        e?.['v1.1'].path ?? ORDER_PATHS['v1.1'],
        batchPath.replace(/[^/]+$/, 'unknown'),
        '/',
      ];
      const arb = fc.record({
        path: fc.constantFrom(...paths),
        method: fc.constantFrom('POST', 'POST', 'GET', 'PUT', 'DELETE'),
        query: fc.oneof(printable, fc.constant('timestamp=1&signature=zz')),
        body: fc.oneof(printable, bytes),
        contentType: fc.constantFrom(
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'application/json; charset=utf-8',
        ),
        withKey: fc.boolean(),
        longHeader: fc.boolean(),
      });
      return property(ctx, arb, async (g) => {
        const headers: Record<string, string> = { 'content-type': g.contentType };
        if (g.withKey) headers[ctx.target.profile?.apiKeyHeader ?? API_KEY_HEADER] = ctx.target.apiKey;
        if (g.longHeader) headers['x-filler'] = 'a'.repeat(8000);
        const query = encodeURI(g.query).replace(/%25/g, '%');
        const req: RawRequest = {
          method: g.method,
          path: g.path,
          query,
          body: g.method === 'GET' ? '' : g.body,
          headers,
        };
        const r = await ctx.send(req);
        return firstFailure(
          noBreakage(r, `${g.method} ${g.path} with garbage`, true),
          placesNothing(r, 'a garbage request'),
        );
      });
    },
  },
  perRoute({
    id: 'ROBUST-NO-5XX.malformed-form',
    ruleId: 'ROBUST-NO-5XX',
    title:
      'signed single orders whose parameter text is malformed (bad percent-escapes, empty names, invalid UTF-8) get an answer that is not a 5xx, in every placement',
    routes: SINGLE_ROUTES,
    async probe(ctx, r) {
      const junk = '%zz=1&=&a=%ff%fe&b';
      // The junk is signed as sent, so the request reaches the parser and not only the signature check.
      const into = (part: string) => (part === '' ? part : `${junk}&${part}`);
      const b = onRoute(ctx, r, {
        signedString: (_tp, q, body) => (q !== '' ? into(q) + body : into(body)),
        tamper: (req) =>
          req.query.split('&').length > 1 ? { ...req, query: into(req.query) } : { ...req, body: into(req.body) },
      });
      return noBreakage(await send(ctx, b), `${routeKey(r)} with malformed parameter text`);
    },
  }),
  perRoute({
    id: 'ROBUST-REJECT-PLACES-NOTHING',
    ruleId: 'ROBUST-REJECT-PLACES-NOTHING',
    title:
      'a request with a duplicated parameter or a wrong content type places nothing unless accepted as a whole, on every route',
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const dup = await send(
        ctx,
        onRoute(ctx, r, { tamper: (req) => ({ ...req, query: `${req.query}&timestamp=0` }) }),
      );
      const steps: Step[] = [
        noBreakage(dup, `${routeKey(r)} with timestamp twice`),
        placesNothing(dup, `${routeKey(r)} with timestamp twice`),
      ];
      if (r.endpoint === 'batch' || r.placement !== 'query') {
        const text = await send(ctx, onRoute(ctx, r, { headers: { 'content-type': 'text/plain' } }));
        steps.push(noBreakage(text, `${routeKey(r)} sent as text/plain`));
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'ROBUST-REJECT-PLACES-NOTHING.reuse',
    ruleId: 'ROBUST-REJECT-PLACES-NOTHING',
    title:
      'a refused request placed nothing: its newClientOrderId is still free for a valid order (where the server refuses repeated ids), on every route',
    placesOrders: true,
    ownEffects: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const order = (id: string) => ({
        ...(r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)),
        newClientOrderId: id,
      });
      // The reused id and the same order with a fresh id, sent together: a refusal of the reuse is
      // about the id only when the fresh twin is placed at that moment (a balance refusal may share
      // the duplicate's code; design notes, "A refusal is recognised by a control, not its code").
      const reuse = (id: string) =>
        Promise.all([send(ctx, onRoute(ctx, r, {}, order(id))), send(ctx, onRoute(ctx, r, {}, order(ctx.clientId())))]);
      // Does this route refuse a repeated client id (D-DUPLICATE-CLIENT-ID)? Only then can reuse show a placement.
      const a = ctx.clientId();
      const first = await send(ctx, onRoute(ctx, r, {}, order(a)));
      const step = expectAccepted(first, `${routeKey(r)}: a valid order with a new client id`);
      if (step) return step;
      const [repeat, twin] = await reuse(a);
      if (!refused(repeat)) {
        // not this method's target: said so, never left undecided (a correct server may take repeated ids)
        return skip(
          `${routeKey(r)} accepts a repeated newClientOrderId (D-DUPLICATE-CLIENT-ID), so reusing an id cannot show whether a refused order was placed; declare an order-lookup path (orderLookup in the target description) to show it by lookup`,
        );
      }
      if (twin.observation.verdict !== 'accepted' || refused(twin))
        return inconclusive(
          `${routeKey(r)}: a repeated client id was refused (${describe(repeat.observation)}), but so was the same order with a fresh id at that moment (${describe(twin.observation)}): the refusal is not shown to be about the id`,
          twin.exchange,
        );
      const refusals: Array<[string, (id: string) => Built]> = [
        ['a wrong signature', (id) => onRoute(ctx, r, { signature: flipFirstDigit }, order(id))],
        ['a timestamp an hour old', (id) => onRoute(ctx, r, { timestamp: Date.now() - 3_600_000 }, order(id))],
        ['side HOLD', (id) => onRoute(ctx, r, {}, { ...order(id), side: 'HOLD' })],
      ];
      // the three refusals are independent: up to ctx.parallel at once, each followed by its own reuse
      const steps: Step[] = await inOrder(refusals, ctx.parallel ?? 1, async ([what, build]): Promise<Step> => {
        const id = ctx.clientId();
        const probe = await send(ctx, build(id));
        // An acceptance of what must be refused is a failure whenever it happens (never left to other checks).
        const wrong = expectRefused(probe, `${routeKey(r)}: a request with ${what}`, 'any');
        if (wrong !== undefined) return wrong;
        // the reused id alone first: placed, nothing was; only a refusal needs the fresh-id twin beside it
        const alone = await send(ctx, onRoute(ctx, r, {}, order(id)));
        if (alone.observation.verdict === 'accepted' && !refused(alone)) return undefined;
        const [again, fresh] = await reuse(id);
        return again.observation.verdict === 'accepted' && !refused(again)
          ? undefined
          : refused(again) && fresh.observation.verdict === 'accepted' && !refused(fresh)
            ? fail(
                `${routeKey(r)}: the client id of a request refused for ${what} still free (nothing was placed)`,
                `a valid order reusing it was refused (${describe(again.observation)}) while the same order with a fresh id, sent with it, was placed`,
                again.exchange,
              )
            : refused(again)
              ? inconclusive(
                  `${routeKey(r)}: the order reusing the id of a request refused for ${what} was refused, and so was its fresh-id twin (${describe(fresh.observation)}): not shown to be about the id`,
                  fresh.exchange,
                )
              : expectAccepted(
                  again,
                  `${routeKey(r)}: a valid order reusing the client id of a request refused for ${what}`,
                );
      });
      return firstFailure(...steps);
    },
  }),
  {
    id: 'ROBUST-REJECT-PLACES-NOTHING.combined',
    ruleId: 'ROBUST-REJECT-PLACES-NOTHING',
    title:
      'a request with two faults of different rules is refused and places nothing: every pair, on every route (one check must not cancel another)',
    covers: ALL_ROUTES.map(routeKey),
    async run(ctx) {
      type Fault = { name: string; opts?: SignOptions; edit?: (o: Record<string, unknown>) => Record<string, unknown> };
      const faults: Fault[] = [
        { name: 'a wrong signature', opts: { signature: flipFirstDigit } },
        { name: 'a timestamp an hour old', opts: { timestamp: Date.now() - 3_600_000 } },
        { name: 'no API key', opts: { apiKey: null } },
        { name: "recvWindow 'soon'", opts: { recvWindow: 'soon' } },
        { name: 'side HOLD', edit: (o) => ({ ...o, side: 'HOLD' }) },
        {
          name: 'a LIMIT order without price',
          edit: (o) => ({ ...without(o, 'price'), type: 'LIMIT', timeInForce: 'GTC' }),
        },
      ];
      // Few enough to be exhaustive (15 pairs x 7 routes): no pair is left to chance.
      const probes: Array<[Route, Fault, Fault]> = [];
      for (const r of ALL_ROUTES) {
        for (const [i, a] of faults.entries()) {
          for (const b of faults.slice(i + 1)) probes.push([r, a, b]);
        }
      }
      // independent probes: ctx.parallel in flight, steps in the order above
      return outcome(firstFailure(...(await inOrder(probes, ctx.parallel ?? 1, ([r, a, b]) => probePair(r, a, b)))));

      async function probePair(r: Route, a: Fault, b: Fault): Promise<Step> {
        // A fresh timestamp when a fault fixes one: the stale fault's own value.
        const opts: SignOptions = { ...a.opts, ...b.opts };
        if (a.opts?.timestamp !== undefined || b.opts?.timestamp !== undefined) opts.timestamp = Date.now() - 3_600_000;
        const base = r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx);
        const order = (b.edit ?? ((o) => o))((a.edit ?? ((o) => o))(base));
        const res = await send(ctx, onRoute(ctx, r, opts, order));
        return firstFailure(
          expectRefused(res, `${routeKey(r)} with ${a.name} and ${b.name}`, 'any'),
          placesNothing(res, `${routeKey(r)} with two faults`),
        );
      }
    },
  },
  {
    id: 'ROBUST-NO-HANG',
    ruleId: 'ROBUST-NO-HANG',
    title:
      'every request of the run was answered within the timeout, and the target kept answering to the end (checked last, over the whole run)',
    runLast: true,
    judgesLiveness: true,
    async run(ctx) {
      // The target stopped answering altogether: the strongest robustness evidence there is, named request by request.
      const s = ctx.silence?.();
      if (s !== undefined) {
        const first = s.requests[0];
        const list = s.requests
          .map((r) => `${r.check ?? '?'}: ${r.exchange.request.method} ${r.exchange.request.path} (${r.outcome})`)
          .join('; ');
        return fail(
          'the target answers every request, to the end of the run',
          `it stopped answering ${new Date(s.since).toISOString()} and never answered again (a liveness probe on a fresh connection: ${s.probe}); the requests of the silence, the first sent before it: ${list || 'none'}. A crash, a deadlock, a SIGSTOP or a restart from outside looks the same from here.`,
          first?.exchange,
        );
      }
      const t = ctx.timeouts();
      if (t.count === 0) return outcome(undefined);
      return fail(
        'every request answered within the timeout',
        `${t.count} request(s) got no answer; first: ${t.first ? describe(t.first.observation) : '?'}`,
        t.first,
      );
    },
  },
];
