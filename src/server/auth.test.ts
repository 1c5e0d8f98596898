import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '../core/wire.js';
import type { RawRequest, RawResponse } from '../client/http.js';
import { batchOrdersRequest, orderRequest } from '../client/requests.js';
import { signJsonBody, signParams } from '../signing/build.js';
import type { Params, Placement } from '../core/signing/build.js';
import { sign } from '../signing/hmac.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';
import { caller, settableClock, type Caller } from '../../harness/testing/server.js';

const NOW = 1_750_000_000_000;
const [TRADE, READONLY] = DEMO_CREDENTIALS as [(typeof DEMO_CREDENTIALS)[0], (typeof DEMO_CREDENTIALS)[0]];
const clock = settableClock(NOW);
let server: RunningServer;
let api: Caller;

beforeAll(async () => {
  server = await startServer({ clock: clock.clock });
  api = caller(server, TRADE, clock.clock);
});
afterAll(() => server.close());

const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' } as const;

function orderParams(extra: Params = [['timestamp', String(NOW)]]): Params {
  return [['symbol', 'BTCUSDT'], ['side', 'BUY'], ['type', 'LIMIT'], ['quantity', '1'], ['price', '100'], ...extra];
}

/** A single-order request with exactly these params, signed with `secret`. */
function signedOrder(
  params: Params,
  placement: Placement = 'query',
  secret = TRADE.secret,
  apiKey: string | null = TRADE.apiKey,
): RawRequest {
  const s = signParams({ secret, params, placement });
  return {
    method: 'POST',
    path: '/api/v1/spot/order',
    query: s.query,
    body: s.body,
    headers: {
      ...(apiKey === null ? {} : { [API_KEY_HEADER]: apiKey }),
      ...(s.contentType ? { 'content-type': s.contentType } : {}),
    },
  };
}

/** Run `fn`, then assert it placed no order and was refused with this status and code. */
async function expectRefused(res: Promise<RawResponse>, status: number, code: number): Promise<RawResponse> {
  const before = server.orders.count();
  const r = await res;
  expect({ status: r.status, code: (r.json as { code?: unknown }).code }).toEqual({ status, code });
  expect(typeof (r.json as { msg?: unknown }).msg).toBe('string');
  expect(server.orders.count()).toBe(before);
  return r;
}

async function expectPlaced(res: Promise<RawResponse>, n = 1): Promise<RawResponse> {
  const before = server.orders.count();
  const r = await res;
  expect(r.status).toBe(200);
  expect((r.json as { code?: unknown }).code).toBe(0);
  expect(server.orders.count()).toBe(before + n);
  return r;
}

describe('API key (§5.1, §5.2)', () => {
  it('AUTH-APIKEY-REQUIRED: no X-SVC-APIKEY header, or an empty one, is 401 -2014', async () => {
    await expectRefused(api.raw(signedOrder(orderParams(), 'query', TRADE.secret, null)), 401, -2014);
    await expectRefused(api.raw(signedOrder(orderParams(), 'query', TRADE.secret, '')), 401, -2014);
  });

  it('AUTH-APIKEY-UNKNOWN: a key the server does not hold is 401 -2015', async () => {
    await expectRefused(api.raw(signedOrder(orderParams(), 'query', TRADE.secret, 'no-such-key')), 401, -2015);
  });

  it('AUTH-PERMISSION: a correctly signed request from a key without TRADE is 403 -2015, on every order endpoint', async () => {
    const ro = caller(server, READONLY, clock.clock);
    await expectRefused(ro.order(LIMIT), 403, -2015);
    await expectRefused(ro.order(LIMIT, { version: 'v1.1', placement: 'body' }), 403, -2015);
    await expectRefused(ro.batch([LIMIT]), 403, -2015);
  });

  it("AUTH-SECRET-BOUND: a signature made with another key's secret is 401 -1022", async () => {
    await expectRefused(api.raw(signedOrder(orderParams(), 'query', READONLY.secret)), 401, -1022);
    await expectRefused(api.batch([LIMIT], { secret: READONLY.secret }), 401, -1022);
  });
});

