import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawResponse } from '../client/http.js';
import { batchOrdersRequest } from '../client/requests.js';
import { signJsonBody } from '../signing/build.js';
import type { BatchOrderResponse, BatchResultEntry } from '../core/types.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';
import { caller, settableClock, specSchema, type Caller } from '../../harness/testing/server.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
const clock = settableClock(NOW);
let server: RunningServer;
let api: Caller;

const batchSchema = specSchema('batch-order-response');
const errorSchema = specSchema('error-response');

beforeAll(async () => {
  server = await startServer({ clock: clock.clock });
  api = caller(server, TRADE, clock.clock);
});
afterAll(() => server.close());

let seq = 0;
/** A valid LIMIT order with a fresh client order id. */
function limit(over: Record<string, unknown> = {}): Record<string, unknown> {
  seq++;
  return {
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '1',
    price: '100',
    newClientOrderId: `b-${seq}`,
    ...over,
  };
}

/** Send a batch, expect HTTP 200 / code 0 / schema-valid, and return its entries and how many orders it placed. */
async function accepted(
  orders: ReadonlyArray<Record<string, unknown>>,
): Promise<{ result: BatchResultEntry[]; placed: number }> {
  const before = server.orders.count();
  const r = await api.batch(orders);
  expect(r.status).toBe(200);
  expect(batchSchema?.(r.json), JSON.stringify(batchSchema?.errors)).toBe(true);
  const body = r.json as BatchOrderResponse;
  expect(body.code).toBe(0);
  return { result: body.result ?? [], placed: server.orders.count() - before };
}

async function refused(res: Promise<RawResponse>, status: number, code: number): Promise<void> {
  const before = server.orders.count();
  const r = await res;
  expect(r.status).toBe(status);
  expect(errorSchema?.(r.json)).toBe(true);
  expect((r.json as { code: number }).code).toBe(code);
  expect(server.orders.count()).toBe(before);
}

