/**
 * fast-check generators of valid orders and batches (§2.1, §4.1), and of the single
 * defects negative cases carry. Every generated valid value is re-checked with the
 * library's validator by the checks, so a shrunk case stays what it claims to be.
 */
import fc from 'fast-check';
import type { BatchOrderItem, OrderType, Side } from '../../src/core/types.js';
import { LIMITS } from '../../src/core/wire.js';
import { gridValue, type Grid } from '../target/decimal-grid.js';

/** The order values a target accepts (target description); absent fields are generated freely. */
export interface OrderValues {
  price?: Grid | undefined;
  quantity?: Grid | undefined;
}

/** A decimal from a grid as text, or from the free generator. */
function decimalFrom(g: Grid | undefined): fc.Arbitrary<number | string> {
  return g === undefined ? decimal : fc.bigInt({ min: 0n, max: g.count - 1n }).map((k) => gridValue(g, k));
}

/** The first value a target accepts, or the kit's default. */
export function firstValue(g: Grid | undefined, fallback: string): string {
  return g === undefined ? fallback : gridValue(g, 0n);
}

/** A DECIMAL as text: 1 to 6 integer digits, 0 to 4 fraction digits, never zero. */
export const decimalText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 999999 }), fc.integer({ min: 0, max: 4 }))
  .map(([mantissa, scale]) => {
    if (scale === 0) return String(mantissa);
    const s = String(mantissa).padStart(scale + 1, '0');
    return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
  });

/** A DECIMAL as the wire carries it: JSON number or decimal string (§2.1). */
export const decimal: fc.Arbitrary<number | string> = fc.oneof(decimalText, decimalText.map(Number));

export const side: fc.Arbitrary<Side> = fc.constantFrom('BUY', 'SELL');
export const orderType: fc.Arbitrary<OrderType> = fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER');

/** A valid batch element for `symbol` (v1 rules), without newClientOrderId (added when sent); values from the target's grids when given. */
export function validOrder(symbol: string, values: OrderValues = {}): fc.Arbitrary<BatchOrderItem> {
  return fc
    .record({
      side,
      type: orderType,
      quantity: decimalFrom(values.quantity),
      price: decimalFrom(values.price),
      tif: fc.boolean(),
      stpMode: fc.option(fc.constantFrom('EXPIRE_TAKER' as const, 'EXPIRE_MAKER' as const), { nil: undefined }),
    })
    .map(({ side: s, type, quantity, price, tif, stpMode }) => {
      const o: BatchOrderItem = { symbol, side: s, type, quantity };
      if (type !== 'MARKET') o.price = price;
      if (tif) o.timeInForce = type === 'MARKET' ? 'IOC' : 'GTC';
      if (stpMode !== undefined) o.stpMode = stpMode;
      return o;
    });
}

/**
 * The decision whose recorded readings disagree on whether `params` is a valid order, or
 * undefined when every reading agrees (design notes, "Probes valid or invalid under every
 * reading"). A v1.1 `MARKET` order is valid under no one form for all readings of §2.1
 * (D-V11-MARKET-SIZE: quantity or amount, both, or exactly one): a positive probe never is one.
 */
export function disputedReading(params: { type?: unknown }, version: 'v1' | 'v1.1'): string | undefined {
  return version === 'v1.1' && params.type === 'MARKET' ? 'D-V11-MARKET-SIZE' : undefined;
}

/** A valid batch of `min`..`max` orders for one symbol (§4.1). */
export function validBatch(
  symbol: string,
  min = 1,
  max = LIMITS.maxBatchOrders,
  values: OrderValues = {},
): fc.Arbitrary<BatchOrderItem[]> {
  return fc.array(validOrder(symbol, values), { minLength: min, maxLength: max });
}

/**
 * The boundary cases of a batch property, run before the random ones: one
 * batch of the smallest and one of the largest size the property covers, drawn from the
 * run's seed, so the edges (a single order, the §4.1 limit of 20) are never left to chance.
 */
export function boundaryBatches(
  seed: number,
  symbol: string,
  min: number,
  max: number,
  values: OrderValues = {},
): BatchOrderItem[][] {
  const sizes = min === max ? [min] : [min, max];
  return sizes.map((n) => fc.sample(validBatch(symbol, n, n, values), { seed, numRuns: 1 })[0] ?? []);
}

/** Makes client order ids unique within a run (a duplicate id is an open point, D-DUPLICATE-CLIENT-ID). */
export function clientIdSource(seed: number): () => string {
  let n = 0;
  const run = `${(seed >>> 0).toString(36)}${Date.now().toString(36)}`;
  return () => `sc-${run}-${(n++).toString(36)}`;
}

/** Give every order of a batch its own fresh newClientOrderId. */
export function withClientIds<T extends object>(
  orders: readonly T[],
  next: () => string,
): Array<T & { newClientOrderId: string }> {
  return orders.map((o) => ({ ...o, newClientOrderId: next() }));
}

/** A batch with fresh client ids as plain records, for checks that break one field on purpose. */
export function editableBatch(orders: readonly BatchOrderItem[], next: () => string): Array<Record<string, unknown>> {
  return withClientIds(orders, next) as unknown as Array<Record<string, unknown>>;
}
