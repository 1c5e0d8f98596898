import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, isSpotcheckError, SpotcheckError } from '../core/errors.js';
import { DEMO_CREDENTIALS } from '../server/credentials.js';
import { startServer, type RunningServer } from '../server/server.js';
import { settableClock } from '../../harness/testing/server.js';
import { expectObject, SpotClient } from './spot-client.js';

const NOW = 1_750_000_000_000;
const [TRADE, READONLY] = DEMO_CREDENTIALS as [(typeof DEMO_CREDENTIALS)[0], (typeof DEMO_CREDENTIALS)[0]];
const serverClock = settableClock(NOW);
let server: RunningServer;
let client: SpotClient;

beforeAll(async () => {
  server = await startServer({ clock: serverClock.clock });
  client = new SpotClient({
    baseUrl: server.url,
    apiKey: TRADE.apiKey,
    secret: TRADE.secret,
    clock: serverClock.clock,
  });
});
afterAll(() => server.close());

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('SpotClient against the reference server', () => {
  it('batchOrders: typed response, one entry per order, a failed entry is data', async () => {
    const res = await client.batchOrders([
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: 1, price: '100', newClientOrderId: 'c-1' },
      { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '1' },
    ]);
    expect(res.code).toBe(0);
    expect(res.result?.map((e) => [e.code, e.order?.clientOrderId])).toEqual([
      [0, 'c-1'],
      [-1102, undefined],
    ]);
  });

  it('order: every version and placement (§5.3) is accepted', async () => {
    const before = server.orders.count();
    for (const placement of ['query', 'body', 'split'] as const) {
      const v1 = await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }, { placement });
      expect([v1.code, v1.status, v1.origQty]).toEqual([0, 'FILLED', '0.1']);
      const v11 = await client.order(
        { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: 12.5 },
        { version: 'v1.1', placement },
      );
      expect([v11.code, v11.reqAmount]).toEqual([0, '12.5']);
    }
    expect(server.orders.count()).toBe(before + 6);
  });

  it('a refusal throws ApiError with the HTTP status and the server code and msg', async () => {
    const err = await thrown(client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'ERR_API', status: 400, apiCode: -1102 });
    expect((err as ApiError).apiMsg).toMatch(/price/);

    const ro = new SpotClient({
      baseUrl: server.url,
      apiKey: READONLY.apiKey,
      secret: READONLY.secret,
      clock: serverClock.clock,
    });
    expect(
      await thrown(ro.batchOrders([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }])),
    ).toMatchObject({ status: 403, apiCode: -2015 });

    const wrong = new SpotClient({
      baseUrl: server.url,
      apiKey: TRADE.apiKey,
      secret: 'not-the-secret',
      clock: serverClock.clock,
    });
    const e = await thrown(wrong.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }));
    expect(e).toMatchObject({ status: 401, apiCode: -1022 });
    expect(`${String(e)} ${JSON.stringify((e as SpotcheckError).details)}`).not.toContain('not-the-secret');
  });

  it('recvWindow and the clock are used: a client 200 ms behind fails with recvWindow 100 and passes without', async () => {
    const behind = (): number => serverClock.clock() - 200;
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' } as const;
    const tight = new SpotClient({
      baseUrl: server.url,
      apiKey: TRADE.apiKey,
      secret: TRADE.secret,
      clock: behind,
      recvWindow: 100,
    });
    expect(await thrown(tight.order(order))).toMatchObject({ status: 400, apiCode: -1021 });
    const loose = new SpotClient({ baseUrl: server.url, apiKey: TRADE.apiKey, secret: TRADE.secret, clock: behind });
    expect((await loose.order(order)).code).toBe(0);
  });

  it('the HTTP-200 error style is a refusal too', async () => {
    const s = await startServer({ errorStyle: 'code-only' });
    try {
      const c = new SpotClient({ baseUrl: s.url, apiKey: TRADE.apiKey, secret: TRADE.secret });
      const err = await thrown(c.batchOrders([]));
      expect(err).toMatchObject({ status: 200, apiCode: -1130 });
    } finally {
      await s.close();
    }
  });

  it('rejects an empty key or secret', () => {
    expect(() => new SpotClient({ baseUrl: server.url, apiKey: '', secret: 's' })).toThrow(SpotcheckError);
    expect(() => new SpotClient({ baseUrl: server.url, apiKey: 'k', secret: '' })).toThrow(SpotcheckError);
  });
});

describe('SpotClient against misbehaving servers', () => {
  let hits = 0;
  let mode: 'hang' | 'reset' | 'text' = 'hang';
  let bad: Server;
  let url: string;

  beforeAll(async () => {
    bad = createServer((req, res) => {
      hits++;
      req.resume();
      if (mode === 'reset') req.socket.destroy();
      else if (mode === 'text') res.end('<html>oops</html>');
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    bad.closeAllConnections();
    await new Promise((r) => bad.close(r));
  });

  const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' } as const;

  it('a server that never answers gives ERR_TIMEOUT after one attempt (no retry)', async () => {
    mode = 'hang';
    hits = 0;
    const c = new SpotClient({ baseUrl: url, apiKey: 'k', secret: 's', timeoutMs: 200 });
    const err = await thrown(c.order(order));
    expect(isSpotcheckError(err, 'ERR_TIMEOUT')).toBe(true);
    expect(hits).toBe(1);
  });

  it('a dropped connection gives ERR_NETWORK after one attempt (no retry)', async () => {
    mode = 'reset';
    hits = 0;
    const c = new SpotClient({ baseUrl: url, apiKey: 'k', secret: 's' });
    expect(isSpotcheckError(await thrown(c.batchOrders([order])), 'ERR_NETWORK')).toBe(true);
    expect(hits).toBe(1);
  });

  it('a 200 that is not JSON gives ERR_BAD_RESPONSE', async () => {
    mode = 'text';
    const c = new SpotClient({ baseUrl: url, apiKey: 'k', secret: 's' });
    expect(isSpotcheckError(await thrown(c.order(order)), 'ERR_BAD_RESPONSE')).toBe(true);
  });
});

describe('expectObject reads answers with the core classifier (D-CODE-READING)', () => {
  const res = (status: number, json: unknown) => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    elapsedMs: 1,
    sentAt: 0,
    receivedAt: 1,
  });
  const caught = (f: () => unknown): unknown => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('code 0, "0" and "0.0" are accepted; no code too', () => {
    for (const code of [0, '0', '0.0'])
      expect(expectObject(res(200, { code, orderId: '1' }))).toEqual({ code, orderId: '1' });
    expect(expectObject(res(200, { orderId: '1' }))).toEqual({ orderId: '1' });
  });

  it('a non-zero code in a 200 is an ApiError carrying it', () => {
    const e = caught(() => expectObject(res(200, { code: '-1022', msg: 'sig' })));
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).apiCode).toBe('-1022');
  });

  it('a code that is no number ("" or null) is ERR_BAD_RESPONSE, not a success', () => {
    for (const code of ['', null])
      expect(
        isSpotcheckError(
          caught(() => expectObject(res(200, { code }))),
          'ERR_BAD_RESPONSE',
        ),
      ).toBe(true);
  });

  it('a 5xx is an ApiError with its status', () => {
    expect((caught(() => expectObject(res(502, { code: -1, msg: 'x' }))) as ApiError).status).toBe(502);
  });
});
