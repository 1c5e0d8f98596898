/**
 * SIG family: HMAC-SHA256 over totalParams (§5.3): placements, case, coverage of
 * every signed byte (the JSON body of a batch included), the join without `&`.
 */
import fc from 'fast-check';
import type { RuleId } from '../../src/core/rule-id.js';
import { LIMITS } from '../../src/core/wire.js';
import type { RawRequest } from '../../src/client/http.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import { validateOrder, type ApiVersion } from '../../src/core/validation/order.js';
import type { Placement } from '../../src/core/signing/build.js';
import type { CheckDefinition } from '../judgement/types.js';
import { boundaryBatches, disputedReading, validBatch, validOrder, withClientIds } from '../engine/generators.js';
import type { BatchOrderItem } from '../../src/core/types.js';
import {
  expectAccepted,
  expectRejected,
  expectSignatureAccepted,
  fail,
  firstFailure,
  property,
  send,
  skip,
  type Step,
} from './helpers.js';
import { ALL_ROUTES, onRoute, perRoute, routes } from './routes.js';
import { routeKey, type Route } from '../engine/requests.js';
import type { CheckOutcome } from '../judgement/verdict.js';

/** SIG-BODY-COVERED for a target that declares query-only batch signatures: one failure, nothing sent. */
function declaredQueryOnly(): CheckOutcome {
  return fail(
    'the batch signature to cover the query string and the JSON body (§5.3 item 4)',
    'the target description declares batchSignature "query-only": anyone able to alter a request in transit can rewrite the orders. Every other check signs batches that way.',
  );
}
import { limitParams, oneOrder } from './orders.js';
import * as edits from '../engine/sig-edits.js';

