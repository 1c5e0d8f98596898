/**
 * `--http2` against the reference server behind a TLS front that speaks HTTP/2 and HTTP/1.1
 * (ALPN): checks run over h2 and the report says so; without --http2 the same front is used
 * over HTTP/1.1; a front offering only HTTP/1.1 gets HTTP/1.1 (the fallback). The whole kit
 * over h2 is tls-front-run.test.ts, in `npm run test:interop`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { conformanceCommands } from '../../conformance/cli/commands.js';
import { selfSignedCertificate, startTlsFront, type TlsFront } from './tls-front.js';
import { sendRaw } from '../../src/client/http.js';
import { readCa, targetAgent } from '../../conformance/cli/tls.js';

function capture(env: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const env = { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };

interface Report {
  summary: { passed: number; failed: number; mustFailures: number };
  protocols: { offered: string[]; routes: Record<string, Record<string, number>>; used: string[] };
  replayArgs: string[];
}

describe('HTTP/2 through a TLS front (ALPN)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-h2-'));
  const { cert, key } = selfSignedCertificate();
  let server: RunningServer;
  let both: TlsFront;
  let h1only: TlsFront;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
    both = await startTlsFront({ upstream: server.url, cert, key });
    h1only = await startTlsFront({ upstream: server.url, cert, key, http2: false });
  });
  afterAll(async () => {
    await both?.close();
    await h1only?.close();
    await server?.close();
  });

  it('a body on a method that expects none goes over HTTP/2 (streamed), and the session stays usable', async () => {
    const agent = targetAgent({ ca: readCa(cert), http2: true });
    try {
      const req = (method: string, body: string) => ({
        method,
        path: '/api/v1/spot/order',
        query: 'a=1',
        body,
        headers: { 'content-type': 'text/plain' },
      });
      // undici's HTTP/2 client asserted on a whole body here and left the session hanging
      const del = await sendRaw(both.url, req('DELETE', 'x=1'), { dispatcher: agent, timeoutMs: 5000 });
      expect({ status: del.status >= 400 && del.status < 500, protocol: del.protocol }).toEqual({
        status: true,
        protocol: 'h2',
      });
      const next = await sendRaw(both.url, req('POST', 'x=1'), { dispatcher: agent, timeoutMs: 5000 });
      expect(next.protocol).toBe('h2');
    } finally {
      await agent.close();
    }
  });

  it('without --http2 the same front is used over HTTP/1.1', async () => {
    const io = capture(env);
    const json = join(dir, 'h1.json');
    const argv = ['run', '--base-url', both.url, '--ca', cert, '--only', 'SIG-CASE,AUTH-APIKEY', '--runs', '2'];
    expect(await cli([...argv, '--report-json', json], io), io.stderr()).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.protocols).toMatchObject({ offered: ['http/1.1'], used: ['http/1.1'] });
    expect(io.stdout()).toMatch(/^protocol: HTTP\/1\.1 on every route \(\d+; HTTP\/1\.1 only\)$/m);
  });

  it('matrix --http2 runs each target over HTTP/2, its CA from the target file', async () => {
    const config = join(dir, 'front.jsonc');
    writeFileSync(config, `{ "baseUrl": "${both.url}", "ca": ${JSON.stringify(cert)}, }`);
    const targets = join(dir, 'targets.jsonc');
    writeFileSync(targets, `[{ "name": "front", "config": "front.jsonc" }]`);
    const out = join(dir, 'matrix');
    const io = capture(env);
    const argv = ['matrix', targets, '--out', out, '--http2', '--only', 'SIG-CASE', '--runs', '2', '--no-color'];
    expect(await cli(argv, io), io.stdout() + io.stderr()).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'front.json'), 'utf8')) as Report;
    expect(report.protocols.used).toEqual(['h2']);
  });

  it('--http2 against a front offering only HTTP/1.1 falls back to it and passes', async () => {
    const io = capture(env);
    const json = join(dir, 'fallback.json');
    const argv = ['run', '--base-url', h1only.url, '--ca', cert, '--http2', '--only', 'SIG-CASE,BATCH', '--runs', '2'];
    expect(await cli([...argv, '--report-json', json], io), io.stdout().slice(-2000)).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.summary.failed).toBe(0);
    expect(report.protocols).toMatchObject({ offered: ['h2', 'http/1.1'], used: ['http/1.1'] });
    expect(Object.keys(h1only.connections)).toEqual(['http/1.1']);
  });
});
