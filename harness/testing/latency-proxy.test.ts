import { connect, createServer, type AddressInfo } from 'node:net';
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
    const body = JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '1',
        price: String(i + 1),
        pad: 'x'.repeat(2000),
      })),
    );
    const req = {
      method: 'POST',
      path: '/api/v1/spot/batchOrders',
      query: 'timestamp=1&signature=00',
      body,
      headers: { 'content-type': 'application/json' },
    };
    const direct = await sendRaw(server.url, req, { timeoutMs: 5000 });
    const viaProxy = await sendRaw(proxy.url, req, { timeoutMs: 5000 });
    expect(viaProxy.status).toBe(direct.status);
    expect(viaProxy.text).toBe(direct.text);
  });

  it('never reorders a stream: many small writes with the loop busy arrive byte for byte in order', async () => {
    // One timer per chunk reordered the stream whenever the loop's cached time lagged the wall clock:
    // a chunked order body arrived scrambled and the reference server rightly answered 400.
    let got = Buffer.alloc(0);
    let ended!: () => void;
    const done = new Promise<void>((r) => (ended = r));
    const sink = createServer((s) => {
      s.on('data', (c: Buffer) => (got = Buffer.concat([got, c])));
      s.on('end', () => {
        s.end();
        ended();
      });
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
    const p = await startLatencyProxy({
      targetPort: (sink.address() as AddressInfo).port,
      minRttMs: 50,
      maxRttMs: 150,
    });
    const c = connect(p.port, '127.0.0.1');
    c.setNoDelay(true);
    await new Promise((r) => c.once('connect', r));
    const sent: string[] = [];
    for (let i = 0; i < 300; i++) {
      sent.push(`<${i}>`);
      c.write(`<${i}>`);
      if (i % 3 === 0) await new Promise((r) => setImmediate(r));
      const t = Date.now();
      while (Date.now() - t < 1); // a busy loop: Date.now() runs ahead of the loop's cached time
    }
    c.end();
    await done;
    await p.close();
    sink.close();
    expect(got.toString()).toBe(sent.join(''));
  });
});
