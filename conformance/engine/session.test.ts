/**
 * What the run's sessions learn from: the size control of a refused order (sizeTwins: the same
 * order, and a thousandth of its size, nothing else changed) and the re-sent control of a refusal
 * not seen yet (createConfirmer).
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import type { SendResult } from './transport.js';
import { createConfirmer, sizeTwins, type Learning } from './session.js';

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

describe('createConfirmer: a refused control is sent again before the run learns from it', () => {
  const ROUTE = { endpoint: 'v1', placement: 'query' } as const;
  const refused = (code: number): Observation => ({ verdict: 'rejected', status: 400, code, json: { code } });
  const placed: Observation = { verdict: 'accepted', status: 200, json: { code: 0 } };
  const confirmWith = (answers: Observation[]) => {
    const learning: Learning = {
      knowledge: {
        routes: { 'v1/query': { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] } },
        missing: [],
      },
      learned: [],
    };
    let sent = 0;
    const asked: string[][] = [];
    const confirm = createConfirmer(
      learning,
      async () => ({ observation: answers[sent++] ?? placed, exchange: {} }) as unknown as SendResult,
      {
        requests: { onRoute: () => ({ request: {}, facts: {} }) },
        batchOrder: () => ({}),
        limitParams: () => ({}),
      } as unknown as Parameters<typeof createConfirmer>[2],
      async (_r, marks) => {
        asked.push([...marks]);
        return { shown: true };
      },
    );
    return { confirm, learning, asked, sent: () => sent };
  };

  it("refused once, placed when sent again (a delayed request, a jitter): the refusal is the rule's, nothing learnt about valid orders", async () => {
    const c = confirmWith([refused(-1021), placed]);
    await c.confirm(ROUTE, 'HTTP 400 code -1021');
    expect(c.sent()).toBe(2);
    expect(c.learning.knowledge.routes['v1/query']).toMatchObject({
      validRefusals: [],
      ruleRefusals: ['HTTP 400 code -1021'],
    });
    expect(c.asked).toEqual([]);
  });

  it('refused twice: valid orders meet it, and the control pair is asked whose it is', async () => {
    const c = confirmWith([refused(-2010), refused(-2010)]);
    await c.confirm(ROUTE, 'HTTP 400 code -2010');
    expect(c.sent()).toBe(2);
    expect(c.asked).toEqual([['HTTP 400 code -2010']]);
    expect(c.learning.knowledge.routes['v1/query']?.validRefusals).toEqual(['HTTP 400 code -2010']);
  });

  it("placed at once: one control, the refusal is the rule's", async () => {
    const c = confirmWith([placed]);
    await c.confirm(ROUTE, 'HTTP 400 code -1102');
    expect(c.sent()).toBe(1);
    expect(c.learning.knowledge.routes['v1/query']?.ruleRefusals).toEqual(['HTTP 400 code -1102']);
  });
});
