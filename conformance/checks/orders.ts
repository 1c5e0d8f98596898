/**
 * Valid orders for the target (§2.1), with values from its description when it gives
 * them: the building blocks of probes.
 */
import fc from 'fast-check';
import type { CheckContext } from '../judgement/types.js';
import { firstValue, validOrder } from '../engine/generators.js';

/** One valid order for the target, with a fresh client id. */
export function oneOrder(ctx: Pick<CheckContext, 'target' | 'seed' | 'clientId'>): Record<string, unknown> {
  const [o] = fc.sample(validOrder(ctx.target.symbol, ctx.target.profile), { seed: ctx.seed, numRuns: 1 });
  return { ...o, newClientOrderId: ctx.clientId() };
}

/** The product of two plain decimals, exactly (scaled integers). */
function times(a: string, b: string): string {
  const scale = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);
  const n = (s: string) => BigInt(s.replace('.', ''));
  const k = scale(a) + scale(b);
  const digits = (n(a) * n(b)).toString().padStart(k + 1, '0');
  const whole = k === 0 ? digits : `${digits.slice(0, -k)}.${digits.slice(-k)}`;
  return k === 0 ? whole : whole.replace(/\.?0+$/, '');
}

/**
 * The cash amount of a v1.1 MARKET order (§2.1): the target's first declared amount; with an
 * account budget declared and no amount, what the cheapest LIMIT order costs (price x quantity),
 * so an amount spends no more than the orders the budget counts; else 10.
 */
export function marketAmount(ctx: Pick<CheckContext, 'target'>): string {
  const p = ctx.target.profile;
  if (p?.amount !== undefined) return firstValue(p.amount, '10');
  if (p?.account === undefined) return '10';
  return times(firstValue(p.price, '0.1'), firstValue(p.quantity, '1'));
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

/**
 * An order turned into another type with what that type needs to stay valid under every reading
 * (§2.1, D-UNDEFINED-FIELDS): a timeInForce sent becomes the one §2.1 names for the type (GTC for
 * limit types, IOC for MARKET), and a MARKET order carries no price. Other fields are kept.
 */
export function ofType<T extends Record<string, unknown>>(
  order: T,
  type: 'LIMIT' | 'LIMIT_MAKER' | 'MARKET',
): Record<string, unknown> {
  const { price, ...rest } = order;
  const tif = order.timeInForce === undefined ? {} : { timeInForce: type === 'MARKET' ? 'IOC' : 'GTC' };
  return { ...rest, ...(type === 'MARKET' || price === undefined ? {} : { price }), type, ...tif };
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
