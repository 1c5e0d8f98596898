/**
 * A run always ends, and blames only what it saw (design notes, "A run always ends"): against
 * servers that die, deadlock after a given request, freeze (SIGSTOP), stop answering after a
 * number of requests, or close every connection after the headers, the run ends soon after the
 * silence (bounded by the run's own wait per request: no fixed clock time), every report says the
 * target went down and names the requests of the silence, and no check but the staying-up one
 * (ROBUST-NO-HANG) fails. SIGTERM and SIGHUP at several moments of a run write every report.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import { main } from '../src/cli/main.js';
import type { Io } from '../src/cli/args.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { startServer, type RunningServer } from '../src/server/server.js';
import { conformanceCommands } from '../conformance/cli/commands.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { startVariant } from './variants.js';
import { startPythonVenue } from './foreign/venues.js';

const dir = mkdtempSync(join(tmpdir(), 'spotcheck-outage-'));
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const io = (): Io => ({
  out: () => undefined,
  err: () => undefined,
  env: { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET },
});
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c().catch(() => undefined)));
});

interface Outcome {
  code: number;
  report: RunReport;
  /** When the run ended, epoch ms. */
  endedAt: number;
  files: { json: string; junit: string; ndjson: string; html: string };
}

/** One CLI run against `url` with every report, at `timeoutMs` per request (the kit's own default unless told). */
async function run(url: string, name: string, extra: string[] = [], env?: Io['env']): Promise<Outcome> {
  const files = {
    json: join(dir, `${name}.json`),
    junit: join(dir, `${name}.xml`),
    ndjson: join(dir, `${name}.ndjson`),
    html: join(dir, `${name}.html`),
  };
  const i = io();
  const code = await cli(
    [
      'run',
      '--base-url',
      url,
      '--seed',
      '5',
      '--runs',
      '10',
      '--report-json',
      files.json,
      '--junit',
      files.junit,
      '--report-ndjson',
      files.ndjson,
      '--report-html',
      files.html,
      ...extra,
    ],
    env === undefined ? i : { ...i, env },
  );
  return { code, report: JSON.parse(readFileSync(files.json, 'utf8')) as RunReport, endedAt: Date.now(), files };
}

