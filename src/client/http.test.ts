/**
 * sendRaw against servers that never finish: the deadline covers the whole
 * body, and a body past the cap is cut with the connection dropped.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../core/errors.js';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { classify, describe as describeAnswer } from '../core/response.js';
import { ACCEPT_ENCODING, sendRaw, type RawRequest } from './http.js';

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

const REQ: RawRequest = {
  method: 'POST',
  path: '/x',
  query: '',
  body: '{}',
  headers: { 'content-type': 'application/json' },
};

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

describe('sendRaw reads every answer as HTTP allows (RFC 9110 §8.4, §12.5.3)', () => {
  const BODY = JSON.stringify({ code: 0, result: [{ code: 0, msg: 'ok' }] });
  const coders: Record<string, (b: Buffer) => Buffer> = {
    gzip: gzipSync,
    deflate: deflateSync,
    br: brotliCompressSync,
    'deflate (raw)': deflateRawSync,
  };

  it('asks for the codings it decodes, unless the request names its own', async () => {
    const seen: Array<string | undefined> = [];
    const url = await serve((req, res) => {
      seen.push(req.headers['accept-encoding']);
      res.end('{}');
    });
    await sendRaw(url, REQ);
    await sendRaw(url, { ...REQ, headers: { ...REQ.headers, 'Accept-Encoding': 'identity' } });
    expect(seen).toEqual([ACCEPT_ENCODING, 'identity']);
  });

  for (const [name, encode] of Object.entries(coders)) {
    it(`decodes a ${name} answer, even one the request did not ask for, and classifies it accepted`, async () => {
      const url = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': name.split(' ')[0] ?? name });
        res.end(encode(Buffer.from(BODY)));
      });
      const r = await sendRaw(url, { ...REQ, headers: { ...REQ.headers, 'accept-encoding': 'identity' } });
      expect(r.text).toBe(BODY);
      expect(classify(r).verdict).toBe('accepted');
    });
  }

  it('decodes stacked codings last applied first (gzip then br)', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip, br' });
      res.end(brotliCompressSync(gzipSync(Buffer.from(BODY))));
    });
    expect((await sendRaw(url, REQ)).json).toEqual(JSON.parse(BODY));
  });

  it('a 2xx whose gzip body is corrupt, or whose coding is unknown, is an unreadable answer that says why, never a refusal', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-encoding': req.url === '/x' ? 'gzip' : 'compress' });
      res.end('this is not gzip');
    });
    for (const path of ['/x', '/y']) {
      const o = classify(await sendRaw(url, { ...REQ, path }));
      expect(o.verdict).toBe('bad-response');
      expect(describeAnswer(o)).toMatch(
        path === '/x'
          ? /^HTTP 200 with a body that could not be read \(the gzip body could not be decoded/
          : /Content-Encoding compress is not one the kit can read/,
      );
    }
  });

  it('holds a decoded body to the byte cap: a small gzip bomb is cut, not inflated whole', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)));
    });
    const r = await sendRaw(url, REQ, { maxBodyBytes: 64 * 1024 });
    expect(r.truncated?.keptBytes).toBe(64 * 1024);
    expect(classify(r).verdict).toBe('bad-response');
  });
});
