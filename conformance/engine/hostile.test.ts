import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance, type RunOptions } from './runner.js';
import { startVariant } from '../../harness/variants.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';

const validateReport = reportValidator();
import type { RunReport } from '../judgement/types.js';
import { isSpotcheckError } from '../../src/core/errors.js';
import { reportValidator } from '../../harness/testing/report-schema.js';

/** The servers the tests started; each test starts its own, so the waiting tests run side by side. */
const servers = new Set<Server>();

afterAll(async () => {
  await Promise.all(
    [...servers].map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    ),
  );
});

/** Start a misbehaving HTTP server; return its base URL. */
async function hostile(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  server.keepAliveTimeout = 100;
  servers.add(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function run(baseUrl: string, only: string[], timeoutMs = 2000, extra: Partial<RunOptions> = {}): Promise<RunReport> {
  return runConformance({
    ...extra,
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

/** The run's end when nothing is accepted anywhere: exit 2 (ERR_TARGET) with the reason and what each route answered. */
async function nothingAccepted(p: Promise<RunReport>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSpotcheckError(err, 'ERR_TARGET'), String(err)).toBe(true);
  return (err as Error).message;
}

describe.concurrent('a target that misbehaves everywhere ends at discovery with the reason, never a crash or a verdict', () => {
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
    // liveness: the requests in a row reset, a probe on a fresh connection reset too: nothing more was sent
    expect(msg).toMatch(/the connection failed/);
    expect(msg).toMatch(/v1\/query: (no answer|not sent: the target had stopped answering)/);
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

/** How long a promise took, ms, with its settled value or error. */
async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const t0 = Date.now();
  try {
    const value = await p;
    return { ms: Date.now() - t0, value };
  } catch (error) {
    return { ms: Date.now() - t0, error };
  }
}

/** The error a run ended with must be ERR_TARGET (exit 2), reached within `withinMs`. */
function endedAtDiscovery(r: { ms: number; error?: unknown }, withinMs: number): string {
  expect(isSpotcheckError(r.error, 'ERR_TARGET'), String(r.error)).toBe(true);
  expect(r.ms).toBeLessThan(withinMs);
  return (r.error as Error).message;
}

describe.concurrent('hostile servers end within the deadlines', () => {
  it('a body trickled one byte every 50 ms: each request ends at its total deadline, the run at discovery', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":0');
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
    const msg = endedAtDiscovery(await timed(run(url, ['SIG-HMAC-SHA256-HEX'], 300)), 20_000);
    expect(msg).toMatch(/within 300 ms/);
  });

  it('an endless body announced as 4 GB: at most 1 MiB is read per answer, the run ends at discovery', async () => {
    let served = 0;
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * 1024 ** 3) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) served += chunk.length;
      };
      res.on('drain', pump);
      pump();
    });
    const rss0 = process.memoryUsage().rss;
    const msg = endedAtDiscovery(await timed(run(url, ['SIG-HMAC-SHA256-HEX'], 5000)), 20_000);
    expect(msg).toMatch(/not JSON|bad|no answer|did not answer/i);
    expect(served).toBeLessThan(512 * 1024 ** 2);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(256 * 1024 ** 2);
  });

  it('a redirect loop is not followed: the run ends at discovery', async () => {
    const url = await hostile((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
    });
    const msg = endedAtDiscovery(await timed(run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-REQUIRED'])), 20_000);
    expect(msg).toContain('302');
  });

  it('429 to everything: retries are bounded, nothing passes, the run ends with exit 2 at discovery', async () => {
    let hits = 0;
    const url = await hostile((_req, res) => {
      hits++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end('{"code":-1003,"msg":"slow down"}');
    });
    const r = await timed(run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-REQUIRED']));
    if (r.error === undefined) {
      // should discovery ever let a run through, no check may pass on rate-limited answers
      expect(r.value?.summary.passed).toBe(0);
      expect(r.value?.summary.failed).toBe(0);
    } else {
      endedAtDiscovery(r, 30_000);
    }
    expect(hits).toBeLessThan(200);
  });

  it('a server that stalls everything, under --max-time: the run ends at the deadline with every check skipped and says why', async () => {
    const url = await hostile(() => undefined);
    const r = await timed(run(url, ['SIG-HMAC-SHA256-HEX', 'AUTH-APIKEY-REQUIRED'], 10_000, { maxTimeMs: 800 }));
    expect(r.error).toBeUndefined();
    expect(r.ms).toBeLessThan(3000);
    const report = r.value as RunReport;
    expect(report.summary.passed).toBe(0);
    expect(report.summary.skipped).toBe(report.checks.length);
    expect(
      report.checks.every(
        (c) => c.status === 'skip' && /--max-time 800 ms was reached before discovery ended/.test(c.reason ?? ''),
      ),
    ).toBe(true);
    expect(report.deadline).toMatchObject({ maxTimeMs: 800, reached: true });
    expect(report.deadline?.checksNotRun.length).toBe(report.checks.length);
  });
});

describe.concurrent('--max-time against the reference server', () => {
  it('ends with a partial, schema-valid report: checks run before the deadline keep their verdicts, the rest are skip with the reason', async () => {
    // The reference server stops answering once the first check has ended, so the deadline is
    // reached after a verdict whatever the machine's speed (a fast run never ends before it, a
    // slow one has a first verdict long before it).
    let held = false;
    const ref = await startVariant({ hold: () => held }, 5);
    try {
      const t0 = Date.now();
      const report = await runConformance({
        target: {
          baseUrl: ref.url,
          apiKey: DEMO_API_KEY,
          secret: DEMO_SECRET,
          symbol: 'BTCUSDT',
          otherSymbol: 'ETHUSDT',
        },
        profile: 'core',
        seed: 5,
        runs: 100,
        rate: 0,
        timeoutMs: 2000,
        only: [],
        maxOrders: 1000,
        maxTimeMs: 5000,
        onEvidence: () => {
          held = true;
        },
      });
      expect(Date.now() - t0).toBeLessThan(5000 + 2500);
      expect(report.deadline?.reached).toBe(true);
      const cut = report.checks.filter(
        (c) => c.status === 'skip' && /--max-time 5000 ms was reached/.test(c.reason ?? ''),
      );
      expect(cut.length).toBeGreaterThan(0);
      expect(report.checks.length - cut.length).toBeGreaterThan(0); // some ran before the deadline
      expect(report.summary.skipped).toBe(report.checks.filter((c) => c.status === 'skip').length);
      expect(report.deadline?.checksNotRun).toEqual(cut.map((c) => c.id));
      expect(
        report.summary.failed,
        JSON.stringify(report.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.actual])),
      ).toBe(0);
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    } finally {
      await ref.close();
    }
  });
});
