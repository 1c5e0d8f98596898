/**
 * Request data shared by several vector kinds: the fixed timestamp and the batch orders
 * of the signing and order vectors (§2.1, §4.1).
 */

/** 2026-01-01T00:00:00Z, the timestamp of our own vectors. */
export const TS = 1767225600000;

export interface BatchOrder {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
  quantity: string | number;
  price?: string | number;
  newClientOrderId?: string;
  timeInForce?: string;
  stpMode?: string;
}

/** `n` batch orders for BTCUSDT, decimals as strings or numbers. */
export function batchOrders(n: number, decimals: 'string' | 'number'): BatchOrder[] {
  return Array.from({ length: n }, (_, i) => {
    const qty = (0.001 * (i + 1)).toFixed(3);
    const price = (42000 + i * 12.5).toFixed(2);
    const maker = i % 5 === 4;
    return {
      symbol: 'BTCUSDT',
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      type: maker ? 'LIMIT_MAKER' : 'LIMIT',
      quantity: decimals === 'string' ? qty : Number(qty),
      price: decimals === 'string' ? price : Number(price),
      newClientOrderId: `golden-batch-${String(i + 1).padStart(2, '0')}`,
      ...(maker ? {} : { timeInForce: 'GTC' }),
      ...(i % 3 === 2 ? { stpMode: 'EXPIRE_MAKER' } : {}),
    };
  });
}
