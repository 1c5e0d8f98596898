import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src/signing/hmac.js';
import { totalParams } from '../../src/core/signing/total-params.js';
import { withoutSignature, parsePairs } from '../../src/core/signing/query.js';
import {
  batchJson,
  buildLoadRequest,
  clientIdSource,
  DEFAULT_ORDER,
  runPrefix,
  type LoadBuildOptions,
} from './build.js';
import { LOAD_ROUTES } from './mix.js';

const opts: LoadBuildOptions = {
  hmac: sign,
  apiKey: 'k',
  secret: 's3cret',
  order: DEFAULT_ORDER,
  batchSize: 3,
  recvWindow: 5000,
};

describe('buildLoadRequest', () => {
  it('signs every route over the bytes it sends (§5.3) with the timestamp given', () => {
    const next = clientIdSource('t-');
    for (const route of LOAD_ROUTES) {
      const r = buildLoadRequest(opts, route, 1_767_225_600_123, next);
      const { query, body, headers, path } = r.request;
      const form = route !== 'batch';
      const sigs = [...parsePairs(query), ...(form ? parsePairs(body) : [])].filter(([k]) => k === 'signature');
      expect(sigs, route).toHaveLength(1);
      const signed = totalParams(withoutSignature(query), form ? withoutSignature(body) : body);
      expect(sign('s3cret', signed), route).toBe(sigs[0]?.[1]);
      expect(signed, route).toContain('timestamp=1767225600123');
      expect(headers['X-SVC-APIKEY']).toBe('k');
      expect(path).toBe(
        route === 'batch'
          ? '/api/v1/spot/batchOrders'
          : route.startsWith('v1.1')
            ? '/api/v1.1/spot/order'
            : '/api/v1/spot/order',
      );
    }
  });

  it('puts the parameters where the route says and carries one fresh client id per order', () => {
    const next = clientIdSource('t-');
    const b = buildLoadRequest(opts, 'batch', 1, next);
    const orders = JSON.parse(b.request.body) as Array<{ newClientOrderId: string }>;
    expect(orders.map((o) => o.newClientOrderId)).toEqual(b.clientIds);
    expect(b.clientIds).toEqual(['t-0', 't-1', 't-2']);
    const q = buildLoadRequest(opts, 'v1/query', 1, next);
    expect(q.request.body).toBe('');
    expect(q.clientIds).toEqual(['t-3']);
    const body = buildLoadRequest(opts, 'v1.1/body', 1, next);
    expect(body.request.query).toBe('');
    expect(body.request.body).toContain('newClientOrderId=t-4');
    const split = buildLoadRequest(opts, 'v1/split', 1, next);
    expect(split.request.query).not.toBe('');
    expect(split.request.body).not.toBe('');
  });

  it('signs the query only when the target declares it for batches', () => {
    const b = buildLoadRequest({ ...opts, batchQueryOnly: true }, 'batch', 5, clientIdSource('x'));
    const sig = parsePairs(b.request.query).find(([k]) => k === 'signature')?.[1];
    expect(sig).toBe(sign('s3cret', withoutSignature(b.request.query)));
  });

  it('run prefixes differ between runs and stay short', () => {
    let x = 0.1;
    const a = runPrefix(() => x);
    x = 0.2;
    expect(runPrefix(() => x)).not.toBe(a);
    expect(a).toMatch(/^ld[0-9a-z]{8}-$/);
  });
});

describe('batchJson', () => {
  it('is JSON.stringify of the orders, sides alternating, for any order values and client ids', () => {
    const text = fc.string({ unit: 'binary', maxLength: 8 });
    fc.assert(
      fc.property(
        fc.record({ symbol: text, price: text, quantity: text }),
        fc.array(text, { maxLength: 5 }),
        (order, ids) => {
          const orders = ids.map((id, i) => ({
            symbol: order.symbol,
            side: i % 2 === 0 ? 'BUY' : 'SELL',
            type: 'LIMIT',
            quantity: order.quantity,
            price: order.price,
            timeInForce: 'GTC',
            newClientOrderId: id,
          }));
          expect(batchJson(order, ids)).toBe(JSON.stringify(orders));
          order.price += '1';
          orders.forEach((o) => (o.price = order.price));
          expect(batchJson(order, ids), 'values changed in place').toBe(JSON.stringify(orders));
        },
      ),
    );
  });
});
