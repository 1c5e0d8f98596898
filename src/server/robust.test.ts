import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { assertSeeded } from '../../harness/testing/seeds.js';
import fc from 'fast-check';
import { Pool, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '../core/wire.js';
import { ORDER_FIELDS } from '../core/validation/fields.js';
import { sendRaw, type RawRequest, type RawResponse } from '../client/http.js';
import { batchOrdersRequest } from '../client/requests.js';
import { sign } from '../signing/hmac.js';
import { encodeComponent } from '../core/signing/query.js';
import { signingSteps } from '../core/signing/total-params.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';
import { caller, settableClock } from '../../harness/testing/server.js';

const NOW = 1_750_000_000_000;
const [TRADE, READONLY] = DEMO_CREDENTIALS as [(typeof DEMO_CREDENTIALS)[0], (typeof DEMO_CREDENTIALS)[0]];
const clock = settableClock(NOW);
const PATHS = ['/api/v1/spot/batchOrders', '/api/v1/spot/order', '/api/v1.1/spot/order'] as const;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ clock: clock.clock, requestTimeoutMs: 2000 });
});
afterAll(() => server.close());

/** Every final response of a raw exchange: status, and the parsed JSON body. Interim 1xx answers (`100 Continue`) are not answers and are skipped. */
function parseResponses(raw: Buffer): Array<{ status: number; body: unknown }> {
  const out: Array<{ status: number; body: unknown }> = [];
  let rest = raw;
  while (rest.length > 0) {
    const head = rest.indexOf('\r\n\r\n');
    if (head === -1) throw new Error(`truncated response: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    const lines = rest.subarray(0, head).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0] ?? '');
    if (m === null) throw new Error(`not a status line: ${JSON.stringify(lines[0])}`);
    const len = Number(lines.find((l) => /^content-length:/i.test(l))?.split(':')[1] ?? '0');
    const text = rest.subarray(head + 4, head + 4 + len).toString('utf8');
    const status = Number(m[1]);
    if (status >= 200) out.push({ status, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
    rest = rest.subarray(head + 4 + len);
  }
  return out;
}

/** Write raw bytes on a fresh connection, optionally half-close, and collect everything until the server closes. */
function rawExchange(bytes: Uint8Array | string, opts: { end?: boolean; port?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: opts.port ?? server.port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no close from the server within 10 s'));
    }, 10_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.write(bytes, () => {
      if (opts.end !== false) socket.end();
    });
  });
}

function expectRejection(r: RawResponse, status: number, code: number): void {
  expect([r.status, (r.json as { code?: unknown } | undefined)?.code]).toEqual([status, code]);
  expect(typeof (r.json as { msg?: unknown }).msg).toBe('string');
}

describe('routing (§4, D-PREFIX)', () => {
  const send = (method: string, path: string): Promise<RawResponse> =>
    sendRaw(server.url, { method, path, query: '', body: '', headers: {} });

  it('an unknown path is 404 -1000, whatever the method', async () => {
    for (const path of [
      '/',
      '/api/v1/spot/batchOrders/',
      '/openapi/v1/order',
      '/API/V1/SPOT/ORDER',
      '/api/v1/spot/%6Frder',
    ]) {
      expectRejection(await send('POST', path), 404, -1000);
    }
    expectRejection(await send('GET', '/nothing'), 404, -1000);
  });

  it('a served path with another method is 405 -1000 with Allow: POST', async () => {
    for (const path of PATHS) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const r = await send(method, path);
        expectRejection(r, 405, -1000);
        expect(r.headers.allow).toBe('POST');
      }
      const head = await send('HEAD', path);
      expect([head.status, head.headers.allow]).toEqual([405, 'POST']);
    }
  });

  it("errorStyle 'code-only' answers the same rejections with HTTP 200", async () => {
    const s = await startServer({ errorStyle: 'code-only' });
    try {
      const r = await sendRaw(s.url, { method: 'GET', path: '/nothing', query: '', body: '', headers: {} });
      expectRejection(r, 200, -1000);
    } finally {
      await s.close();
    }
  });
});

describe('oversized and malformed requests', () => {
  it('D-BODY-LIMIT: a body over 64 KiB is 413 -1000, places nothing, and the next request through the pool works', async () => {
    const pool = new Pool(server.url, { connections: 1 });
    try {
      const before = server.orders.count();
      const order = {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '1',
        newClientOrderId: 'x'.repeat(255),
      };
      const big = batchOrdersRequest(
        Array.from({ length: 300 }, () => order),
        { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW },
      ).request;
      expect(big.body.length).toBeGreaterThan(64 * 1024);
      expectRejection(await sendRaw(server.url, big, { dispatcher: pool }), 413, -1000);
      const ok = batchOrdersRequest([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }], {
        apiKey: TRADE.apiKey,
        secret: TRADE.secret,
        timestamp: NOW,
      }).request;
      expect((await sendRaw(server.url, ok, { dispatcher: pool })).status).toBe(200);
      expect(server.orders.count()).toBe(before + 1);
    } finally {
      await pool.close();
    }
  });

  it('D-BODY-LIMIT: a chunked body without Content-Length is cut at the limit too', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const res = await request(`${server.url}/api/v1/spot/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', [API_KEY_HEADER]: TRADE.apiKey },
      body: Readable.from(Array.from({ length: 6 }, () => Buffer.from(chunk))),
    });
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toMatchObject({ code: -1000 });
  });

  it('headers over 16 KiB are 431 with {code, msg}', async () => {
    const res = await request(`${server.url}/api/v1/spot/order`, {
      method: 'POST',
      headers: { [API_KEY_HEADER]: 'k'.repeat(20_000) },
    });
    expect(res.statusCode).toBe(431);
    expect(await res.body.json()).toMatchObject({ code: -1000, msg: expect.any(String) as unknown });
  });

  it('a long API key under the header limit is just unknown (401 -2015)', async () => {
    const r = await caller(server, { ...TRADE, apiKey: 'k'.repeat(12_000) }, clock.clock).order({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
    });
    expectRejection(r, 401, -2015);
  });

  it('bytes that are not HTTP get a 400 with {code, msg}', async () => {
    for (const bytes of [
      'GARBAGE\r\n\r\n',
      'POST /api/v1/spot/order HTTP/1.1\r\nExpect: tea\r\n\r\n',
      'CONNECT example.com:443 HTTP/1.1\r\n\r\n',
      'POST /api/v1/spot/order HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
      '\u0000\u0001\u0002',
    ]) {
      const [first] = parseResponses(await rawExchange(bytes));
      expect([400, 405, 417]).toContain(first?.status);
      expect(first?.body).toMatchObject({ code: -1000, msg: expect.any(String) as unknown });
    }
  });

  it('a slow client is cut off: a request not complete within requestTimeoutMs gets 408', async () => {
    const s = await startServer({ requestTimeoutMs: 300 });
    try {
      const partialBody =
        'POST /api/v1/spot/order HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nsymbol=';
      const partialHead = 'POST /api/v1/spot/order HTTP/1.1\r\nHost: x\r\n';
      for (const bytes of [partialBody, partialHead]) {
        const responses = parseResponses(await rawExchange(bytes, { end: false, port: s.port }));
        expect(responses.map((r) => r.status)).toEqual([408]);
        expect(responses[0]?.body).toMatchObject({ code: -1000 });
      }
      expect(s.orders.count()).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a policy that throws costs that request a 500 {code, msg}, not the server', async () => {
    const s = await startServer({
      policy: {
        validateOrder: () => {
          throw new Error('broken');
        },
      },
    });
    try {
      const c = caller(s, TRADE, Date.now);
      const r = await c.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
      expect([r.status, (r.json as { code?: unknown }).code]).toEqual([500, -1000]);
      expect((await c.batch([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }])).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

// ---------------------------------------------------------------------------------
// ROBUST-NO-5XX, ROBUST-REJECT-PLACES-NOTHING (§7, §4.1): random garbage requests.

const PARAM_NAMES = [...ORDER_FIELDS, 'timestamp', 'recvWindow', 'signature', 'x', ''];
/** Mostly the valid value, sometimes anything. */
const mostly = <T>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 1, arbitrary: other },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
const paramValue = fc.oneof(
  fc.constantFrom(
    'BTCUSDT',
    'ETHUSDT',
    'BUY',
    'SELL',
    'LIMIT',
    'MARKET',
    'LIMIT_MAKER',
    '1',
    '0.5',
    '-1',
    '1e3',
    'GTC',
    'IOC',
    'EXPIRE_MAKER',
    String(NOW),
    '5000',
    '60001',
  ),
  fc.string({ maxLength: 20 }),
  fc.stringMatching(/^[0-9a-fA-F]{0,70}$/),
  fc.integer().map(String),
);
/** An order's fields, each mostly valid. */
const orderish = fc.record({
  symbol: mostly(fc.constant('BTCUSDT'), fc.oneof(fc.string({ maxLength: 6 }), fc.integer())),
  side: mostly(fc.constantFrom('BUY', 'SELL'), fc.string({ maxLength: 5 })),
  type: mostly(fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER'), fc.string({ maxLength: 5 })),
  quantity: mostly(
    fc.constantFrom('1', 0.25, '3.5'),
    fc.oneof(fc.constantFrom(-1, '0', 'x', '1e3', null), fc.double()),
  ),
  amount: fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('10', 'x') },
  ),
  price: mostly(fc.constantFrom('100', 99.5), fc.oneof(fc.constantFrom('', null, '-3'), fc.double())),
  newClientOrderId: fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 12 }),
    fc.constantFrom('fixed-id', 'x'.repeat(256)),
  ),
  timeInForce: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('GTC', 'IOC', 'FOK', 'NEVER') },
  ),
  stpMode: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('EXPIRE_TAKER', 'EXPIRE_MAKER', 'NONE') },
  ),
});
const definedPairs = (o: Record<string, unknown>): Array<[string, string]> =>
  Object.entries(o).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]]));