describe('batch shape (§4.1)', () => {
  it('BATCH-ACCEPT-UP-TO-MAX, RESULT-ONE-PER-ORDER, RESULT-ORDER-MATCH: 20 orders give 20 entries in request order, all placed', async () => {
    const orders = Array.from({ length: 20 }, () => limit());
    const { result, placed } = await accepted(orders);
    expect(placed).toBe(20);
    expect(result.map((e) => e.order?.clientOrderId)).toEqual(orders.map((o) => o.newClientOrderId));
    expect(result.every((e) => e.code === 0 && e.msg === 'OK')).toBe(true);
  });

  it('BATCH-MAX-ORDERS: 21 orders are 400 -1193 and place nothing', async () => {
    await refused(api.batch(Array.from({ length: 21 }, () => limit())), 400, -1193);
  });

  it('BATCH-SINGLE-SYMBOL: mixed symbols are 400 -1194 and place nothing', async () => {
    await refused(api.batch([limit(), limit({ symbol: 'ETHUSDT' })]), 400, -1194);
  });

  it('BATCH-EMPTY (D-EMPTY-BATCH): [] is 400 -1130', async () => {
    await refused(api.batch([]), 400, -1130);
  });

  it('BATCH-JSON-BODY: a correctly signed body that is malformed JSON, or JSON but no array, is 400 -1130', async () => {
    const { request } = batchOrdersRequest([], { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW });
    for (const text of [
      '[',
      '[{"symbol":}]',
      '',
      ' ',
      '[1,]',
      '{}',
      '5',
      '"x"',
      'null',
      '{"0":{"symbol":"BTCUSDT"}}',
    ]) {
      const s = signJsonBody(TRADE.secret, [['timestamp', String(NOW)]], text);
      await refused(api.raw({ ...request, query: s.query, body: text }), 400, -1130);
    }
  });

  it('D-CONTENT-TYPE: a batch not sent as application/json is 415 -1000', async () => {
    const { request } = batchOrdersRequest([limit()], { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW });
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      await refused(api.raw({ ...request, headers: { ...request.headers, 'content-type': ct } }), 415, -1000);
    }
    const { 'content-type': _drop, ...noType } = request.headers;
    await refused(api.raw({ ...request, headers: noType }), 415, -1000);
    const ok = await api.raw({
      ...request,
      headers: { ...request.headers, 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('per-order outcomes (§4.1 rule 4, D-BATCH-ATOMICITY)', () => {
  it('BATCH-PER-ORDER-RULES, RESULT-FAILED-ORDER-REPORTED: a LIMIT without price fails alone (-1102, no order); the others are placed', async () => {
    const orders = [limit(), limit({ price: undefined }), limit()];
    const { result, placed } = await accepted(orders);
    expect(placed).toBe(2);
    expect(result.map((e) => e.code)).toEqual([0, -1102, 0]);
    expect(result[1]?.order).toBeUndefined();
    expect(result[1]?.msg).toMatch(/ORDER-PRICE-REQUIRED-LIMIT/);
  });

  it('each field rule fails its own entry with -1102 (missing) or -1130 (invalid)', async () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [limit({ side: 'HOLD' }), -1130],
      [limit({ side: undefined }), -1102],
      [limit({ type: 'STOP' }), -1130],
      [limit({ quantity: undefined }), -1102],
      [limit({ quantity: '-1' }), -1130],
      [limit({ quantity: '1e3' }), -1130],
      [limit({ quantity: 0 }), -1130],
      [limit({ price: 'abc' }), -1130],
      [limit({ amount: '5' }), -1130],
      [limit({ timeInForce: 'NEVER' }), -1130],
      [limit({ stpMode: 'EXPIRE_BOTH' }), -1130],
      [limit({ newClientOrderId: 'x'.repeat(256) }), -1130],
      [limit({ newClientOrderId: '' }), -1130],
    ];
    const { result, placed } = await accepted([...cases.map(([o]) => o), limit()]);
    expect(result.map((e) => e.code)).toEqual([...cases.map(([, c]) => c), 0]);
    expect(placed).toBe(1);
  });

  it('an element that is not an object fails its entry with -1130', async () => {
    const { result, placed } = await accepted([limit(), 5 as never, null as never]);
    expect(result.map((e) => e.code)).toEqual([0, -1130, -1130]);
    expect(placed).toBe(1);
  });

  it('ORDER-DECIMAL-FORMAT: numbers and decimal strings are both accepted and echoed as decimal strings', async () => {
    const { result } = await accepted([
      limit({ quantity: 0.5, price: 20000.25 }),
      limit({ quantity: '0.5', price: '20000.25' }),
      limit({ quantity: 1e-7 }),
    ]);
    expect(result.map((e) => [e.order?.origQty, e.order?.price])).toEqual([
      ['0.5', '20000.25'],
      ['0.5', '20000.25'],
      ['0.0000001', '100'],
    ]);
  });

  it('ORDER-CLIENT-ID-LENGTH: a 255-character id is accepted', async () => {
    const id = `z${'é'.repeat(254)}`;
    const { result } = await accepted([limit({ newClientOrderId: id })]);
    expect(result[0]?.order?.clientOrderId).toBe(id);
  });
});

describe('order data (§2.2)', () => {
  it('RESULT-ORDER-ECHO, D-STATUS: MARKET is FILLED with executedQty = origQty; LIMIT and LIMIT_MAKER are NEW', async () => {
    const { result } = await accepted([
      limit({ type: 'MARKET', price: undefined, quantity: '2', side: 'SELL' }),
      limit({ type: 'LIMIT_MAKER', quantity: '3', price: '99.5' }),
      limit({ quantity: '4', price: '101' }),
    ]);
    expect(
      result.map(
        (e) =>
          e.order && [
            e.order.type,
            e.order.side,
            e.order.symbol,
            e.order.status,
            e.order.origQty,
            e.order.executedQty,
            e.order.price,
            e.order.timeInForce,
          ],
      ),
    ).toEqual([
      ['MARKET', 'SELL', 'BTCUSDT', 'FILLED', '2', '2', '0', 'IOC'],
      ['LIMIT_MAKER', 'BUY', 'BTCUSDT', 'NEW', '3', '0', '99.5', 'GTC'],
      ['LIMIT', 'BUY', 'BTCUSDT', 'NEW', '4', '0', '101', 'GTC'],
    ]);
  });

  it('RESULT-CLIENT-ORDER-ID-ECHO, ORDER-CLIENT-ID-GENERATED, RESULT-ORDER-ID: ids echoed or generated, order ids unique digit strings of at most 20 characters', async () => {
    const { result } = await accepted([
      limit({ newClientOrderId: 'mine-1' }),
      limit({ newClientOrderId: undefined }),
      limit({ newClientOrderId: undefined }),
    ]);
    const [a, b, c] = result.map((e) => e.order);
    expect(a?.clientOrderId).toBe('mine-1');
    expect(b?.clientOrderId).toMatch(/.+/);
    expect(b?.clientOrderId).not.toBe(c?.clientOrderId);
    const ids = result.map((e) => String(e.order?.orderId));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9]{1,20}$/);
    expect(result.map((e) => e.order?.transactTime)).toEqual([String(NOW), String(NOW), String(NOW)]);
  });

  it('D-STP-PLACEMENT: each entry carries stpMode (default EXPIRE_TAKER) and concentration', async () => {
    const { result } = await accepted([
      limit(),
      limit({ stpMode: 'EXPIRE_MAKER' }),
      limit({ price: undefined, stpMode: 'EXPIRE_MAKER' }),
    ]);
    expect(result.map((e) => [e.stpMode, e.concentration])).toEqual([
      ['EXPIRE_TAKER', ''],
      ['EXPIRE_MAKER', ''],
      ['EXPIRE_MAKER', ''],
    ]);
  });

  it('D-DUPLICATE-CLIENT-ID: a newClientOrderId already held fails with -1141, within one batch and across requests', async () => {
    const first = await accepted([limit({ newClientOrderId: 'dup-A' }), limit({ newClientOrderId: 'dup-A' })]);
    expect(first.result.map((e) => e.code)).toEqual([0, -1141]);
    expect(first.placed).toBe(1);
    const again = await accepted([limit({ newClientOrderId: 'dup-A' }), limit({ newClientOrderId: 'dup-B' })]);
    expect(again.result.map((e) => e.code)).toEqual([-1141, 0]);
    expect(again.placed).toBe(1);
  });
});

describe('server options', () => {
  it('D-ORDER-STORE: the store keeps the newest orders only, and a forgotten client order id may be used again', async () => {
    const s = await startServer({ clock: clock.clock, storeCapacity: 5 });
    try {
      const c = caller(s, TRADE, clock.clock);
      for (let i = 0; i < 3; i++)
        await c.batch([
          limit({ newClientOrderId: `s-${i}-a` }),
          limit({ newClientOrderId: `s-${i}-b` }),
          limit({ newClientOrderId: `s-${i}-c` }),
          limit({ newClientOrderId: `s-${i}-d` }),
        ]);
      expect(s.orders.count()).toBe(12);
      expect(s.orders.list().map((o) => o.clientOrderId)).toEqual(['s-1-d', 's-2-a', 's-2-b', 's-2-c', 's-2-d']);
      const r = await c.batch([limit({ newClientOrderId: 's-0-a' }), limit({ newClientOrderId: 's-2-d' })]);
      expect((r.json as BatchOrderResponse).result?.map((e) => e.code)).toEqual([0, -1141]);
    } finally {
      await s.close();
    }
  });

  it('client order ids are per account: two trading keys may use the same id', async () => {
    const creds = [TRADE, { apiKey: 'second', secret: 'second-secret', permissions: ['TRADE'] as const }];
    const s = await startServer({ clock: clock.clock, credentials: creds });
    try {
      const one = await caller(s, TRADE, clock.clock).batch([limit({ newClientOrderId: 'same' })]);
      const two = await caller(s, creds[1] as (typeof creds)[1], clock.clock).batch([
        limit({ newClientOrderId: 'same' }),
      ]);
      const orders = [one, two].map((r) => (r.json as BatchOrderResponse).result?.[0]?.order);
      expect(orders.map((o) => o?.clientOrderId)).toEqual(['same', 'same']);
      expect(orders[0]?.accountId).not.toBe(orders[1]?.accountId);
    } finally {
      await s.close();
    }
  });

  it("errorStyle 'code-only': a refused batch is HTTP 200 with the same {code, msg}, and places nothing", async () => {
    const s = await startServer({ clock: clock.clock, errorStyle: 'code-only' });
    try {
      const c = caller(s, TRADE, clock.clock);
      const r = await c.batch(Array.from({ length: 21 }, () => limit()));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ code: -1193 });
      expect(typeof (r.json as { msg?: unknown }).msg).toBe('string');
      const partly = await c.batch([limit(), limit({ price: undefined })]);
      expect(partly.status).toBe(200);
      expect((partly.json as BatchOrderResponse).result?.map((e) => e.code)).toEqual([0, -1102]);
      expect(s.orders.count()).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('policy seams: validateBatch and finalizeResponse overrides are used, and told why a call was refused', async () => {
    const seen: Array<string | undefined> = [];
    const s = await startServer({
      clock: clock.clock,
      policy: {
        validateBatch: () => [],
        finalizeResponse: (res, ctx) => {
          seen.push(`${ctx.endpoint}:${ctx.rejection ?? 'ok'}`);
          return res;
        },
      },
    });
    try {
      const c = caller(s, TRADE, clock.clock);
      const r = await c.batch(Array.from({ length: 21 }, () => limit()));
      expect((r.json as BatchOrderResponse).result).toHaveLength(21);
      await c.batch([limit()], { secret: 'wrong' });
      expect(seen).toEqual(['batch:ok', 'batch:signature']);
    } finally {
      await s.close();
    }
  });
});
