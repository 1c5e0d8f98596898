import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, type RequestSpec } from '../../src/core/request.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { sign } from '../../src/signing/hmac.js';
import { secretSpellings } from '../report/secret-spellings.js';
import {
  buildGradeReport,
  correctedCurl,
  gradeExitCode,
  redact,
  renderGradeConsole,
  renderGradeJunit,
} from './report.js';
import type { RecordedRequest } from './rules.js';
import { GradeSession } from './session.js';

const KEY = 'report-key';
const SECRET = 'report-secret-9f8e7d';
const run = promisify(execFile);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ credentials: [{ apiKey: KEY, secret: SECRET, permissions: ['TRADE'] }] });
});
afterAll(async () => {
  await server.close();
});

let seq = 0;
function recorded(
  spec: Partial<RequestSpec> & Pick<RequestSpec, 'endpoint' | 'params'>,
  at = Date.now(),
): RecordedRequest {
  const b = buildRequest(sign, { secret: SECRET, apiKey: KEY, ...spec });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.request.headers)) headers[k.toLowerCase()] = v;
  return {
    seq: ++seq,
    receivedAt: at,
    method: 'POST',
    path: b.request.path,
    query: b.request.query,
    body: b.request.body,
    headers,
  };
}

const order = (id: string, extra: Array<[string, string]> = []): Array<[string, string]> => [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '1'],
  ['price', '100'],
  ['newClientOrderId', id],
  ['timestamp', String(Date.now() - 90_000)],
  ...extra,
];

/** Run a printed curl with bash (curl and openssl for real); the answer's body. */
async function replay(script: string): Promise<{ code?: number }> {
  const { stdout } = await run('bash', ['--norc', '-c', `set -e\n${script}\n`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SPOTCHECK_SECRET: SECRET },
  });
  return JSON.parse(stdout) as { code?: number };
}

describe('grade report (§5.3, §5.4)', () => {
  it('gives each broken request a corrected curl that the server accepts', async () => {
    const s = new GradeSession({ apiKey: KEY, secret: SECRET });
    // unsigned body, stale timestamp, recvWindow above 5000, an unencoded space: all mended by the curl
    const bad = recorded(
      {
        endpoint: 'v1',
        params: order('fix-1', [['recvWindow', '60000']]),
        placement: 'split',
        defects: { signedString: (_t, q) => q },
        apiKey: null,
      },
      Date.now(),
    );
    const { graded } = s.receive(bad);
    expect(graded.results.filter((r) => !r.kept).map((r) => r.rule)).toEqual(
      expect.arrayContaining(['CLIENT-APIKEY-HEADER', 'CLIENT-SIGNATURE', 'CLIENT-TIMESTAMP', 'CLIENT-RECVWINDOW']),
    );
    const curl = correctedCurl(server.url, graded, KEY);
    expect(curl).toContain('recvWindow=5000');
    expect(await replay(curl)).toMatchObject({ code: 0 });
    const batch = recorded({
      endpoint: 'batch',
      params: [['timestamp', String(Date.now() - 90_000)]],
      jsonText: JSON.stringify([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', newClientOrderId: 'fix-b' },
      ]),
      headers: { 'content-type': 'text/plain' },
    });
    expect(await replay(correctedCurl(server.url, s.receive(batch).graded, KEY))).toMatchObject({ code: 0 });
  });

  it('says NOTHING GRADED and exits 1 for an empty session; KEPT and 0 for a clean one', () => {
    const empty = buildGradeReport(
      new GradeSession({ apiKey: KEY, secret: SECRET }),
      { version: 't', url: 'u', upstream: 'x', ungraded: 0 },
      SECRET,
      KEY,
    );
    expect(empty.verdict).toBe('nothing-graded');
    expect(gradeExitCode(empty)).toBe(1);
    expect(renderGradeConsole(empty)).toContain('NOTHING GRADED');
    const s = new GradeSession({ apiKey: KEY, secret: SECRET });
    const { graded } = s.receive(
      recorded({
        endpoint: 'v1',
        params: order('ok-1').map(([k, v]) => [k, k === 'timestamp' ? String(Date.now()) : v]),
      }),
    );
    s.answered(graded.request.seq, { status: 200, code: 0, by: 'server', placed: ['ok-1'] });
    const r = buildGradeReport(s, { version: 't', url: 'u', upstream: 'x', ungraded: 0 }, SECRET, KEY);
    expect(r.verdict).toBe('kept');
    expect(gradeExitCode(r)).toBe(0);
    const junit = renderGradeJunit(r);
    expect(junit).toContain(`skipped="${r.summary.rulesNotExercised}"`);
    expect(junit).toContain('failures="0"');
  });

  it('writes no spelling of the secret, even when a client sent it as its API key', () => {
    const s = new GradeSession({ apiKey: KEY, secret: SECRET });
    s.receive(recorded({ endpoint: 'v1', params: order('swap-1'), apiKey: SECRET }));
    const r = buildGradeReport(s, { version: 't', url: 'u', upstream: 'x', ungraded: 0 }, SECRET, KEY);
    const text = JSON.stringify(r) + renderGradeConsole(r) + renderGradeJunit(r);
    for (const spelling of secretSpellings(SECRET)) expect(text).not.toContain(spelling);
    expect(r.requests[0]?.headers['x-svc-apikey']).toBe('[secret]');
    expect(redact({ a: [`x${SECRET}y`] }, SECRET)).toEqual({ a: ['x[secret]y'] });
  });
});
