/**
 * The interop wrapper (proxy.ts) and the outcome reading (main.ts helpers), over real
 * loopback HTTP: the header renamed, the path mapped, query and body byte for byte, the
 * library's first calls answered, and the doctor's code read from a refusal (§5.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../../src/client/http.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { sign } from '../../src/signing/hmac.js';
import { startProxy, type Proxy } from './proxy.js';
import { outcomeOf, placementOf } from './outcome.js';

const KEY = 'interop-test-key';
const SECRET = 'interop-test-secret';
let server: RunningServer;
let proxy: Proxy;

beforeAll(async () => {
  server = await startServer({
    explain: true,
    credentials: [{ apiKey: KEY, secret: SECRET, permissions: ['TRADE', 'USER_DATA'] }],
  });
  proxy = await startProxy(server.url, {
    apiKeyHeader: 'X-MBX-APIKEY',
    paths: { '/api/v3/order': '/api/v1/spot/order' },
  });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

const order = (id: string): string =>
  `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=30000&newClientOrderId=${id}&timestamp=${Date.now()}`;

describe('interop wrapper', () => {
  it('forwards a request under the client header and path byte for byte: accepted', async () => {
    const q = order('w-1-a%20b');
    const res = await sendRaw(proxy.url, {
      method: 'POST',
      path: '/api/v3/order',
      query: `${q}&signature=${sign(SECRET, q)}`,
      body: '',
      headers: { 'X-MBX-APIKEY': KEY },
    });
    expect(res.status).toBe(200);
    const ex = proxy.exchanges.at(-1);
    expect(ex).toMatchObject({ clientPath: '/api/v3/order', path: '/api/v1/spot/order', body: '' });
    expect(ex?.query.startsWith(q)).toBe(true);
    expect(outcomeOf(ex === undefined ? [] : [ex])).toBe('accepted');
    if (ex !== undefined) expect(placementOf(ex)).toBe('query');
  });

  it("reads the doctor's code from a signature refusal (a ' signed as is, sent %27)", async () => {
    const sent = order('w-2-it%27s');
    const signed = sent.replace('%27', "'");
    const res = await sendRaw(proxy.url, {
      method: 'POST',
      path: '/api/v3/order',
      query: `${sent}&signature=${sign(SECRET, signed)}`,
      body: '',
      headers: { 'X-MBX-APIKEY': KEY },
    });
    expect(res.status).toBe(401);
    expect(outcomeOf(proxy.exchanges.slice(-1))).toBe('ENCODING_MISMATCH');
  });

  it('answers time and exchange information itself, and records any other unknown call without forwarding it', async () => {
    const before = proxy.exchanges.length;
    const time = await sendRaw(proxy.url, { method: 'GET', path: '/api/v3/time', query: '', body: '', headers: {} });
    expect((time.json as { serverTime: number }).serverTime).toBeGreaterThan(0);
    const other = await sendRaw(proxy.url, {
      method: 'GET',
      path: '/api/v3/account',
      query: '',
      body: '',
      headers: {},
    });
    expect(other.status).toBe(404);
    expect(proxy.unknown).toContain('GET /api/v3/account');
    expect(proxy.exchanges.length).toBe(before);
    expect(outcomeOf([])).toBe('not sent');
  });

  it('refuses a target that is not on loopback', async () => {
    await expect(startProxy('http://192.0.2.1:80', { apiKeyHeader: 'X', paths: {} })).rejects.toThrow(/loopback/);
  });
});
