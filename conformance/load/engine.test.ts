import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/signing/hmac.js';
import { DEFAULT_ORDER, runPrefix } from './build.js';
import { runLoad, type EngineOptions } from './engine.js';
import { parseMix } from './mix.js';
import { REFERENCE_FINGERPRINTS, totalOf } from './verdict.js';

/**
 * A single-order endpoint as a stranger might write one, signature unchecked: it counts
 * what reached it and places every order, echoing its client id (or never answers).
 */
function counterServer(hang = false) {
  let received = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    received++;
    req.resume();
    if (hang) return;
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('newClientOrderId');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 0, order: { clientOrderId: id, status: 'NEW' } }));
  });
  return new Promise<{ url: string; received: () => number; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received: () => received,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

const options = (baseUrl: string, over: Partial<EngineOptions> = {}): EngineOptions => ({
  baseUrl,
  build: {
    hmac: sign,
    apiKey: 'k',
    secret: 's',
    order: DEFAULT_ORDER,
    batchSize: 20,
    recvWindow: 5000,
  },
  mix: parseMix('v1/query=1'),
  durationMs: 300,
  connections: 4,
  maxOrders: Number.POSITIVE_INFINITY,
  timeoutMs: 5000,
  fingerprints: REFERENCE_FINGERPRINTS,
  idPrefix: runPrefix(),
  ...over,
});

describe('runLoad', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('judges every request that reached the server, the ones answered last too (judging waits for the next write)', async () => {
    const s = await counterServer();
    servers.push(s);
    const r = await runLoad(options(s.url));
    const t = totalOf(r.tallies);
    expect(t.requests).toBeGreaterThan(0);
    expect(t.requests).toBe(s.received());
    expect(t.accepted).toBe(t.requests);
    expect(t.ordersPlaced).toBe(t.requests);
    expect(r.series.reduce((n, p) => n + p.requests, 0)).toBe(t.requests);
    expect(r.latencies['v1/query']).toHaveLength(t.requests);
  });

  it('stops before --max-orders with answers still waiting to be judged counted as in flight', async () => {
    const s = await counterServer();
    servers.push(s);
    const r = await runLoad(options(s.url, { maxOrders: 25, durationMs: 5000 }));
    expect(r.stopped).toBe('max-orders');
    expect(s.received()).toBeLessThanOrEqual(25);
    expect(totalOf(r.tallies).ordersPlaced).toBe(s.received());
  });

  it('reports a server that never answers as transport errors once the timeout passes', async () => {
    const s = await counterServer(true);
    servers.push(s);
    const started = performance.now();
    const r = await runLoad(options(s.url, { connections: 2, durationMs: 100, timeoutMs: 400 }));
    const t = totalOf(r.tallies);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(t.transportErrors).toBe(2);
    expect(t.accepted).toBe(0);
    expect(r.series.reduce((n, p) => n + p.errors, 0)).toBe(2);
  });
});
