import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RawRequest } from '../src/client/http.js';
import { createTransport, REFRESH_AFTER_MS } from './transport.js';

let server: Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
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
