/**
 * The whole kit, at its defaults, with `--http2` against the reference server behind a TLS front
 * that speaks HTTP/2 and HTTP/1.1 (ALPN), as a deployment fronted by a TLS terminator is: no
 * failure, every route over h2, and the report says so. A whole run through TLS, HTTP/2 and a
 * proxy, so in `npm run test:interop`; the front's other tests are tls-front.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { conformanceCommands } from '../../conformance/cli/commands.js';
import { selfSignedCertificate, startTlsFront, type TlsFront } from './tls-front.js';

function capture(env: NodeJS.ProcessEnv): Io & { stdout: () => string } {
  let out = '';
  return { out: (s) => void (out += s), err: () => undefined, env, stdout: () => out };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const env = { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };

interface Report {
  summary: { passed: number; failed: number; mustFailures: number };
  protocols: { offered: string[]; routes: Record<string, Record<string, number>>; used: string[] };
  replayArgs: string[];
}

describe('the whole kit over HTTP/2 through a TLS front (ALPN)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-h2-run-'));
  const { cert, key } = selfSignedCertificate();
  let server: RunningServer;
  let both: TlsFront;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
    both = await startTlsFront({ upstream: server.url, cert, key });
  });
  afterAll(async () => {
    await both?.close();
    await server?.close();
  });

  it('a full default run over HTTP/2 passes with 0 failures, and the report names h2 on every route', async () => {
    const io = capture(env);
    const json = join(dir, 'h2.json');
    const html = join(dir, 'h2.html');
    const code = await cli(
      [
        'run',
        '--base-url',
        both.url,
        '--ca',
        cert,
        '--http2',
        '--seed',
        '7',
        '--report-json',
        json,
        '--report-html',
        html,
      ],
      io,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect({ code, failed: report.summary.failed }, io.stdout().slice(-3000)).toEqual({ code: 0, failed: 0 });
    expect(report.summary.passed).toBeGreaterThan(100);
    expect(report.protocols.offered).toEqual(['h2', 'http/1.1']);
    expect(report.protocols.used).toEqual(['h2']);
    const routes = Object.keys(report.protocols.routes);
    expect(routes).toEqual(expect.arrayContaining(['batch/json', 'v1/query', 'v1/body', 'v1/split', 'v1.1/split']));
    for (const r of routes) expect(Object.keys(report.protocols.routes[r] ?? {}), r).toEqual(['h2']);
    expect(io.stdout()).toMatch(/^protocol: HTTP\/2 \(h2\) on every route \(\d+; HTTP\/2 offered by ALPN\)$/m);
    expect(readFileSync(html, 'utf8')).toContain('protocol: HTTP/2 (h2) on every route');
    expect(report.replayArgs).toEqual(expect.arrayContaining(['--http2', '--ca', cert]));
    // the front saw HTTP/2 connections only
    expect(Object.keys(both.connections)).toEqual(['h2']);
  }, 240_000); // a whole run through TLS, HTTP/2 and a proxy
});
