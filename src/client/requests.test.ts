import { describe, expect, it } from 'vitest';
import { sign } from '../signing/hmac.js';
import { batchOrdersRequest, orderParams, orderRequest } from './requests.js';

const auth = { apiKey: 'key', secret: 'secret', timestamp: 1_700_000_000_000 };

describe('orderParams', () => {
  it('lists the fields in §2.1 order, leaves out absent ones, writes numbers as plain decimals, ends with recvWindow and timestamp', () => {
    expect(
      orderParams(
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: 1e-7, price: 20000, stpMode: 'EXPIRE_MAKER' },
        { ...auth, recvWindow: 3000 },
      ),
    ).toEqual([
      ['symbol', 'BTCUSDT'],
      ['side', 'BUY'],
      ['type', 'LIMIT'],
      ['quantity', '0.0000001'],
      ['price', '20000'],
      ['stpMode', 'EXPIRE_MAKER'],
      ['recvWindow', '3000'],
      ['timestamp', '1700000000000'],
    ]);
  });
});

describe('request builders', () => {
  it('batch: JSON body as sent, time params and signature in the query, the key header and JSON content type', () => {
    const { request, signed } = batchOrdersRequest(
      [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }],
      auth,
    );
    expect(request).toMatchObject({
      method: 'POST',
      path: '/api/v1/spot/batchOrders',
      headers: { 'X-SVC-APIKEY': 'key', 'content-type': 'application/json' },
    });
    expect(request.body).toBe('[{"symbol":"BTCUSDT","side":"BUY","type":"MARKET","quantity":"1"}]');
    const q = 'timestamp=1700000000000';
    expect(request.query).toBe(`${q}&signature=${sign('secret', q + request.body)}`);
    expect(signed.steps.totalParams).toBe(q + request.body);
  });

  it('single order: path per version, form content type only when there is a body', () => {
    const order = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '2' } as const;
    const q = orderRequest(order, { version: 'v1', placement: 'query' }, auth).request;
    expect([q.path, q.body, q.headers['content-type']]).toEqual(['/api/v1/spot/order', '', undefined]);
    const b = orderRequest(order, { version: 'v1.1', placement: 'body' }, auth).request;
    expect([b.path, b.query, b.headers['content-type']]).toEqual([
      '/api/v1.1/spot/order',
      '',
      'application/x-www-form-urlencoded',
    ]);
    expect(b.body).toMatch(
      /^symbol=BTCUSDT&side=SELL&type=MARKET&quantity=2&timestamp=1700000000000&signature=[0-9a-f]{64}$/,
    );
  });
});
