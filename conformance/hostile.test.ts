import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from './runner.js';
import type { RunReport } from './types.js';

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

describe('a target that misbehaves yields failed checks with what was seen, never a crash', () => {
  it('non-JSON answers', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    const r = await run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-REQUIRED', 'RESULT-TOP-CODE']);
    expect(r.checks.map((c) => c.status)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail']);
    expect(r.checks.every((c) => (c.actual ?? '').includes('<html>hello</html>'))).toBe(true);
    expect(r.summary.mustFailures).toBe(5);
  });

  it('connections reset without an answer', async () => {
    const url = await hostile((req) => req.socket.destroy());
    const r = await run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-UNKNOWN']);
    expect(r.checks.filter((c) => c.status === 'fail').length).toBe(r.checks.length);
    expect(r.checks[0]?.actual).toMatch(/no answer/);
    expect(r.clock.method).toBe('none');
  });

  it('a server that never answers: each request times out, and ROBUST-NO-HANG reports it', async () => {
    const url = await hostile(() => undefined);
    const r = await run(url, ['SIG-HMAC-SHA256-HEX', 'ROBUST-NO-HANG'], 300);
    const hang = r.checks.find((c) => c.id === 'ROBUST-NO-HANG');
    expect(hang?.status).toBe('fail');
    expect(hang?.actual).toMatch(/got no answer/);
    expect(r.checks.find((c) => c.id === 'SIG-HMAC-SHA256-HEX')?.actual).toMatch(/within 300 ms/);
  });

  it('5xx answers fail the robustness checks', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"code":-1,"msg":"boom"}');
    });
    const r = await run(url, ['ROBUST-NO-5XX.malformed-json']);
    expect(r.checks[0]?.status).toBe('fail');
    expect(r.checks[0]?.actual).toContain('HTTP 500');
  });
});
