import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RawRequest } from '../../src/client/http.js';
import { createTransport, REFRESH_AFTER_MS, TARGET_DOWN_REASON } from './transport.js';

let server: Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
  s?.closeAllConnections();
  if (s) await new Promise<void>((r) => s.close(() => r()));
});

/** A server answering `/slow` after `slowMs` and anything else at once; it records the query strings in arrival order. */
async function recording(slowMs: number): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '').split('?');
    seen.push(query);
    setTimeout(() => res.end('{}'), path === '/slow' ? slowMs : 0);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const get = (path: string, query: string): RawRequest => ({ method: 'GET', path, query, body: '', headers: {} });

describe('the transport queue', () => {
  it('sends a request that queued past REFRESH_AFTER_MS as built afresh; one that did not wait, as it was built', async () => {
    const { url, seen } = await recording(REFRESH_AFTER_MS + 150);
    const t = createTransport({ baseUrl: url, rate: 0, timeoutMs: 5000, concurrency: 1 });
    const fresh = () => ({ request: get('/x', 'built=again'), facts: {} });
    const slow = t.send(get('/slow', 'first'), {}, fresh);
    const queued = t.send(get('/x', 'built=first'), {}, fresh);
    // no rebuild given (a timestamp fixed on purpose): sent as built, however long it queued
    const fixed = t.send(get('/x', 'fixed'));
    const [a, b, c] = await Promise.all([slow, queued, fixed]);
    expect(a.exchange.request.query).toBe('first');
    expect(b.exchange.request.query).toBe('built=again');
    expect(c.exchange.request.query).toBe('fixed');
    expect(seen).toEqual(['first', 'built=again', 'fixed']);
  });

  it('lets a request of a better place through first, whatever the order it was sent in', async () => {
    const { url, seen } = await recording(200);
    const t = createTransport({ baseUrl: url, rate: 0, timeoutMs: 5000, concurrency: 1 });
    const busy = t.send(get('/slow', 'busy'), {}, undefined, { priority: 0 });
    const bulk = [
      t.send(get('/x', 'bulk1'), {}, undefined, { priority: 2 }),
      t.send(get('/x', 'bulk2'), {}, undefined, { priority: 2 }),
    ];
    // no place: priority 0 (the clock and discovery send so)
    const probe = t.send(get('/x', 'probe'));
    await Promise.all([busy, ...bulk, probe]);
    expect(seen).toEqual(['busy', 'probe', 'bulk1', 'bulk2']);
  });
});

describe('liveness: a target that stopped answering is judged down once, a slow or recovering one never', () => {
  /** A server that answers the first `n` requests, then reads every request and never answers (a deadlocked worker). */
  async function answersFirst(n: number, delayMs = 0): Promise<string> {
    let seen = 0;
    server = createServer((_req, res) => {
      if (++seen <= n) setTimeout(() => res.end('{}'), delayMs);
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('after three requests in a row with no answer and a probe on a fresh connection with none either: down, nothing more sent, the silence listed', async () => {
    const url = await answersFirst(2);
    const t = createTransport({ baseUrl: url, rate: 0, timeoutMs: 300, minShortenedWaitMs: 300, concurrency: 4 });
    const post = (q: string): RawRequest => ({
      method: 'POST',
      path: '/o',
      query: `${q}&signature=ab`,
      body: '',
      headers: {},
    });
    await t.send(post('a=1'));
    await t.send(post('a=2'));
    const silent = await Promise.all(
      [1, 2, 3].map((i) => t.send(post(`b=${i}`), {}, undefined, { priority: 1, check: `C${i}` })),
    );
    expect(silent.every((r) => r.observation.verdict === 'no-answer')).toBe(true);
    const s = t.silence();
    expect(s).toBeDefined();
    expect(s?.requests.map((r) => r.check)).toEqual(['C1', 'C2', 'C3']);
    expect(s?.requests[0]?.exchange.request.query).toBe('b=1&signature=ab');
    const sentBefore = t.count();
    const after = await t.send(post('c=1'));
    expect(after.observation).toMatchObject({ verdict: 'not-sent', error: TARGET_DOWN_REASON });
    expect(t.count()).toBe(sentBefore);
  });

  it('a slow target answering within the wait is never down, however long its answers take', async () => {
    const url = await answersFirst(Number.POSITIVE_INFINITY, 150);
    const t = createTransport({ baseUrl: url, rate: 0, timeoutMs: 1000, concurrency: 4 });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => t.send(get('/x', `q=${i}`))));
    expect(answers.every((r) => r.observation.verdict === 'accepted')).toBe(true);
    expect(t.silence()).toBeUndefined();
  });

  it('a target that drops three requests but answers the probe on a fresh connection is not down', async () => {
    let seen = 0;
    server = createServer((req, res) => {
      // requests 3 to 5 are reset; every other one answered
      if (++seen >= 3 && seen <= 5) req.socket.destroy();
      else res.end('{}');
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = createTransport({ baseUrl: url, rate: 0, timeoutMs: 1000, concurrency: 1 });
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await t.send(get('/x', `q=${i}`)));
    expect(results.filter((r) => r.observation.verdict === 'no-answer')).toHaveLength(3);
    expect(t.silence()).toBeUndefined();
    expect(results.at(-1)?.observation.verdict).toBe('accepted');
  });
});
