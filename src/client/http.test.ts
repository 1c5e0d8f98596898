/**
 * sendRaw against servers that never finish (issue 11): the deadline covers the whole
 * body, and a body past the cap is cut with the connection dropped.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../core/errors.js';
import { sendRaw, type RawRequest } from './http.js';

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const REQ: RawRequest = { method: 'POST', path: '/x', query: '', body: '{}', headers: { 'content-type': 'application/json' } };

describe('sendRaw deadlines and caps', () => {
  it('ends a body trickled one byte every 50 ms at the total deadline, though no gap exceeds the timeout', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
    const t0 = Date.now();
    const err = await sendRaw(url, REQ, { timeoutMs: 400 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSpotcheckError(err, 'ERR_TIMEOUT'), String(err)).toBe(true);
    expect((err as Error).message).toContain('within 400 ms');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('stops reading an endless body announced as 4 GB at the byte cap, reports the cut and drops the connection', async () => {
    let sent = 0;
    let closed = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * 1024 ** 3) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', () => {
        closed = true;
      });
      pump();
    });
    const r = await sendRaw(url, REQ, { timeoutMs: 5000, maxBodyBytes: 100_000 });
    expect(r.status).toBe(200);
    expect(r.text.length).toBe(100_000);
    expect(r.json).toBeUndefined();
    expect(r.truncated).toMatchObject({ keptBytes: 100_000, declaredBytes: 4 * 1024 ** 3 });
    expect(r.truncated?.receivedBytes).toBeGreaterThan(100_000);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((res) => setTimeout(res, 20));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 ** 2);
  });

  it('keeps a body of exactly the cap whole, parsed, not marked cut', async () => {
    const body = JSON.stringify({ code: 0, pad: 'x'.repeat(100) });
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const r = await sendRaw(url, REQ, { maxBodyBytes: Buffer.byteLength(body) });
    expect(r.truncated).toBeUndefined();
    expect(r.json).toMatchObject({ code: 0 });
  });
});
