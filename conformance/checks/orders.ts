/**
 * Valid orders for the target (§2.1), with values from its description when it gives
 * them: the building blocks of probes.
 */
import fc from 'fast-check';
import type { CheckContext } from '../types.js';
import { firstValue, validOrder } from '../generators.js';

/** One valid order for the target, with a fresh client id. */
export function oneOrder(ctx: Pick<CheckContext, 'target' | 'seed' | 'clientId'>): Record<string, unknown> {
  const [o] = fc.sample(validOrder(ctx.target.symbol, ctx.target.profile), { seed: ctx.seed, numRuns: 1 });
  return { ...o, newClientOrderId: ctx.clientId() };
}

/** A valid MARKET order as single-order parameters: quantity, no price, IOC (§2.1). */
export function marketParams(ctx: Pick<CheckContext, 'target' | 'clientId'>): Record<string, unknown> {
  const quantity = firstValue(ctx.target.profile?.quantity, '1');
  return {
    symbol: ctx.target.symbol,
    side: 'BUY',
    type: 'MARKET',
    timeInForce: 'IOC',
    quantity,
    newClientOrderId: ctx.clientId(),
  };
}

/** A valid LIMIT order as single-order parameters. */
export function limitParams(ctx: Pick<CheckContext, 'target' | 'clientId'>): Record<string, unknown> {
  const quantity = firstValue(ctx.target.profile?.quantity, '1');
  const price = firstValue(ctx.target.profile?.price, '0.1');
  return {
    symbol: ctx.target.symbol,
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity,
    price,
    newClientOrderId: ctx.clientId(),
  };
}
