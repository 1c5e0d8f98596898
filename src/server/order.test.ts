import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawResponse } from '../client/http.js';
import { orderRequest } from '../client/requests.js';
import type { ApiVersion } from '../core/validation/order.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';
import { caller, settableClock, specSchema, type Caller } from '../../harness/testing/server.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
const clock = settableClock(NOW);
let server: RunningServer;
let api: Caller;

const singleSchema = specSchema('single-order-response');

beforeAll(async () => {
  server = await startServer({ clock: clock.clock });
  api = caller(server, TRADE, clock.clock);
});
afterAll(() => server.close());

const BASE = { symbol: 'BTCUSDT', side: 'BUY' } as const;

async function placed(version: ApiVersion, order: Record<string, unknown>): Promise<Record<string, unknown>> {
  const before = server.orders.count();
  const r = await api.order(order, { version, placement: 'body' });
  expect(r.status, r.text).toBe(200);
  expect(singleSchema?.(r.json), JSON.stringify(singleSchema?.errors)).toBe(true);
  expect(server.orders.count()).toBe(before + 1);
  return r.json as Record<string, unknown>;
}

async function refused(res: Promise<RawResponse>, status: number, code: number): Promise<void> {
  const before = server.orders.count();
  const r = await res;
  expect([r.status, (r.json as { code?: unknown }).code]).toEqual([status, code]);
  expect(server.orders.count()).toBe(before);
}

describe('single orders (§4.2, D-SINGLE-RESPONSE)', () => {
  it('ORDER-V1-ENDPOINT: a v1 LIMIT order answers 200 with code 0 and the order data at top level', async () => {
    const body = await placed('v1', {
      ...BASE,
      type: 'LIMIT',
      quantity: '2',
      price: '50',
      newClientOrderId: 'single-1',
    });
    expect(body).toMatchObject({
      code: 0,
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      origQty: '2',
      price: '50',
      status: 'NEW',
      clientOrderId: 'single-1',
      executedQty: '0',
    });
    expect(String(body.orderId)).toMatch(/^[0-9]{1,20}$/);
  });

  it('ORDER-QUANTITY-REQUIRED-V1: v1 without quantity is 400 -1102; D-AMOUNT-ELSEWHERE: amount on v1 is 400 -1130', async () => {
    await refused(api.order({ ...BASE, type: 'MARKET' }), 400, -1102);
    await refused(api.order({ ...BASE, type: 'MARKET', quantity: '1', amount: '10' }), 400, -1130);
  });

  it('ORDER-V11-ENDPOINT, D-V11-MARKET-SIZE: a v1.1 MARKET order with quantity or amount is placed and FILLED', async () => {
    const byQty = await placed('v1.1', { ...BASE, type: 'MARKET', quantity: '3' });
    expect(byQty).toMatchObject({ status: 'FILLED', origQty: '3', executedQty: '3', timeInForce: 'IOC' });
    const byAmount = await placed('v1.1', { ...BASE, type: 'MARKET', amount: '250.5' });
    expect(byAmount).toMatchObject({ status: 'FILLED', reqAmount: '250.5' });
  });

  it('ORDER-MARKET-SIZE-V11: a v1.1 MARKET order with neither is 400 -1102', async () => {
    await refused(api.order({ ...BASE, type: 'MARKET' }, { version: 'v1.1' }), 400, -1102);
  });

  it('ORDER-QUANTITY-V11 (D-V11-LIMIT-QUANTITY): a v1.1 LIMIT without quantity is 400 -1102; ORDER-AMOUNT-MARKET-ONLY: amount on LIMIT is 400 -1130', async () => {
    await refused(api.order({ ...BASE, type: 'LIMIT', price: '1' }, { version: 'v1.1' }), 400, -1102);
    await refused(
      api.order({ ...BASE, type: 'LIMIT', price: '1', quantity: '1', amount: '1' }, { version: 'v1.1' }),
      400,
      -1130,
    );
  });

  it('ORDER-PRICE-REQUIRED-LIMIT, ORDER-SYMBOL-REQUIRED, ORDER-SIDE-ENUM, ORDER-TYPE-ENUM', async () => {
    await refused(api.order({ ...BASE, type: 'LIMIT_MAKER', quantity: '1' }), 400, -1102);
    await refused(api.order({ side: 'BUY', type: 'MARKET', quantity: '1' }), 400, -1102);
    await refused(api.order({ ...BASE, symbol: '', type: 'MARKET', quantity: '1' }), 400, -1130);
    await refused(api.order({ ...BASE, side: 'buy', type: 'MARKET', quantity: '1' }), 400, -1130);
    await refused(api.order({ ...BASE, type: 'market', quantity: '1' }), 400, -1130);
  });

  it('D-DUPLICATE-CLIENT-ID: a newClientOrderId already held is 400 -1141', async () => {
    await placed('v1', { ...BASE, type: 'MARKET', quantity: '1', newClientOrderId: 'single-dup' });
    await refused(
      api.order({ ...BASE, type: 'MARKET', quantity: '1', newClientOrderId: 'single-dup' }, { version: 'v1.1' }),
      400,
      -1141,
    );
  });

  it('D-UNKNOWN-FIELDS: unknown parameters are ignored, not echoed', async () => {
    const body = await placed('v1', { ...BASE, type: 'MARKET', quantity: '1', colour: 'blue' });
    expect(body.colour).toBeUndefined();
  });

  it('ORDER-TIME-IN-FORCE (D-TIF-VALUES): GTC, IOC and FOK are accepted with any type and echoed', async () => {
    for (const tif of ['GTC', 'IOC', 'FOK']) {
      expect(await placed('v1', { ...BASE, type: 'MARKET', quantity: '1', timeInForce: tif })).toMatchObject({
        timeInForce: tif,
      });
    }
  });

  it('D-CONTENT-TYPE: a body not sent as a form is 415 -1000; a query-only request needs no content type', async () => {
    const auth = { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW };
    const { request } = orderRequest(
      { ...BASE, type: 'MARKET', quantity: '1' },
      { version: 'v1', placement: 'body' },
      auth,
    );
    for (const ct of ['application/json', 'text/plain', 'multipart/form-data']) {
      await refused(api.raw({ ...request, headers: { ...request.headers, 'content-type': ct } }), 415, -1000);
    }
    const { 'content-type': _drop, ...noType } = request.headers;
    await refused(api.raw({ ...request, headers: noType }), 415, -1000);
    const withCharset = await api.raw({
      ...request,
      headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(withCharset.status).toBe(200);
    const queryOnly = orderRequest(
      { ...BASE, type: 'MARKET', quantity: '1' },
      { version: 'v1', placement: 'query' },
      auth,
    ).request;
    expect(queryOnly.headers['content-type']).toBeUndefined();
    expect((await api.raw(queryOnly)).status).toBe(200);
  });

  it('percent-encoded values are decoded before validation and signed as sent', async () => {
    const body = await placed('v1', { ...BASE, type: 'MARKET', quantity: '1', newClientOrderId: 'a b&c=d/é' });
    expect(body.clientOrderId).toBe('a b&c=d/é');
  });
});