describe('signature (§5.3)', () => {
  it('SIG-PLACEMENT-QUERY, SIG-PLACEMENT-BODY, SIG-PLACEMENT-SPLIT: each placement is accepted on v1 and v1.1', async () => {
    for (const version of ['v1', 'v1.1'] as const) {
      for (const placement of ['query', 'body', 'split'] as const) {
        const r = await expectPlaced(api.order(LIMIT, { version, placement }));
        expect((r.json as { symbol?: unknown }).symbol).toBe('BTCUSDT');
      }
    }
  });

  it('SIG-PLACEMENT-SPLIT with every cut point of the parameters', async () => {
    const params = orderParams();
    for (let cut = 1; cut < params.length; cut++) {
      await expectPlaced(api.raw({ ...signedOrder(params, 'split'), ...splitAt(params, cut) }));
    }
  });

  it('SIG-TOTALPARAMS-NO-SEPARATOR: a split request signed over query + "&" + body is 401 -1022', async () => {
    const params = orderParams();
    const q = signParams({ secret: TRADE.secret, params: params.slice(0, 3), placement: 'query' }).steps
      .queryWithoutSignature;
    const b = signParams({ secret: TRADE.secret, params: params.slice(3), placement: 'body' }).steps.body;
    const wrong = sign(TRADE.secret, `${q}&${b}`);
    const req = signedOrder(params, 'split');
    await expectRefused(api.raw({ ...req, query: `${q}&signature=${wrong}`, body: b }), 401, -1022);
    await expectPlaced(api.raw({ ...req, query: `${q}&signature=${sign(TRADE.secret, q + b)}`, body: b }));
  });

  it('SIG-CASE-INSENSITIVE: the signature in upper case is accepted', async () => {
    const req = signedOrder(orderParams());
    await expectPlaced(
      api.raw({
        ...req,
        query: req.query.replace(/signature=([0-9a-f]+)/, (_, s: string) => `signature=${s.toUpperCase()}`),
      }),
    );
  });

  it('SIG-EXCLUDES-SIGNATURE: the signature pair is left out of totalParams wherever it sits', async () => {
    const params = orderParams();
    const q = signParams({ secret: TRADE.secret, params, placement: 'query' }).steps.queryWithoutSignature;
    const sig = sign(TRADE.secret, q);
    const pairs = q.split('&');
    pairs.splice(2, 0, `signature=${sig}`);
    await expectPlaced(api.raw({ ...signedOrder(params), query: pairs.join('&') }));
  });

  it('SIG-QUERY-COVERED: a query parameter changed after signing is 401 -1022', async () => {
    const req = signedOrder(orderParams());
    await expectRefused(api.raw({ ...req, query: req.query.replace('quantity=1', 'quantity=2') }), 401, -1022);
  });

  it('SIG-BODY-COVERED: a form body or batch JSON changed after signing is 401 -1022', async () => {
    const form = signedOrder(orderParams(), 'body');
    await expectRefused(api.raw({ ...form, body: form.body.replace('quantity=1', 'quantity=2') }), 401, -1022);
    const batch = batchOrdersRequest([LIMIT], { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW }).request;
    await expectRefused(
      api.raw({ ...batch, body: batch.body.replace('"quantity":"1"', '"quantity":"2"') }),
      401,
      -1022,
    );
    await expectRefused(api.raw({ ...batch, body: `${batch.body} ` }), 401, -1022);
  });

  it('SIG-HMAC-SHA256-HEX: garbage, truncated or empty signatures are 401 -1022', async () => {
    const req = signedOrder(orderParams());
    for (const bad of ['zz', 'not-hex-at-all', '0'.repeat(64), req.query.slice(-64, -1), '']) {
      await expectRefused(
        api.raw({ ...req, query: req.query.replace(/signature=[0-9a-f]+/, `signature=${bad}`) }),
        401,
        -1022,
      );
    }
  });

  it('SIG-REQUIRED: no signature parameter is 400 -1102', async () => {
    const req = signedOrder(orderParams());
    await expectRefused(api.raw({ ...req, query: req.query.replace(/&signature=[0-9a-f]+/, '') }), 400, -1102);
    const batch = batchOrdersRequest([LIMIT], { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW }).request;
    await expectRefused(api.raw({ ...batch, query: `timestamp=${NOW}` }), 400, -1102);
  });

  it('BATCH-TIME-IN-QUERY: a batch takes timestamp and signature from the query only', async () => {
    const body = JSON.stringify([{ ...LIMIT, timestamp: NOW }]);
    const s = signJsonBody(TRADE.secret, [], body);
    const req = batchOrdersRequest([LIMIT], { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW }).request;
    await expectRefused(api.raw({ ...req, query: s.query, body }), 400, -1102);
  });
});

