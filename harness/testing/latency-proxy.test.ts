import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../../src/client/http.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { startLatencyProxy, type LatencyProxy } from './latency-proxy.js';

describe('latency proxy', () => {
  let server: RunningServer;
  let proxy: LatencyProxy;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
    proxy = await startLatencyProxy({ targetPort: server.port, minRttMs: 60, maxRttMs: 80 });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('forwards requests and answers unchanged, each exchange at least one added round trip late', async () => {
    const req = { method: 'POST', path: '/api/v1/spot/order', query: '', body: '', headers: {} };
    const direct = await sendRaw(server.url, req, { timeoutMs: 5000 });
    const t0 = performance.now();
    const viaProxy = await sendRaw(proxy.url, req, { timeoutMs: 5000 });
    const elapsed = performance.now() - t0;
    expect(viaProxy.status).toBe(direct.status);
    expect(viaProxy.text).toBe(direct.text);
    // a lower bound only (the proxy's own promise), never a speed figure
    expect(elapsed).toBeGreaterThanOrEqual(60);
    expect(proxy.connections()).toBeGreaterThan(0);
  });

  it('keeps a large body intact and in order', async () => {
    const body = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: String(i + 1), pad: 'x'.repeat(2000) })));
    const req = { method: 'POST', path: '/api/v1/spot/batchOrders', query: 'timestamp=1&signature=00', body, headers: { 'content-type': 'application/json' } };
    const direct = await sendRaw(server.url, req, { timeoutMs: 5000 });
    const viaProxy = await sendRaw(proxy.url, req, { timeoutMs: 5000 });
    expect(viaProxy.status).toBe(direct.status);
    expect(viaProxy.text).toBe(direct.text);
  });
});
