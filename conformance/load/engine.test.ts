import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/signing/hmac.js';
import { startAcceptAll } from '../../harness/accept-all.js';
import { createOrderBudget } from '../engine/budget.js';
import { DEFAULT_ORDER, runPrefix } from './build.js';
import { budgetObservation, runLoad, type EngineOptions } from './engine.js';
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

/**
 * The order cap as a reservation under load: each request reserves its orders before it goes
 * on a connection, so with every connection busy a server accepting everything still places
 * at most the cap (the run lasts until the cap stops it; the duration is only a backstop).
 */
describe.each([
  { connections: 1, rate: undefined },
  { connections: 16, rate: undefined },
  { connections: 64, rate: undefined },
  { connections: 64, rate: 5000 },
])('runLoad against an accept-all server, $connections connections, rate $rate', ({ connections, rate }) => {
  it('places at most the cap, for caps 1, 7, 50 and 500', { timeout: 120_000 }, async () => {
    for (const cap of [1, 7, 50, 500]) {
      const server = await startAcceptAll();
      try {
        const budget = createOrderBudget(cap);
        const r = await runLoad(
          options(server.url, {
            mix: parseMix('batch=1,v1/query=2'),
            build: { hmac: sign, apiKey: 'k', secret: 's', order: DEFAULT_ORDER, batchSize: 3, recvWindow: 5000 },
            connections,
            ...(rate === undefined ? {} : { rate }),
            durationMs: 60_000,
            maxOrders: cap,
            budget,
          }),
        );
        const row = JSON.stringify({ cap, placed: server.placed(), counted: budget.placed() });
        expect(r.stopped, row).toBe('max-orders');
        expect(server.placed(), row).toBeLessThanOrEqual(cap);
        expect(budget.placed(), row).toBeGreaterThanOrEqual(server.placed());
        if (cap >= 7) expect(server.placed(), row).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    }
  });
});

describe('runLoad against a server that places every order and answers 500', () => {
  it('counts each unclear answer as placed: at most the cap, then it stops (one connection: each request follows an answer)', {
    timeout: 60_000,
  }, async () => {
    const server = await startAcceptAll({ status: 500 });
    try {
      const r = await runLoad(
        options(server.url, { connections: 1, durationMs: 5000, maxOrders: 7, mix: parseMix('v1/query=1') }),
      );
      expect(r.stopped).toBe('max-orders');
      expect(server.placed()).toBeLessThanOrEqual(7);
      expect(totalOf(r.tallies).http5xx).toBe(server.placed());
    } finally {
      await server.close();
    }
  });
});

describe('budgetObservation', () => {
  it('an unclear answer may have placed everything; a refusal placed nothing', () => {
    expect(budgetObservation({ status: undefined, error: 'timeout' }, undefined).verdict).toBe('no-answer');
    expect(budgetObservation({ status: 503, error: undefined }, undefined).verdict).toBe('server-error');
    expect(budgetObservation({ status: 200, error: undefined }, undefined).verdict).toBe('bad-response');
    expect(budgetObservation({ status: 200, error: undefined }, { code: 'x' }).verdict).toBe('bad-response');
    expect(budgetObservation({ status: 200, error: undefined }, { code: '0' }).verdict).toBe('accepted');
    expect(budgetObservation({ status: 200, error: undefined }, { code: 7 }).verdict).toBe('rejected');
    expect(budgetObservation({ status: 400, error: undefined }, undefined).verdict).toBe('rejected');
    expect(budgetObservation({ status: 429, error: undefined }, undefined).verdict).toBe('rate-limited');
  });
});
