/**
 * ROBUST family: malformed requests get a client error, never a 5xx, a hang or a
 * placed order (design principle "bad input gets a clear error"; §7 gives every
 * answer an integer code).
 */
import fc from 'fast-check';
import { API_KEY_HEADER, type RawRequest } from '../../src/client/http.js';
import type { CheckDefinition } from '../types.js';
import { describe, entryPlaced, resultEntries } from '../observe.js';
import type { SendResult } from '../transport.js';
import { BATCH_PATH, ORDER_PATHS } from '../requests.js';
import { fail, firstFailure, outcome, property, send, type Step } from './helpers.js';
import { oneOrder } from './auth.js';

/** Any answer but a 5xx, a hang or a garbled response; a reset connection is tolerated only when allowed. */
function noBreakage(r: SendResult, what: string, allowReset = false): Step {
  const o = r.observation;
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
  const placed = o.verdict === 'accepted' || (resultEntries(o) ?? []).some(entryPlaced);
  return placed ? fail(`${what}: rejected, nothing placed`, describe(o), r.exchange) : undefined;
}

const printable = fc.string({ unit: fc.constantFrom(...'abcXYZ019=&%+-_.~ []{}",:\\/?#@!$\'()*;'.split('')), maxLength: 60 });
const bytes = fc.uint8Array({ maxLength: 120 }).map((a) => Buffer.from(a).toString('latin1'));

export const robustChecks: CheckDefinition[] = [
  {
    id: 'ROBUST-NO-5XX.malformed-json',
    ruleId: 'ROBUST-NO-5XX',
    title: 'a signed batch with malformed JSON gets a 4xx, places nothing',
    async run(ctx) {
      const good = JSON.stringify([oneOrder(ctx)]);
      const steps: Step[] = [];
      for (const rawBody of [good.slice(0, -2), `${good},`, '[{"symbol":', '[{"symbol":"\u0000"}', '\u00ff\u00fe[]', '[]]']) {
        const r = await send(ctx, ctx.requests.batch(undefined, { rawBody }));
        steps.push(noBreakage(r, `malformed JSON ${JSON.stringify(rawBody.slice(0, 30))}`), placesNothing(r, 'malformed JSON'));
      }
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'ROBUST-NO-5XX.oversized',
    ruleId: 'ROBUST-NO-5XX',
    title: 'an oversized body (2 MiB) gets a client error or a closed connection, never a 5xx or a hang',
    async run(ctx) {
      const big = `[${Array.from({ length: 12000 }, () => JSON.stringify(oneOrder(ctx))).join(',')}]`;
      const r = await send(ctx, ctx.requests.batch(undefined, { rawBody: big }));
      return outcome(firstFailure(noBreakage(r, `a ${Math.round(big.length / 1024)} KiB body`, true), placesNothing(r, 'an oversized batch')));
    },
  },
  {
    id: 'ROBUST-NO-5XX.garbage',
    ruleId: 'ROBUST-NO-5XX',
    title: 'random query strings, bodies, headers and paths never produce a 5xx, a hang or a placed order',
    run(ctx) {
      const paths = [BATCH_PATH, ORDER_PATHS.v1, ORDER_PATHS['v1.1'], BATCH_PATH.replace(/[^/]+$/, 'unknown'), '/'];
      const arb = fc.record({
        path: fc.constantFrom(...paths),
        method: fc.constantFrom('POST', 'POST', 'GET', 'PUT', 'DELETE'),
        query: fc.oneof(printable, fc.constant('timestamp=1&signature=zz')),
        body: fc.oneof(printable, bytes),
        contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-8'),
        withKey: fc.boolean(),
        longHeader: fc.boolean(),
      });
      return property(ctx, arb, async (g) => {
        const headers: Record<string, string> = { 'content-type': g.contentType };
        if (g.withKey) headers[API_KEY_HEADER] = ctx.target.apiKey;
        if (g.longHeader) headers['x-filler'] = 'a'.repeat(8000);
        const query = encodeURI(g.query).replace(/%25/g, '%');
        const req: RawRequest = { method: g.method, path: g.path, query, body: g.method === 'GET' ? '' : g.body, headers };
        const r = await ctx.send(req);
        return firstFailure(noBreakage(r, `${g.method} ${g.path} with garbage`, true), placesNothing(r, 'a garbage request'));
      });
    },
  },
  {
    id: 'ROBUST-REJECT-PLACES-NOTHING',
    ruleId: 'ROBUST-REJECT-PLACES-NOTHING',
    title: 'a batch with duplicated query parameters or a wrong content type places nothing unless accepted as a whole',
    async run(ctx) {
      const dup = await send(ctx, ctx.requests.batch([oneOrder(ctx)], { tamper: (req) => ({ ...req, query: `${req.query}&timestamp=0` }) }));
      const text = await send(ctx, ctx.requests.batch([oneOrder(ctx)], { headers: { 'content-type': 'text/plain' } }));
      const steps: Step[] = [noBreakage(dup, 'duplicated timestamp'), placesNothing(dup, 'a batch with timestamp twice'), noBreakage(text, 'text/plain batch')];
      return outcome(firstFailure(...steps));
    },
  },
  {
    id: 'ROBUST-NO-HANG',
    ruleId: 'ROBUST-NO-HANG',
    title: 'every request of the run was answered within the timeout (checked last, over the whole run)',
    runLast: true,
    async run(ctx) {
      const t = ctx.timeouts();
      if (t.count === 0) return outcome(undefined);
      return fail('every request answered within the timeout', `${t.count} request(s) got no answer; first: ${t.first ? describe(t.first.observation) : '?'}`, t.first);
    },
  },
];