describe('duplicate parameters (D-DUPLICATE-PARAM)', () => {
  it('a parameter twice in the query, or in both query and body, is 400 -1101 even when signed', async () => {
    await expectRefused(
      api.raw(
        signedOrder(
          orderParams([
            ['timestamp', String(NOW)],
            ['timestamp', String(NOW)],
          ]),
        ),
      ),
      400,
      -1101,
    );
    const params = orderParams([
      ['symbol', 'BTCUSDT'],
      ['timestamp', String(NOW)],
    ]);
    await expectRefused(api.raw(signedOrder(params, 'split')), 400, -1101);
    const req = signedOrder(orderParams());
    await expectRefused(api.raw({ ...req, query: `${req.query}&signature=${'a'.repeat(64)}` }), 400, -1101);
  });
});

describe('time window (§5.4) with an injected clock at T', () => {
  const at = (timestamp: number, recvWindow?: number): Promise<RawResponse> =>
    api.order(LIMIT, {}, { timestamp, recvWindow });

  it('TIME-WINDOW-PAST, TIME-RECVWINDOW-DEFAULT: T-5000 is accepted, T-5001 is 400 -1021', async () => {
    await expectPlaced(at(NOW - 5000));
    await expectRefused(at(NOW - 5001), 400, -1021);
  });

  it('TIME-WINDOW-LEAD: T+999 is accepted, T+1000 is 400 -1021', async () => {
    await expectPlaced(at(NOW + 999));
    await expectRefused(at(NOW + 1000), 400, -1021);
  });

  it('TIME-RECVWINDOW-HONOURED: the window sent is the one used (100 and 60000)', async () => {
    await expectPlaced(at(NOW - 100, 100));
    await expectRefused(at(NOW - 101, 100), 400, -1021);
    await expectPlaced(at(NOW - 60000, 60000));
    await expectRefused(at(NOW - 60001, 60000), 400, -1021);
    await expectPlaced(at(NOW, 0));
    await expectRefused(at(NOW - 1, 0), 400, -1021);
  });

  it('TIME-REJECTED on the batch endpoint too, and the clock is read per request', async () => {
    await expectRefused(api.batch([LIMIT], { timestamp: NOW - 5001 }), 400, -1021);
    clock.advance(10_000);
    try {
      await expectRefused(api.batch([LIMIT], { timestamp: NOW }), 400, -1021);
      await expectPlaced(api.batch([LIMIT], { timestamp: NOW + 10_000 }));
    } finally {
      clock.set(NOW);
    }
  });

  it('D-RECVWINDOW-MAX: recvWindow above 60000 is 400 -1130', async () => {
    await expectRefused(at(NOW, 60001), 400, -1130);
  });

  it('TIME-TIMESTAMP-REQUIRED: no timestamp is 400 -1102', async () => {
    await expectRefused(api.raw(signedOrder(orderParams([]))), 400, -1102);
  });

  it('ORDER-RECVWINDOW-FORMAT: non-numeric or negative timestamp or recvWindow is 400 -1130', async () => {
    for (const extra of [
      [['timestamp', 'abc']],
      [['timestamp', `${NOW}.5`]],
      [['timestamp', `-${NOW}`]],
      [['timestamp', '']],
      [
        ['timestamp', String(NOW)],
        ['recvWindow', 'x'],
      ],
      [
        ['timestamp', String(NOW)],
        ['recvWindow', '-1'],
      ],
    ] as Params[]) {
      await expectRefused(api.raw(signedOrder(orderParams(extra))), 400, -1130);
    }
  });

  it('the Date header reads the injected clock', async () => {
    const r = await api.order(LIMIT);
    expect(r.headers.date).toBe(new Date(NOW).toUTCString());
  });
});

/** The same parameters split at a given index, re-signed (query part first). */
function splitAt(params: Params, cut: number): { query: string; body: string } {
  const s = signParams({ secret: TRADE.secret, params, placement: 'split', splitAt: cut });
  return { query: s.query, body: s.body };
}

describe('orderRequest builder (client) signs what the server verifies', () => {
  it('every placement of a v1.1 MARKET order with amount only', async () => {
    for (const placement of ['query', 'body', 'split'] as const) {
      const req = orderRequest(
        { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', amount: 25 },
        { version: 'v1.1', placement },
        { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW },
      );
      const r = await expectPlaced(api.raw(req.request));
      expect((r.json as { reqAmount?: unknown }).reqAmount).toBe('25');
    }
  });
});
