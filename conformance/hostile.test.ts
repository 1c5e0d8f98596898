import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from './runner.js';
import type { RunReport } from './types.js';
import { isSpotcheckError } from '../src/errors.js';

let server: Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((r) => s.close(() => r()));
});

/** Start a misbehaving HTTP server; return its base URL. */
async function hostile(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  server.keepAliveTimeout = 100;
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function run(baseUrl: string, only: string[], timeoutMs = 2000): Promise<RunReport> {
  return runConformance({
    target: { baseUrl, apiKey: 'k', secret: 's', symbol: 'BTCUSDT', otherSymbol: 'ETHUSDT' },
    profile: 'core',
    seed: 5,
    runs: 3,
    rate: 0,
    timeoutMs,
    only,
    maxOrders: 1000,
  });
}

/** The run's end when nothing is accepted anywhere: exit 2 (ERR_TARGET) with the reason and what each route answered (issue 9). */
async function nothingAccepted(p: Promise<RunReport>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSpotcheckError(err, 'ERR_TARGET'), String(err)).toBe(true);
  return (err as Error).message;
}

describe('a target that misbehaves everywhere ends at discovery with the reason, never a crash or a verdict', () => {
  it('non-JSON answers', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    const msg = await nothingAccepted(run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-REQUIRED', 'RESULT-TOP-CODE']));
    expect(msg).toMatch(/not JSON/);
    expect(msg).toContain('<html>hello</html>');
  });

  it('connections reset without an answer', async () => {
    const url = await hostile((req) => req.socket.destroy());
    const msg = await nothingAccepted(run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-UNKNOWN']));
    expect(msg).toMatch(/did not answer/);
    expect(msg).toMatch(/v1\/query: no answer/);
  });

  it('a server that never answers: each discovery request times out and the run ends', async () => {
    const url = await hostile(() => undefined);
    const msg = await nothingAccepted(run(url, ['SIG-HMAC-SHA256-HEX', 'ROBUST-NO-HANG'], 300));
    expect(msg).toMatch(/within 300 ms/);
  });

  it('5xx answers to everything', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"code":-1,"msg":"boom"}');
    });
    const msg = await nothingAccepted(run(url, ['ROBUST-NO-5XX.malformed-json']));
    expect(msg).toMatch(/5xx/);
    expect(msg).toContain('HTTP 500');
  });
});
