/**
 * AUTH family: the API key header (§5.2), the key's own secret (§5.3), permissions
 * and security type (§5.1).
 */
import type { CheckContext, CheckDefinition } from '../types.js';
import { BATCH_PATH } from '../requests.js';
import { expectRejected, firstFailure, outcome, send, skip } from './helpers.js';
import { firstValue, validOrder } from '../generators.js';
import fc from 'fast-check';

/** One valid order for the target, with a fresh client id. */
export function oneOrder(ctx: Pick<CheckContext, 'target' | 'seed' | 'clientId'>): Record<string, unknown> {
  const [o] = fc.sample(validOrder(ctx.target.symbol, ctx.target.profile), { seed: ctx.seed, numRuns: 1 });
  return { ...o, newClientOrderId: ctx.clientId() };
}

/** A valid MARKET order as single-order parameters: quantity, no price, IOC (§2.1). */
export function marketParams(ctx: Pick<CheckContext, 'target' | 'clientId'>): Record<string, unknown> {
  const quantity = firstValue(ctx.target.profile?.quantity, '1');
  return { symbol: ctx.target.symbol, side: 'BUY', type: 'MARKET', timeInForce: 'IOC', quantity, newClientOrderId: ctx.clientId() };
}

/** A valid LIMIT order as single-order parameters. */
export function limitParams(ctx: Pick<CheckContext, 'target' | 'clientId'>): Record<string, unknown> {
  const quantity = firstValue(ctx.target.profile?.quantity, '1');
  const price = firstValue(ctx.target.profile?.price, '0.1');
  return { symbol: ctx.target.symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity, price, newClientOrderId: ctx.clientId() };
}

export const authChecks: CheckDefinition[] = [
  {
    id: 'AUTH-APIKEY-REQUIRED',
    ruleId: 'AUTH-APIKEY-REQUIRED',
    title: 'a correctly signed request without the X-SVC-APIKEY header is rejected',
    async run(ctx) {
      const batch = send(ctx, ctx.requests.batch([oneOrder(ctx)], { apiKey: null }));
      const single = send(ctx, ctx.requests.order(limitParams(ctx), 'v1', 'query', { apiKey: null }));
      return outcome(firstFailure(expectRejected(await batch, 'batch without API key'), expectRejected(await single, 'v1 order without API key')));
    },
  },
  {
    id: 'AUTH-APIKEY-UNKNOWN',
    ruleId: 'AUTH-APIKEY-UNKNOWN',
    title: 'an unknown API key is rejected even with a signature made with a valid secret',
    async run(ctx) {
      const apiKey = `spotcheck-unknown-${ctx.clientId()}`;
      const r = await send(ctx, ctx.requests.batch([oneOrder(ctx)], { apiKey }));
      return outcome(expectRejected(r, 'unknown API key, valid secret'));
    },
  },
  {
    id: 'AUTH-SECRET-BOUND',
    ruleId: 'AUTH-SECRET-BOUND',
    title: 'a valid API key with a signature made with another secret is rejected',
    async run(ctx) {
      const r = await send(ctx, ctx.requests.batch([oneOrder(ctx)], { secret: `${ctx.target.secret}x` }));
      const s = await send(ctx, ctx.requests.order(limitParams(ctx), 'v1.1', 'body', { secret: 'not-the-secret' }));
      return outcome(firstFailure(expectRejected(r, 'batch signed with a wrong secret'), expectRejected(s, 'v1.1 order signed with a wrong secret')));
    },
  },
  {
    id: 'AUTH-PERMISSION',
    ruleId: 'AUTH-PERMISSION',
    title: 'a key without the TRADE permission is refused on the order endpoints',
    async run(ctx) {
      const k = ctx.target.noTradeKey;
      if (k === undefined) return skip('no key without TRADE permission was given (--no-trade-api-key / --no-trade-secret)');
      const r = await send(ctx, ctx.requests.batch([oneOrder(ctx)], { apiKey: k.apiKey, secret: k.secret }));
      const s = await send(ctx, ctx.requests.order(limitParams(ctx), 'v1', 'query', { apiKey: k.apiKey, secret: k.secret }));
      return outcome(firstFailure(expectRejected(r, 'batch with a key lacking TRADE'), expectRejected(s, 'order with a key lacking TRADE')));
    },
  },
  {
    id: 'AUTH-SECURITY-TYPE',
    ruleId: 'AUTH-SECURITY-TYPE',
    title: 'each order endpoint is TRADE: an API key alone, without a signature, is rejected',
    async run(ctx) {
      const steps = [];
      steps.push(expectRejected(await send(ctx, ctx.requests.batch([oneOrder(ctx)], { omitSignature: true })), `${BATCH_PATH} with key, no signature`));
      for (const v of ['v1', 'v1.1'] as const) {
        const r = await send(ctx, ctx.requests.order(limitParams(ctx), v, 'query', { omitSignature: true }));
        steps.push(expectRejected(r, `${v} order with key, no signature`));
      }
      return outcome(firstFailure(...steps));
    },
  },
];