/** Query or form text: a mostly valid order plus random pairs, random pairs, or raw printable bytes (no space, `#`). */
const paramText = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(orderish, fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), paramValue), { maxLength: 2 }))
        .map(([o, extra]) => [...definedPairs(o), ...extra]),
    },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 8 })), paramValue),
        { maxLength: 12 },
      ),
    },
  )
  .map((ps) => ps.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&'));
const rawText = fc.oneof(
  fc.stringMatching(/^[!-~]{0,120}$/).map((s) => s.replace(/#/g, '')),
  fc.constant(''),
);
const body = fc.oneof(
  { weight: 6, arbitrary: fc.array(orderish, { maxLength: 22 }).map((a) => JSON.stringify(a)) },
  { weight: 6, arbitrary: paramText },
  { weight: 1, arbitrary: rawText },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.nat({ max: 70_000 }).map((n) => 'a'.repeat(n)) },
);
const headerValue = fc.stringMatching(/^[ -~]{0,60}$/).map((s) => s.trim());
const requestArb = fc.record({
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant('POST') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  ),
  path: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...PATHS) },
    { weight: 1, arbitrary: fc.stringMatching(/^\/[!-~]{0,40}$/).map((p) => p.replace(/[?#]/g, '')) },
  ),
  query: fc.oneof(paramText, rawText),
  body,
  apiKey: fc.oneof(
    { weight: 8, arbitrary: fc.constant(TRADE.apiKey) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, READONLY.apiKey) },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => 'k'.repeat(n)) },
  ),
  /** auto: the right type for the endpoint. */
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('auto') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/json; charset=utf-8',
      ),
    },
    { weight: 1, arbitrary: headerValue },
  ),
  extraHeaders: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), headerValue, { maxKeys: 3 }),
  /** none: as generated; valid: timestamp added and a correct signature; other: signed with another key's secret. */
  signing: fc.constantFrom('none', 'valid', 'valid', 'valid', 'other'),
  /** Where the timestamp sits relative to the server clock, ms. */
  skew: fc.oneof(
    { weight: 6, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: -70_000, max: 70_000 }) },
  ),
});