/** What every report of a run whose target went down says. */
function expectDown(o: Outcome, waitMs: number): void {
  const r = o.report;
  expect(r.stopped?.reason, JSON.stringify(r.stopped)).toBe('target-down');
  // the run ended soon after the silence: a few waits per request, whatever the machine's load
  const since = Date.parse(r.stopped?.silence?.since ?? '');
  expect(o.endedAt - since).toBeLessThan(4 * waitMs + 5000);
  // the request after which the target never answered again is named, with a curl to send it again
  const first = r.stopped?.silence?.requests[0];
  expect(first?.method).toBe('POST');
  expect(first?.curl).toContain('curl');
  // no rule but the staying-up one is failed by requests never answered or never delivered
  const failed = r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST').map((c) => c.id);
  expect(failed).toEqual(['ROBUST-NO-HANG']);
  expect(o.code).toBe(1);
  expect(r.checks.filter((c) => c.status === 'skip' && c.cause === 'target-down').length).toBe(r.stopped?.notRun);
  // every report says the same
  const xml = readFileSync(o.files.junit, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml).toContain('<property name="spotcheck.stopped" value="target-down"/>');
  const last = JSON.parse(readFileSync(o.files.ndjson, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as {
    event?: string;
    stopped?: { reason?: string };
  };
  expect(last).toMatchObject({ event: 'end', stopped: { reason: 'target-down' } });
  expect(readFileSync(o.files.html, 'utf8')).toContain('PARTIAL: the target stopped answering');
}

/** The reference server behind a front that, after `n` requests, never answers (`hold`) or writes the head of an answer and closes the connection. */
async function failingAfter(n: number, then: 'hold' | 'close-after-headers'): Promise<string> {
  let seen = 0;
  if (then === 'hold') {
    const v = await startVariant({ hold: () => ++seen > n });
    closers.push(() => v.close());
    return v.url;
  }
  const ref = await startServer({ port: 0 });
  closers.push(() => ref.close());
  const front = createHttpServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (++seen > n) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.flushHeaders();
        res.socket?.destroy();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, val] of Object.entries(req.headers))
        if (typeof val === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = val;
      const up = await request(`${ref.url}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as 'POST',
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? null : Buffer.concat(chunks),
      });
      const text = await up.body.text();
      res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        front.closeAllConnections();
        front.close(r);
      }),
  );
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}

describe.concurrent('a target that goes down mid-run: the run ends soon after, blaming only ROBUST-NO-HANG', () => {
  it('a worker that deadlocks after 200 requests (reads requests, never answers again), at the default wait per request', async () => {
    const url = await failingAfter(200, 'hold');
    const o = await run(url, 'deadlock');
    expectDown(o, 10_000);
  });

  it('a server killed mid-run (its port closed, its connections reset): the run ends, no check blamed on ECONNREFUSED', async () => {
    const server: RunningServer = await startServer({ port: 0 });
    let killed = false;
    const running = run(server.url, 'killed', ['--timeout', '3000']);
    // killed after its 300th request
    const watch = setInterval(() => {
      if (!killed && server.orders.count() > 150) {
        killed = true;
        void server.close();
      }
    }, 5);
    try {
      expectDown(await running, 3000);
    } finally {
      clearInterval(watch);
      await server.close();
    }
  });

  it('a process frozen by SIGSTOP (its socket accepts, nothing answers)', async () => {
    const started = await startPythonVenue();
    if ('skipped' in started) {
      console.warn(
        `harness/outage.test.ts: the SIGSTOP case did NOT run: ${started.skipped} (CI installs it, .ci/run)`,
      );
      expect(started.skipped).toMatch(/python3/);
      return;
    }
    const v = started.venue;
    closers.push(async () => {
      if (v.pid !== undefined) process.kill(v.pid, 'SIGCONT');
      await v.close();
    });
    const env = { SPOTCHECK_API_KEY: v.apiKey, SPOTCHECK_SECRET: v.secret };
    const running = run(v.url, 'sigstop', ['--timeout', '3000', '--config', pythonConfig()], env);
    setTimeout(() => {
      if (v.pid !== undefined) process.kill(v.pid, 'SIGSTOP');
    }, 1500);
    const o = await running;
    expect(o.report.stopped?.reason).toBe('target-down');
    expect(o.report.checks.filter((c) => c.status === 'fail' && c.level === 'MUST').map((c) => c.id)).toEqual([
      'ROBUST-NO-HANG',
    ]);
    expect(o.endedAt - Date.parse(o.report.stopped?.silence?.since ?? '')).toBeLessThan(4 * 3000 + 5000);
  });

  it('a front that, after 150 requests, closes every connection after the head of its answer', async () => {
    const url = await failingAfter(150, 'close-after-headers');
    expectDown(await run(url, 'cut', ['--timeout', '3000']), 3000);
  });
});

/** A target description for the Python venue: its server-time endpoint. */
function pythonConfig(): string {
  const f = join(dir, 'python.jsonc');
  if (!existsSync(f)) writeFileSync(f, '{ "timePath": "/api/v1/time" }');
  return f;
}

describe('a run stopped by a signal writes every report: JSON, JUnit (partial), NDJSON (its end event), HTML', () => {
  const EXIT = { SIGTERM: 143, SIGHUP: 129 } as const;
  /** When the signal comes: during the clock samples, during discovery or the first checks, once checks have ended. */
  const moments: Array<[string, (ndjson: string) => boolean]> = [
    ['at once', () => true],
    ['once the run started', (t) => t.includes('"event":"start"')],
    ['once a check ended', (t) => t.includes('"event":"evidence"')],
  ];
  for (const sig of ['SIGTERM', 'SIGHUP'] as const)
    for (const [when, ready] of moments)
      it(`${sig} ${when}: exit ${EXIT[sig]}, every report written and marked partial`, async () => {
        const name = `${sig}-${when.replace(/\W+/g, '-')}`;
        const json = join(dir, `${name}.json`);
        const junit = join(dir, `${name}.xml`);
        const ndjson = join(dir, `${name}.ndjson`);
        const html = join(dir, `${name}.html`);
        const running = cli(
          [
            'run',
            '--embedded',
            '--runs',
            '100',
            '--seed',
            '3',
            '--report-json',
            json,
            '--junit',
            junit,
            '--report-ndjson',
            ndjson,
            '--report-html',
            html,
          ],
          io(),
        );
        for (let i = 0; i < 400 && !(existsSync(ndjson) && ready(readFileSync(ndjson, 'utf8'))); i++)
          await new Promise((r) => setTimeout(r, 10));
        process.emit(sig);
        expect(await running).toBe(EXIT[sig]);
        const report = JSON.parse(readFileSync(json, 'utf8')) as RunReport;
        expect(report.stopped).toMatchObject({ reason: 'interrupted', signal: sig });
        // every check is in the report: those not run skipped, with the signal named
        expect(report.checks.length).toBeGreaterThan(150);
        expect(report.checks.filter((c) => c.cause === 'interrupted').length).toBe(report.stopped?.notRun);
        const xml = readFileSync(junit, 'utf8');
        expect(XMLValidator.validate(xml)).toBe(true);
        expect(xml).toContain(`<property name="spotcheck.signal" value="${sig}"/>`);
        expect(xml).toContain('name="the run ran to its end"');
        const last = JSON.parse(readFileSync(ndjson, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as {
          event?: string;
        };
        expect(last).toMatchObject({ event: 'end', stopped: { reason: 'interrupted', signal: sig } });
        expect(readFileSync(html, 'utf8')).toContain(`stopped by ${sig}`);
        expect(process.listenerCount(sig)).toBe(0);
      });
});
