/** The size control of a refused order (session.ts sizeTwins): the same order, and a thousandth of its size, nothing else changed. */
import { describe, expect, it } from 'vitest';
import { sizeTwins } from './session.js';

const thousandthOf = (o: Record<string, unknown>) => sizeTwins(o)?.small;

describe('sizeTwins', () => {
  it('divides quantity and amount by a thousand and leaves out the signing parameters, keeping every other field', () => {
    expect(
      thousandthOf({
        symbol: 'BTCUSDT',
        type: 'MARKET',
        amount: '10',
        timestamp: '1',
        signature: 'ab',
        recvWindow: '5000',
      }),
    ).toEqual({ symbol: 'BTCUSDT', type: 'MARKET', amount: '0.01', recvWindow: '5000' });
    // its twin at full size is the order as it was, less the signing parameters
    expect(sizeTwins({ type: 'MARKET', amount: '10', timestamp: '1', signature: 'ab' })?.same).toEqual({
      type: 'MARKET',
      amount: '10',
    });
    expect(thousandthOf({ type: 'LIMIT', price: '100', quantity: '0.005' })).toEqual({
      type: 'LIMIT',
      price: '100',
      quantity: '0.000005',
    });
  });

  it('none for a size a server may refuse for its spelling, a size of zero, or no size at all (the twin would differ in more than its size)', () => {
    for (const quantity of ['0.10', '1e-3', '+1', '01', '1.', '0', ' 1'])
      expect(thousandthOf({ quantity }), quantity).toBeUndefined();
    expect(thousandthOf({ quantity: 0.001 })).toBeUndefined();
    expect(thousandthOf({ amount: '10', quantity: '0.10' })).toBeUndefined();
    expect(thousandthOf({ symbol: 'BTCUSDT', side: 'BUY' })).toBeUndefined();
  });
});