type Garbage = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** Turn a generated case into bytes to send, signing it when the case says so. */
function build(g: Garbage): RawRequest {
  let query = g.query;
  if (g.signing !== 'none') {
    query = query === '' ? `timestamp=${NOW + g.skew}` : `${query}&timestamp=${NOW + g.skew}`;
    const kind = g.path === PATHS[0] ? 'json' : g.body === '' ? 'none' : 'form';
    const secret = g.signing === 'valid' ? TRADE.secret : READONLY.secret;
    query = `${query}&signature=${sign(secret, signingSteps(query, g.body, kind).totalParams)}`;
  }
  const headers: Record<string, string> = { ...g.extraHeaders };
  if (g.apiKey !== undefined) headers[API_KEY_HEADER] = g.apiKey;
  const contentType =
    g.contentType === 'auto'
      ? g.path === PATHS[0]
        ? 'application/json'
        : 'application/x-www-form-urlencoded'
      : g.contentType;
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { method: g.method, path: g.path, query, body: g.method === 'GET' ? '' : g.body, headers };
}

/** Orders a response says it placed: all entries with code 0 of an accepted batch, 1 for an accepted single order, else 0. */
function claimedPlaced(r: RawResponse, path: string): number {
  const json = r.json as { code?: unknown; result?: Array<{ code?: unknown }> } | undefined;
  if (r.status !== 200 || json?.code !== 0) return 0;
  return path === PATHS[0] ? (json.result ?? []).filter((e) => e.code === 0).length : 1;
}

