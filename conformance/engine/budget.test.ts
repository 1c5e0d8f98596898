/**
 * The order budget as a reservation (`--max-orders`): a request reserves the orders it could
 * place before it is sent, so requests in flight count, and a refused one gives them back.
 */
import { describe, expect, it } from 'vitest';
import type { RawRequest } from '../../src/client/http.js';
import { createOrderBudget, ordersIn } from './budget.js';
import { createRunSender } from './session.js';
import type { SendResult, Transport } from './transport.js';

const paths = { batch: '/b', single: ['/o', '/o11'] };

describe('ordersIn', () => {
  it('counts what a lenient server could place: array elements, a batch object with a symbol, one single order', () => {
    expect(ordersIn({ path: '/b', body: '[{},{},{}]' }, paths)).toBe(3);
    expect(ordersIn({ path: '/b?x=1', body: '{"symbol":"BTCUSDT"}' }, paths)).toBe(1);
    expect(
      ordersIn({ path: '/b', body: JSON.stringify(JSON.stringify([{ symbol: 'A' }, { symbol: 'B' }])) }, paths),
    ).toBe(2);
    expect(ordersIn({ path: '/b', body: '{}' }, paths)).toBe(0);
    expect(ordersIn({ path: '/b', body: '[{"symbol":' }, paths)).toBe(1);
    expect(ordersIn({ path: '/b', body: '' }, paths)).toBe(0);
    expect(ordersIn({ path: '/o11', body: '' }, paths)).toBe(1);
    expect(ordersIn({ path: '/time', body: 'symbol=A' }, paths)).toBe(0);
  });
});

/** A transport holding every request in flight until `release`; each one is accepted and placed. */
function heldTransport() {
  const waiting: Array<() => void> = [];
  let sent = 0;
  const transport = {
    send: async (request: RawRequest): Promise<SendResult> => {
      sent++;
      await new Promise<void>((r) => waiting.push(r));
      const observation = { verdict: 'accepted' as const, status: 200, json: { code: 0 } };
      return { observation, exchange: { request, observation } };
    },
  } as unknown as Transport;
  return { transport, sent: () => sent, release: () => waiting.splice(0).forEach((r) => r()) };
}

describe('the run sender reserves before it sends', () => {
  it('64 single orders sent at once under a cap of 7: 7 reach the transport, 57 are held back with the reason', async () => {
    const t = heldTransport();
    const budget = createOrderBudget(7);
    const run = createRunSender({ transport: t.transport, budget, paths });
    const req: RawRequest = { method: 'POST', path: '/o', query: 'symbol=A', body: '', headers: {} };
    const all = Promise.all(Array.from({ length: 64 }, () => run.send(req)));
    await new Promise((r) => setImmediate(r));
    expect(t.sent()).toBe(7);
    t.release();
    const results = await all;
    expect(results.filter((r) => r.observation.verdict === 'not-sent')).toHaveLength(57);
    expect(results.find((r) => r.observation.verdict === 'not-sent')?.observation.error).toMatch(
      /^the order budget \(--max-orders 7\) is spent/,
    );
    expect(budget.placed()).toBe(7);
    expect(budget.withheld()).toBe(57);
  });

  it('a batch in flight holds all its elements; a refused request gives its reservation back', () => {
    const budget = createOrderBudget(5);
    expect(budget.reserve(4)).toBe(true);
    expect(budget.reserve(2)).toBe(false);
    budget.settle(4, { verdict: 'rejected', status: 400 });
    expect(budget.reserve(5)).toBe(true);
    budget.settle(5, { verdict: 'no-answer' });
    expect(budget.placed()).toBe(5);
    expect(budget.reserve(1)).toBe(false);
  });

  it('a check share counts its requests in flight too', () => {
    const budget = createOrderBudget(100);
    const share = budget.share(10);
    expect(share.limit).toBe(10);
    expect(budget.reserve(6, share)).toBe(true);
    expect(budget.reserve(6, share)).toBe(false);
    expect(budget.reserve(4, share)).toBe(true);
  });
});
