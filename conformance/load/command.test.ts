import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import { kitPath } from '../../src/paths.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { conformanceCommands } from '../cli/commands.js';
import { startBrokenServer, type BrokenServer } from '../../harness/load/broken-server.mjs';
import { startAcceptAll } from '../../harness/accept-all.js';
import { FAIL_COUNTERS } from './counters.js';
import { PROCESSOR_BUNDLE, SCRIPT_FILE } from './init.js';
import type { LoadReport } from './report.js';

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const creds = { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };
const dir = mkdtempSync(join(tmpdir(), 'spotcheck-load-'));
const readReport = (f: string): LoadReport => JSON.parse(readFileSync(f, 'utf8')) as LoadReport;

describe('spotcheck load (command line)', () => {
  it('passes against the embedded reference server and writes the JSON report (closed model)', async () => {
    const io = capture();
    const out = join(dir, 'embedded.json');
    const html = join(dir, 'embedded.html');
    expect(
      await cli(
        [
          'load',
          '--duration',
          '0.5',
          '--connections',
          '4',
          '--no-progress',
          '--report-json',
          out,
          '--report-html',
          html,
        ],
        io,
      ),
    ).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<svg id="latency-over-time"');
    const r = readReport(out);
    expect(r.passed).toBe(true);
    expect(r.requestsPerSecond).toBeGreaterThan(0);
    expect(r.badSignatures).toBe(0);
    expect(r.misalignedEntries).toBe(0);
    expect(Object.keys(r.routes)).toEqual([
      'batch',
      'v1/query',
      'v1/body',
      'v1/split',
      'v1.1/query',
      'v1.1/body',
      'v1.1/split',
    ]);
    expect(r.routes.batch?.results.entries).toBe((r.routes.batch?.accepted ?? 0) * 20);
    expect(r.series.length).toBeGreaterThan(0);
    expect(r.discovery?.fingerprints.signature).toEqual([{ status: 401, code: -1022 }]);
    expect(io.stdout()).toContain('PASS: no correctness failure under load');
  });

  it('open model: arrivals at --rate, their wait for a connection reported', async () => {
    const out = join(dir, 'open.json');
    expect(
      await cli(
        ['load', '--duration', '1', '--rate', '40', '--mix', 'v1=1', '--no-progress', '--report-json', out],
        capture(),
      ),
    ).toBe(0);
    const r = readReport(out);
    expect(r.requests).toBeGreaterThanOrEqual(30);
    expect(r.requests).toBeLessThanOrEqual(41);
    expect(r.arrivalWaitMs?.count).toBe(r.requests);
    expect(Object.keys(r.routes)).toEqual(['v1/query', 'v1/body', 'v1/split']);
  });

  describe('against a server breaking a rule under load', () => {
    let misalign: BrokenServer;
    let honest: BrokenServer;
    beforeAll(async () => {
      misalign = await startBrokenServer({ fault: 'misalign', busyAt: 5 });
      honest = await startBrokenServer({ fault: 'none' });
    });
    afterAll(async () => {
      await misalign.close();
      await honest.close();
    });

    it('exits 1 and counts misaligned entries when batch results come back out of order', async () => {
      const io = capture(creds);
      const out = join(dir, 'misalign.json');
      expect(
        await cli(
          [
            'load',
            '--base-url',
            misalign.url,
            '--duration',
            '0.5',
            '--connections',
            '4',
            '--mix',
            'batch',
            '--no-progress',
            '--report-json',
            out,
          ],
          io,
        ),
      ).toBe(1);
      const r = readReport(out);
      expect(r.misalignedEntries).toBeGreaterThan(0);
      expect(r.badSignatures).toBe(0);
      expect(io.stdout()).toMatch(/FAIL:\n {2}batch: \d+ result entries echoing another client id/);
    });

    it("learns a stranger server's refusals in discovery and stops before --max-orders, saying so in the verdict", async () => {
      const out = join(dir, 'honest.json');
      const io = capture(creds);
      expect(
        await cli(
          [
            'load',
            '--base-url',
            honest.url,
            '--duration',
            '5',
            '--max-orders',
            '300',
            '--no-progress',
            '--report-json',
            out,
          ],
          io,
        ),
      ).toBe(0);
      const r = readReport(out);
      // a cut-short pass says so, and what to change, where the verdict is read
      expect(r.durationSeconds).toBeLessThan(5);
      const text = io.stdout().replace(/\n/g, ' ');
      expect(text).toContain(`PASS, CUT SHORT: no correctness failure in the ${r.durationSeconds} s of load that ran`);
      expect(text).toContain(`--max-orders 300 was reached after ${r.durationSeconds} s of the 5 s asked`);
      expect(text).toMatch(/raise --max-orders \(about \d+ at this pace\) or lower --batch-size/);
      expect(r.discovery?.fingerprints).toEqual({
        signature: [{ status: 401, code: 40101 }],
        time: [{ status: 400, code: 40102 }],
      });
      expect(r.stopped).toBe('max-orders');
      expect(r.ordersPlaced + (r.discovery?.ordersPlaced ?? 0)).toBeLessThanOrEqual(300);
      expect(readFileSync(out, 'utf8')).not.toContain(DEMO_SECRET);
    });

    it('exits 2 before any load when a valid request is refused at rest (wrong secret), the secret not printed', async () => {
      const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: 'not-the-secret-xyz' });
      expect(await cli(['load', '--base-url', honest.url, '--duration', '1', '--no-progress'], io)).toBe(2);
      expect(io.stderr()).toMatch(
        /route batch did not accept a valid signed request before any load \(20 order\(s\) of BTCUSDT\): HTTP 401/,
      );
      expect(io.stderr() + io.stdout()).not.toContain('not-the-secret-xyz');
    });
  });

  it('usage errors exit 2 with a message, no stack trace', async () => {
    for (const argv of [
      ['load', '--mix', 'v2=1'],
      ['load', '--duration', 'x'],
      ['load', '--base-url', 'http://127.0.0.1:9'],
      ['load', 'report'],
      ['load', 'init'],
    ]) {
      const io = capture();
      expect(await cli(argv, io), argv.join(' ')).toBe(2);
      expect(io.stderr(), argv.join(' ')).toMatch(/^spotcheck: /);
      expect(io.stderr(), argv.join(' ')).not.toMatch(/\n\s+at /);
    }
  });
});