describe('garbage never gets a 5xx and a rejection never places an order', () => {
  it('random requests over HTTP (1000 runs)', async () => {
    const pool = new Pool(server.url, { connections: 4 });
    try {
      await assertSeeded(
        fc.asyncProperty(requestArb, async (g) => {
          const req = build(g);
          const before = server.orders.count();
          const r = await sendRaw(server.url, req, { dispatcher: pool });
          expect(r.status).toBeGreaterThanOrEqual(200);
          expect(r.status).toBeLessThan(500);
          const json = r.json as { code?: unknown; msg?: unknown };
          expect(Number.isInteger(json.code)).toBe(true);
          if (json.code !== 0) expect(typeof json.msg).toBe('string');
          expect(server.orders.count() - before).toBe(claimedPlaced(r, req.path));
        }),
        { numRuns: 1000 },
      );
    } finally {
      await pool.close();
    }
  });

  const rawBytes = fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    fc
      .tuple(
        fc.constantFrom('POST', 'GET', 'P0ST', 'CONNECT', ''),
        fc.oneof(fc.constantFrom(...PATHS), fc.string({ maxLength: 30 })),
        fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2', 'HTTP/1.1 x', ''),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'Host',
                'Expect',
                'Content-Length',
                'Transfer-Encoding',
                'Content-Type',
                'Connection',
                'Upgrade',
              ),
              fc.string({ maxLength: 20 }),
            ),
            fc.oneof(
              fc.constantFrom('100-continue', 'chunked', '5', '-1', 'close', 'websocket', 'application/json'),
              fc.string({ maxLength: 40 }),
            ),
          ),
          { maxLength: 6 },
        ),
        fc.string({ maxLength: 200 }),
        fc.constantFrom('\r\n', '\n', '\r'),
      )
      .map(
        ([m, p, v, hs, b, nl]) => `${m} ${p} ${v}${nl}${hs.map(([k, val]) => `${k}: ${val}`).join(nl)}${nl}${nl}${b}`,
      ),
  );

  it("an 'Expect: 100-continue' request gets the interim 100 and then one final answer, which is what counts", async () => {
    const raw = await rawExchange(
      'POST /api/v1/spot/order HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n',
    );
    expect(raw.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    const responses = parseResponses(raw);
    expect(responses).toHaveLength(1);
    expect(responses[0]?.status).toBeGreaterThanOrEqual(400);
    expect(Number.isInteger((responses[0]?.body as { code?: unknown } | undefined)?.code)).toBe(true);
  });

  it('random bytes on a raw socket (300 runs): every answer is a 4xx or 2xx with {code, msg}, nothing placed', async () => {
    const before = server.orders.count();
    await assertSeeded(
      fc.asyncProperty(rawBytes, async (bytes) => {
        const responses = parseResponses(
          await rawExchange(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes),
        );
        for (const r of responses) {
          expect(r.status).toBeGreaterThanOrEqual(200);
          expect(r.status).toBeLessThan(500);
          expect(Number.isInteger((r.body as { code?: unknown }).code)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    expect(server.orders.count()).toBe(before);
    const after = await caller(server, TRADE, clock.clock).order({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
    });
    expect(after.status).toBe(200);
  });
});