/** An order's fields in the bodies a framework may read besides the seed's form encoding: multipart, form pairs as text, JSON (RFC 7578; RFC 8259). */
function otherEncodings(order: Record<string, unknown>): Array<[string, string, string]> {
  const fields = Object.entries(order)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)] as const);
  const boundary = 'spotcheck7a3f';
  const multipart = `${fields
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
  const form = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return [
    ['multipart/form-data', `multipart/form-data; boundary=${boundary}`, multipart],
    ['text/plain', 'text/plain', form],
    ['JSON', 'application/json', JSON.stringify(Object.fromEntries(fields))],
  ];
}

/** Flip bit `bit` (0..255) of a hex signature. */
export function flipBit(sig: string, bit: number): string {
  return edits.flipBit(bit)(sig);
}

/** Ways to change a valid batch body after signing so that it stays a valid batch. */
export const bodyTampers = [
  'flip-side',
  'bump-quantity',
  'reserialise-whitespace',
  'drop-last-order',
  'reorder-keys',
] as const;
export type BodyTamper = (typeof bodyTampers)[number];

/** Apply a body tamper; undefined when it does not apply (e.g. drop-last on a 1-order batch). */
export function tamperBatch(orders: readonly object[], how: BodyTamper, index: number): string | undefined {
  const i = index % orders.length;
  const copy: Array<Record<string, unknown>> = orders.map((o) => ({ ...o }));
  const target = copy[i];
  if (target === undefined) return undefined;
  switch (how) {
    case 'flip-side':
      target.side = target.side === 'BUY' ? 'SELL' : 'BUY';
      return JSON.stringify(copy);
    case 'bump-quantity':
      target.quantity = typeof target.quantity === 'number' ? target.quantity + 1 : `1${String(target.quantity)}`;
      return JSON.stringify(copy);
    case 'reserialise-whitespace':
      return JSON.stringify(copy, null, 1);
    case 'drop-last-order':
      return copy.length > 1 ? JSON.stringify(copy.slice(0, -1)) : undefined;
    case 'reorder-keys':
      copy[i] = Object.fromEntries(Object.entries(target).reverse());
      return Object.keys(target).length > 1 ? JSON.stringify(copy) : undefined;
  }
}

/** Single-order parameters from a generated order (valid for v1 and v1.1 alike). */
export function orderParams(o: object, clientId: string): Record<string, unknown> {
  return { ...o, newClientOrderId: clientId };
}

const placements: ReadonlyArray<[Placement, RuleId]> = [
  ['query', 'SIG-PLACEMENT-QUERY'],
  ['body', 'SIG-PLACEMENT-BODY'],
  ['split', 'SIG-PLACEMENT-SPLIT'],
];

function placementCheck(placement: Placement, ruleId: RuleId, version: ApiVersion): CheckDefinition {
  return {
    id: `${ruleId}.${version}`,
    ruleId,
    title: `correctly signed ${version} orders with the parameters ${placement === 'split' ? 'split between query and form body' : `all in the ${placement === 'query' ? 'query string' : 'form body'}`} are accepted`,
    placesOrders: true,
    establishes: [`${version}/${placement}`],
    covers: [`${version}/${placement}`],
    run(ctx) {
      const arb = fc.tuple(validOrder(ctx.target.symbol, ctx.target.profile), fc.integer({ min: 1, max: 9 }));
      return property(ctx, arb, async ([o, splitAt]) => {
        const params = orderParams(o, ctx.clientId());
        // a positive probe is valid under every reading of the seed (D-V11-MARKET-SIZE)
        if (validateOrder(params, { version }).length > 0 || disputedReading(params, version) !== undefined)
          return undefined;
        const r = await send(
          ctx,
          ctx.requests.order(params, version, placement, placement === 'split' ? { splitAt } : {}),
        );
        return expectSignatureAccepted(r, `a valid ${version} order signed in placement '${placement}'`);
      });
    },
  };
}

function withQuery(req: RawRequest, query: string): RawRequest {
  return { ...req, query };
}

/**
 * Change one signed value so the order stays valid (BUY/SELL swapped, or a digit added to
 * quantity or the client id): the server can only tell by the signature.
 */
export function changeOneValue(part: string): string {
  if (/(^|&)side=(BUY|SELL)/.test(part))
    return part.replace(
      /(^|&)side=(BUY|SELL)/,
      (_m, p: string, s: string) => `${p}side=${s === 'BUY' ? 'SELL' : 'BUY'}`,
    );
  if (/(^|&)quantity=/.test(part)) return part.replace(/(^|&)quantity=/, '$1quantity=1');
  return part.replace(/(^|&)newClientOrderId=/, '$1newClientOrderId=x');
}

export const sigChecks: CheckDefinition[] = [
  ...placements.flatMap(([p, id]) => (['v1', 'v1.1'] as const).map((v) => placementCheck(p, id, v))),
  perRoute({
    id: 'SIG-HMAC-SHA256-HEX',
    ruleId: 'SIG-HMAC-SHA256-HEX',
    title: 'a request signed with lower-case hex HMAC-SHA256 of totalParams is accepted, on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectSignatureAccepted(await send(ctx, onRoute(ctx, r)), `a correctly signed request on ${routeKey(r)}`),
  }),
  {
    id: 'SIG-HMAC-SHA256-HEX.flipped-bit',
    ruleId: 'SIG-HMAC-SHA256-HEX',
    title: 'a signature with any one bit flipped is rejected, on any route',
    covers: ALL_ROUTES.map(routeKey),
    run(ctx) {
      return property(
        ctx,
        fc.tuple(fc.constantFrom(...ALL_ROUTES), fc.integer({ min: 0, max: 255 })),
        async ([r, bit]) => {
          const res = await send(ctx, onRoute(ctx, r, { signature: edits.flipBit(bit) }));
          return expectRejected(res, `${routeKey(r)} with signature bit ${bit} flipped`, 'auth');
          // every route first (its cell decided), the first bit of the 256 on the batch and the last on the last route
        },
        {
          examples: ALL_ROUTES.map((r, i): [Route, number] => [
            r,
            i === 0 ? 0 : i === ALL_ROUTES.length - 1 ? 255 : (i * 37) % 256,
          ]),
          runs: Math.max(ctx.runs, ALL_ROUTES.length),
        },
      );
    },
  },
  perRoute({
    id: 'SIG-HMAC-SHA256-HEX.encoded',
    ruleId: 'SIG-HMAC-SHA256-HEX',
    title:
      'correctly signed orders whose values need percent-encoding (or JSON escapes) are accepted, on every route: the signature covers the text as sent',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const steps = [];
      // Reserved and non-ASCII characters in the one free-text field (§2.1: up to 255 characters).
      for (const tail of [' &=+%/?#', "'!*(),;:@$", 'é€ü 😀 中文', '"\\ \t quote']) {
        const order = {
          ...(r.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)),
          newClientOrderId: `${ctx.clientId()}${tail}`,
        };
        steps.push(
          expectSignatureAccepted(
            await send(ctx, onRoute(ctx, r, {}, order)),
            `${routeKey(r)}: newClientOrderId ending ${JSON.stringify(tail)}`,
          ),
        );
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'SIG-HMAC-SHA256-HEX.http',
    ruleId: 'SIG-HMAC-SHA256-HEX',
    title:
      'freedoms HTTP grants a client do not break a correct signature: header names in any case, a content type with parameters, in other case or with blanks before ";", a chunked body',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const lower = (req: RawRequest): RawRequest => ({
        ...req,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v])),
      });
      // Accepted, not merely "signature accepted": the request differs from the route's accepted control in form only.
      const steps = [
        expectAccepted(
          await send(ctx, onRoute(ctx, r, { tamper: lower })),
          `${routeKey(r)} with lower-case header names`,
        ),
      ];
      if (r.endpoint === 'batch' || r.placement !== 'query') {
        // a parameter, another letter case, blanks around ";" (RFC 9110 §5.6.6: OWS ";" OWS)
        const types =
          r.endpoint === 'batch'
            ? ['Application/JSON; charset=utf-8', 'application/json ; charset=utf-8']
            : ['application/x-www-form-urlencoded; charset=UTF-8', 'application/x-www-form-urlencoded ;charset=UTF-8'];
        for (const type of types)
          steps.push(
            expectAccepted(
              await send(ctx, onRoute(ctx, r, { headers: { 'content-type': type } })),
              `${routeKey(r)} with content type ${type}`,
            ),
          );
        steps.push(
          expectAccepted(
            await send(ctx, onRoute(ctx, r, { tamper: (req) => ({ ...req, chunked: true }) })),
            `${routeKey(r)} with a chunked body`,
          ),
        );
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'SIG-HMAC-SHA256-HEX.malformed',
    ruleId: 'SIG-HMAC-SHA256-HEX',
    title: 'a truncated, extended, non-hex or empty signature is rejected, on every route',
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const variants = [
        edits.truncate(63),
        edits.truncate(32),
        edits.extraDigit,
        edits.nonHexDigit,
        edits.base64,
        edits.empty,
      ];
      const steps = [];
      for (const f of variants)
        steps.push(
          expectRejected(
            await send(ctx, onRoute(ctx, r, { signature: f })),
            `${routeKey(r)}: signature ${f.what}`,
            'auth',
          ),
        );
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'SIG-CASE-INSENSITIVE',
    ruleId: 'SIG-CASE-INSENSITIVE',
    title: 'upper-case and mixed-case signatures are accepted, on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const upper = edits.upperCase;
      const mixed = edits.mixedCase;
      return firstFailure(
        expectSignatureAccepted(
          await send(ctx, onRoute(ctx, r, { signature: upper })),
          `${routeKey(r)} with an upper-case signature`,
        ),
        expectSignatureAccepted(
          await send(ctx, onRoute(ctx, r, { signature: mixed })),
          `${routeKey(r)} with a mixed-case signature`,
        ),
      );
    },
  }),
  perRoute({
    id: 'SIG-REQUIRED',
    ruleId: 'SIG-REQUIRED',
    title: 'a request without a signature, or with an empty one, is rejected, on every route',
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      return firstFailure(
        expectRejected(
          await send(ctx, onRoute(ctx, r, { omitSignature: true })),
          `${routeKey(r)} without signature`,
          'auth',
        ),
        expectRejected(
          await send(ctx, onRoute(ctx, r, { signature: edits.empty })),
          `${routeKey(r)} with an empty signature`,
          'auth',
        ),
      );
    },
  }),
  {
    id: 'SIG-BODY-COVERED',
    ruleId: 'SIG-BODY-COVERED',
    covers: ['batch/json'],
    title: 'a batch signed over its query string alone, leaving the JSON body unsigned, is rejected',
    run(ctx) {
      if (ctx.target.profile?.batchSignature === 'query-only') return Promise.resolve(declaredQueryOnly());
      return property(
        ctx,
        validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile),
        async (orders) => {
          // What some client libraries do for this endpoint: sign timestamp/recvWindow only.
          const r = await send(
            ctx,
            ctx.requests.batch(withClientIds(orders, ctx.clientId), { signedString: (_tp, q) => q }),
          );
          return expectRejected(r, 'a valid batch whose signature covers the query string only', 'auth');
        },
        { examples: boundaryBatches(ctx.seed, ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile) },
      );
    },
  },
  {
    id: 'SIG-BODY-COVERED.tampered',
    ruleId: 'SIG-BODY-COVERED',
    covers: ['batch/json'],
    title: 'any change to the JSON body of a batch after signing is rejected, even one that keeps it a valid batch',
    run(ctx) {
      if (ctx.target.profile?.batchSignature === 'query-only')
        return Promise.resolve(
          skip('the target declares query-only batch signatures: reported once under SIG-BODY-COVERED'),
        );
      const arb = fc.tuple(
        validBatch(ctx.target.symbol, 1, LIMITS.maxBatchOrders, ctx.target.profile),
        fc.constantFrom(...bodyTampers),
        fc.nat(),
      );
      return property(ctx, arb, async ([orders, how, index]) => {
        const batch = withClientIds(orders, ctx.clientId);
        const tampered = tamperBatch(batch, how, index);
        if (tampered === undefined || validateBatch(JSON.parse(tampered)).length > 0) return undefined;
        const r = await send(ctx, ctx.requests.batch(batch, { tamper: (req) => ({ ...req, body: tampered }) }));
        return expectRejected(r, `batch body changed after signing (${how}), still a valid batch`, 'auth');
      });
    },
  },
  perRoute({
    id: 'SIG-BODY-COVERED.form',
    ruleId: 'SIG-BODY-COVERED',
    title: 'a change to a form body after signing is rejected, in the body and split placements',
    routes: routes('v1/body', 'v1/split', 'v1.1/body', 'v1.1/split'),
    async probe(ctx, r) {
      const res = await send(ctx, onRoute(ctx, r, { tamper: (req) => ({ ...req, body: changeOneValue(req.body) }) }));
      return expectRejected(res, `${routeKey(r)}: form body changed after signing, still a valid order`, 'auth');
    },
  }),
  // A body of another encoding than the seed's, its parameters unsigned (a framework's parameter bag
  // reads multipart, text or JSON while the server signs the raw body stream, empty for multipart).
  perRoute({
    id: 'SIG-BODY-COVERED.encodings',
    ruleId: 'SIG-BODY-COVERED',
    title:
      'an order sent in a body of another media type (multipart/form-data, text/plain, JSON) with a signature over the query only is refused: what a framework reads from such a body must be signed like any body (§5.3 item 4)',
    routes: routes('v1/body', 'v1.1/body'),
    async probe(ctx, r) {
      const version = r.endpoint === 'v1.1' ? 'v1.1' : 'v1';
      const order = limitParams(ctx);
      const steps: Step[] = [];
      for (const [kind, contentType, body] of otherEncodings(order)) {
        // the time parameters and a signature over the query alone; the order only in the body
        const built = ctx.requests.order({}, version, 'query', {
          tamper: (req) => ({ ...req, body, headers: { ...req.headers, 'content-type': contentType } }),
        });
        const res = await send(ctx, { ...built, facts: { ...built.facts, route: r } });
        steps.push(
          expectRejected(res, `${routeKey(r)}: the order in a ${kind} body, the signature over the query only`, 'any'),
        );
      }
      return firstFailure(...steps);
    },
  }),
  // A split request signed over one of its halves only (§5.3 item 4: totalParams is both).
  perRoute({
    id: 'SIG-BODY-COVERED.split',
    ruleId: 'SIG-BODY-COVERED',
    title: 'a split order signed over its query half only, leaving the form body unsigned, is rejected',
    routes: routes('v1/split', 'v1.1/split'),
    async probe(ctx, r) {
      return expectRejected(
        await send(ctx, onRoute(ctx, r, { signedString: (_tp, q) => q })),
        `${routeKey(r)}: signature over the query half only`,
        'auth',
      );
    },
  }),
  perRoute({
    id: 'SIG-QUERY-COVERED.split',
    ruleId: 'SIG-QUERY-COVERED',
    title: 'a split order signed over its form-body half only, leaving the query unsigned, is rejected',
    routes: routes('v1/split', 'v1.1/split'),
    async probe(ctx, r) {
      return expectRejected(
        await send(ctx, onRoute(ctx, r, { signedString: (_tp, _q, b) => b })),
        `${routeKey(r)}: signature over the body half only`,
        'auth',
      );
    },
  }),
  perRoute({
    id: 'SIG-QUERY-COVERED.batch-body-only',
    ruleId: 'SIG-QUERY-COVERED',
    title:
      'a batch signed over its JSON body alone, leaving the query (timestamp, recvWindow) unsigned, is rejected (§5.3 item 4)',
    routes: routes('batch/json'),
    async probe(ctx, r) {
      return expectRejected(
        await send(ctx, onRoute(ctx, r, { signedString: (_tp, _q, b) => b })),
        `${routeKey(r)}: signature over the JSON body only`,
        'auth',
      );
    },
  }),
  perRoute({
    id: 'SIG-QUERY-COVERED.routes',
    ruleId: 'SIG-QUERY-COVERED',
    title: 'a change to the query string after signing is rejected, in the query and split placements',
    routes: routes('v1/split', 'v1.1/query', 'v1.1/split'),
    async probe(ctx, r) {
      const res = await send(ctx, onRoute(ctx, r, { tamper: (req) => withQuery(req, changeOneValue(req.query)) }));
      return expectRejected(res, `${routeKey(r)}: query changed after signing, still a valid order`, 'auth');
    },
  }),
  {
    id: 'SIG-QUERY-COVERED',
    ruleId: 'SIG-QUERY-COVERED',
    covers: ['batch/json', 'v1/query'],
    title: 'changing, reordering or re-encoding query parameters after signing is rejected',
    run(ctx) {
      const kinds = ['timestamp+1', 'reorder', 'value-change', 'plus-for-space'] as const;
      return property(
        ctx,
        fc.tuple(fc.constantFrom(...kinds), validOrder(ctx.target.symbol, ctx.target.profile)),
        async ([kind, o]) => {
          if (kind === 'timestamp+1') {
            const b = ctx.requests.batch([oneOrder(ctx)], {
              tamper: (req) =>
                withQuery(
                  req,
                  req.query.replace(/timestamp=(\d+)/, (_m, t: string) => `timestamp=${Number(t) + 1}`),
                ),
            });
            return expectRejected(await send(ctx, b), 'batch with timestamp changed by 1 ms after signing', 'auth');
          }
          const params = orderParams(o, kind === 'plus-for-space' ? `${ctx.clientId()} x` : ctx.clientId());
          const b = ctx.requests.order(params, 'v1', 'query', {
            tamper: (req) => {
              if (kind === 'reorder') {
                const pairs = req.query.split('&');
                const [a, c, ...rest] = pairs;
                return withQuery(req, [c, a, ...rest].join('&'));
              }
              if (kind === 'value-change')
                return withQuery(
                  req,
                  req.query.replace(/side=(BUY|SELL)/, (_m, s: string) => `side=${s === 'BUY' ? 'SELL' : 'BUY'}`),
                );
              return withQuery(req, req.query.replace('%20', '+'));
            },
          });
          return expectRejected(await send(ctx, b), `query changed after signing (${kind})`, 'auth');
          // both routes first: the batch (timestamp+1) and v1/query
        },
        {
          examples: (['timestamp+1', 'reorder'] as const).map(
            (k, i) =>
              [
                k,
                fc.sample(validOrder(ctx.target.symbol, ctx.target.profile), { seed: ctx.seed + i, numRuns: 1 })[0],
              ] as [(typeof kinds)[number], BatchOrderItem],
          ),
          runs: Math.max(ctx.runs, 2),
        },
      );
    },
  },
  perRoute({
    id: 'SIG-TOTALPARAMS-NO-SEPARATOR',
    ruleId: 'SIG-TOTALPARAMS-NO-SEPARATOR',
    title:
      "a signature computed with '&' inserted between query and body is rejected, wherever both carry signed bytes",
    routes: routes('batch/json', 'v1/split', 'v1.1/split'),
    async probe(ctx, r) {
      const amp = (_tp: string, q: string, b: string) => `${q}&${b}`;
      return expectRejected(
        await send(ctx, onRoute(ctx, r, { signedString: amp })),
        `${routeKey(r)} signed with '&' at the query/body join`,
        'auth',
      );
    },
  }),
  perRoute({
    id: 'SIG-TOTALPARAMS-NO-SEPARATOR.reversed',
    ruleId: 'SIG-TOTALPARAMS-NO-SEPARATOR',
    title:
      'a signature over the body followed by the query (the halves swapped) is rejected, wherever both carry signed bytes (§5.3 item 4: the query string directly followed by the body)',
    routes: routes('batch/json', 'v1/split', 'v1.1/split'),
    async probe(ctx, r) {
      return expectRejected(
        await send(ctx, onRoute(ctx, r, { signedString: (_tp, q, b) => `${b}${q}` })),
        `${routeKey(r)} signed over body then query`,
        'auth',
      );
    },
  }),
  perRoute({
    id: 'SIG-EXCLUDES-SIGNATURE',
    ruleId: 'SIG-EXCLUDES-SIGNATURE',
    title: 'the signature pair is left out of the signed string wherever it stands, on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      // The pair moves to the front of whichever part carries it (query, or the form body of the body placement).
      const front = (part: string) => {
        const pairs = part.split('&');
        const i = pairs.findIndex((p) => p.startsWith('signature='));
        if (i <= 0) return part;
        const [sig] = pairs.splice(i, 1);
        return [sig, ...pairs].join('&');
      };
      const b = onRoute(ctx, r, {
        tamper: (req) => ({
          ...req,
          query: front(req.query),
          body: req.body.includes('signature=') && !req.body.startsWith('[') ? front(req.body) : req.body,
        }),
      });
      return expectSignatureAccepted(
        await send(ctx, b),
        `${routeKey(r)} with the signature pair first instead of last`,
      );
    },
  }),
];