describe('spotcheck load init and report', () => {
  beforeAll(() => {
    // The processor bundle is a build output; make it when this checkout has not been built.
    if (!existsSync(kitPath(...PROCESSOR_BUNDLE)))
      execFileSync(process.execPath, [kitPath('harness', 'tools', 'build-processor.mjs')]);
  });

  it('writes the Artillery project: phases, a shared pool, one scenario per route, ensure on every correctness total', async () => {
    const out = join(dir, 'project');
    const io = capture();
    expect(
      await cli(
        [
          'load',
          'init',
          '--out',
          out,
          '--rate',
          '10',
          '--duration',
          '20',
          '--mix',
          'batch=2,v1.1/body=1',
          '--base-url',
          'http://127.0.0.1:8080',
        ],
        io,
      ),
    ).toBe(0);
    const script = parseYaml(readFileSync(join(out, SCRIPT_FILE), 'utf8')) as {
      config: {
        target: string;
        phases: Array<{ duration: number; arrivalRate: number }>;
        http: { pool: number };
        processor: string;
        ensure: { conditions: Array<{ expression: string }> };
        plugins: Record<string, unknown>;
      };
      scenarios: Array<{
        name: string;
        weight: number;
        flow: Array<{ post: { url: string; beforeRequest: string; afterResponse: string } }>;
      }>;
    };
    expect(script.config.phases).toEqual([{ name: 'spotcheck-load', duration: 20, arrivalRate: 10 }]);
    expect(script.config.http.pool).toBe(16);
    expect(script.config.plugins).toHaveProperty('ensure');
    expect(script.config.ensure.conditions.map((c) => c.expression)).toEqual(FAIL_COUNTERS.map((c) => `${c} == 0`));
    expect(script.scenarios.map((s) => [s.name, s.weight, s.flow[0]?.post.url, s.flow[0]?.post.beforeRequest])).toEqual(
      [
        ['batch', 2, '/api/v1/spot/batchOrders', 'sign_batch'],
        ['v1.1/body', 1, '/api/v1.1/spot/order', 'sign_v1_1_body'],
      ],
    );
    const processor = readFileSync(join(out, 'processor.cjs'), 'utf8');
    expect([...processor.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['node:crypto']);
    expect(processor).not.toContain(DEMO_SECRET);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toContain('run-fargate');
    expect(readme).toContain('each worker runs the whole script');
    // 200 requests, 2/3 of them 20-order batches: about 2733 orders.
    expect(io.stdout()).toContain('about 200 requests and 2733 orders per worker');
    // Written once; again only with --force.
    expect(await cli(['load', 'init', '--out', out], capture())).toBe(2);
    expect(await cli(['load', 'init', '--out', out, '--force'], capture())).toBe(0);
  });

  it('refuses a plan whose orders over all workers exceed --max-orders', async () => {
    const io = capture();
    expect(
      await cli(
        [
          'load',
          'init',
          '--out',
          join(dir, 'big'),
          '--rate',
          '10',
          '--duration',
          '20',
          '--mix',
          'batch',
          '--count',
          '3',
          '--max-orders',
          '10000',
        ],
        io,
      ),
    ).toBe(2);
    expect(io.stderr()).toContain('about 12000 orders (4000 per worker x --count 3), above --max-orders 10000');
    expect(existsSync(join(dir, 'big', SCRIPT_FILE))).toBe(false);
  });

  it('a folder that cannot be made (/proc) is a usage error naming --out, not a spin', async () => {
    const io = capture();
    expect(await cli(['load', 'init', '--out', '/proc/nope/load-test'], io)).toBe(2);
    expect(io.stderr()).toMatch(
      /^spotcheck: --out: cannot create or write the folder \/proc\/nope\/load-test: E[A-Z]+/,
    );
    expect(io.stderr()).not.toMatch(/\n\s+at /);
  });

  it('report: exit 0 for the recorded run against the reference server, 1 for the misaligning one', async () => {
    const ok = capture();
    expect(await cli(['load', 'report', join(import.meta.dirname, 'testdata', 'artillery-reference.json')], ok)).toBe(
      0,
    );
    expect(ok.stdout()).toContain('PASS');
    const bad = capture();
    expect(await cli(['load', 'report', join(import.meta.dirname, 'testdata', 'artillery-misalign.json')], bad)).toBe(
      1,
    );
    expect(bad.stdout()).toContain('misaligned');
  });
});

/** Discovery and the load share one reservation: a server accepting everything places at most --max-orders. */
describe('spotcheck load --max-orders against an accept-all server', () => {
  const argv = (url: string, cap: number, out: string) => [
    ...['load', '--base-url', url, '--max-orders', String(cap), '--connections', '64', '--duration', '60'],
    ...['--mix', 'batch=1,v1/query=2', '--batch-size', '3', '--no-progress', '--report-json', out],
  ];

  it('a cap below what discovery could place (3 requests a route: 12 orders here) exits 2 having sent nothing', async () => {
    for (const cap of [1, 7]) {
      const server = await startAcceptAll();
      try {
        const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
        expect(await cli(argv(server.url, cap, join(dir, `cap${cap}.json`)), io)).toBe(2);
        expect(server.requests()).toBe(0);
        expect(io.stderr()).toContain(`the order budget (--max-orders ${cap}) cannot hold discovery`);
      } finally {
        await server.close();
      }
    }
  });

  it('caps 50 and 500 at 64 connections: discovery and load together place at most the cap', {
    timeout: 120_000,
  }, async () => {
    for (const cap of [50, 500]) {
      const server = await startAcceptAll();
      try {
        const out = join(dir, `cap${cap}.json`);
        expect(await cli(argv(server.url, cap, out), capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' }))).toBe(
          0,
        );
        expect(server.placed()).toBeLessThanOrEqual(cap);
        expect(server.placed()).toBeGreaterThan(12);
        expect(readReport(out).stopped).toBe('max-orders');
      } finally {
        await server.close();
      }
    }
  });
});
