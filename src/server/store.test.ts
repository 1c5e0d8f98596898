import { describe, expect, it } from 'vitest';
import { OrderStore, type PlacedOrder } from './store.js';

function order(store: OrderStore, accountId: string, clientOrderId: string): PlacedOrder {
  return {
    accountId,
    symbol: 'BTCUSDT',
    symbolName: 'BTCUSDT',
    clientOrderId,
    orderId: store.nextOrderId(),
    transactTime: '1',
    price: '1',
    origQty: '1',
    executedQty: '0',
    status: 'NEW',
    timeInForce: 'GTC',
    type: 'LIMIT',
    side: 'BUY',
    reqAmount: '0',
  };
}

describe('OrderStore (D-ORDER-STORE)', () => {
  it('lists held orders oldest first, before and after the ring wraps, and counts every order placed', () => {
    const s = new OrderStore(3);
    s.add(order(s, 'a', 'x1'));
    s.add(order(s, 'a', 'x2'));
    expect(s.list().map((o) => o.clientOrderId)).toEqual(['x1', 'x2']);
    for (const id of ['x3', 'x4', 'x5', 'x6', 'x7']) s.add(order(s, 'a', id));
    expect(s.list().map((o) => o.clientOrderId)).toEqual(['x5', 'x6', 'x7']);
    expect(s.count()).toBe(7);
  });

  it('knows the client order ids it still holds, per account', () => {
    const s = new OrderStore(2);
    s.add(order(s, 'a', 'same'));
    s.add(order(s, 'b', 'other'));
    expect([
      s.hasClientOrderId('a', 'same'),
      s.hasClientOrderId('b', 'same'),
      s.hasClientOrderId('b', 'other'),
    ]).toEqual([true, false, true]);
    s.add(order(s, 'b', 'third'));
    expect(s.hasClientOrderId('a', 'same')).toBe(false);
  });

  it('RESULT-ORDER-ID: order ids are unique digit strings of at most 20 characters, also at the top of the counter', () => {
    const s = new OrderStore(10, Number.MAX_SAFE_INTEGER - 2);
    const ids = Array.from({ length: 6 }, () => s.nextOrderId());
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^[0-9]{1,20}$/);
    const fromClock = new OrderStore(10, 1_750_000_000_000 * 1000).nextOrderId();
    expect(fromClock).toBe('1750000000000000');
  });
});
