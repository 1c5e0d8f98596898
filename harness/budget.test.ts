/**
 * The order budget covers everything (--max-orders): discovery's controls and fingerprint
 * probes come out of it, 0 sends nothing that can place an order, and one oversized body is
 * not counted as the thousands of orders it holds. (The cap over whole runs at concurrency 1,
 * 16 and 64 is budget-matrix.test.ts, in `npm run test:interop`.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import type { Io } from '../src/cli/args.js';
import { conformanceCommands } from '../conformance/cli/commands.js';
import { ordersIn } from '../conformance/engine/budget.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { startServer } from '../src/server/server.js';
import { startAcceptAll } from './accept-all.js';
import { runAgainstServer } from './selftest.js';

function capture(env: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}

describe.concurrent('the order budget covers every request that can place an order', () => {
  it('--max-orders 0 against an accept-all server: it places 0 orders, the placing checks are skipped with the reason, exit 2 saying so', async () => {
    const server = await startAcceptAll();
    const dir = mkdtempSync(join(tmpdir(), 'spotcheck-budget-'));
    const json = join(dir, 'r.json');
    try {
      const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
      const code = await main(
        ['run', '--base-url', server.url, '--max-orders', '0', '--runs', '3', '--seed', '5', '--report-json', json],
        io,
        conformanceCommands,
      );
      expect(server.placed()).toBe(0);
      // exit 2 even where the requests that carry no order found a failure: without orders the run gives no verdict
      expect(code, io.stderr()).toBe(2);
      expect(io.stderr()).toMatch(
        /--max-orders 0: no request that could place an order was sent, so \d+ checks \(\d+ MUST\) were skipped: no verdict \(exit 2\)/,
      );
      const report = JSON.parse(readFileSync(json, 'utf8')) as RunReport;
      expect(report.orders?.placed).toBe(0);
      expect(report.orders?.mustNotRun).toBeGreaterThan(10);
      expect(
        report.discovery?.controls
          .filter((c) => c.state !== 'not-offered')
          .every((c) => c.observed.includes('order budget (--max-orders 0)')),
      ).toBe(true);
      const skipped = report.checks.find((c) => c.id === 'BATCH-ACCEPT-UP-TO-MAX');
      expect(skipped?.status).toBe('skip');
      expect(skipped?.reason).toMatch(/order budget \(--max-orders 0\) left no order/);
      expect(report.checks.some((c) => c.status === 'pass' || c.status === 'fail')).toBe(true); // ROBUST-NO-HANG judges the run
    } finally {
      await server.close();
    }
  });

  it('--max-orders 0 against the reference server: nothing fails, exit 2 because MUST checks were not run', async () => {
    const server = await startServer({ port: 0 });
    try {
      const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
      const code = await main(
        ['run', '--base-url', server.url, '--max-orders', '0', '--runs', '3', '--seed', '5'],
        io,
        conformanceCommands,
      );
      expect(code, io.stdout()).toBe(2);
      expect(io.stdout()).toMatch(/^\d+ passed, 0 failed, \d+ info, [1-9]\d* skipped/m);
    } finally {
      await server.close();
    }
  });

  it('--max-orders 0 with a test-order path in the target description: only that path gets orders, the v1 checks run through it', async () => {
    const server = await startAcceptAll();
    const dir = mkdtempSync(join(tmpdir(), 'spotcheck-budget-'));
    const config = join(dir, 'target.json');
    writeFileSync(config, JSON.stringify({ testOrderPath: '/api/v1/spot/order/test' }));
    try {
      const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
      const code = await main(
        [
          ...['run', '--base-url', server.url, '--config', config, '--max-orders', '0', '--runs', '2', '--seed', '5'],
          ...['--report-json', join(dir, 'r.json')],
        ],
        io,
        conformanceCommands,
      );
      const { '/api/v1/spot/order/test': onTestPath = 0, ...elsewhere } = server.placedOn();
      expect(elsewhere).toEqual({});
      expect(onTestPath).toBeGreaterThan(10);
      // a verdict through the test-order path: accept-all takes a flipped signature there, a MUST failure (exit 1)
      expect(code, io.stderr()).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as RunReport;
      expect(report.checks.find((c) => c.id === 'SIG-HMAC-SHA256-HEX.flipped-bit')?.status).toBe('fail');
      // the batch and v1.1 checks need orders: skipped with the reason
      expect(io.stderr()).toMatch(/--max-orders 0 left \d+ MUST checks without a single request/);
    } finally {
      await server.close();
    }
  });

  it('a small budget is shared with discovery: the orders placed never exceed it', async () => {
    const server = await startAcceptAll();
    try {
      const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
      await main(
        ['run', '--base-url', server.url, '--max-orders', '5', '--runs', '3', '--seed', '5'],
        io,
        conformanceCommands,
      );
      expect(server.placed()).toBeLessThanOrEqual(5);
      expect(server.placed()).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('a batch reserves every element it carries (a server ignoring the 20-order limit places them all): ROBUST-NO-5XX.oversized, 2 MiB in 21 orders, runs at the default budget of a --base-url run', async () => {
    const paths = { batch: '/b', single: ['/o'] };
    expect(ordersIn({ path: '/b', body: JSON.stringify(new Array(12000).fill({})) }, paths)).toBe(12000);
    expect(ordersIn({ path: '/b', body: '[{},{}]' }, paths)).toBe(2);
    expect(ordersIn({ path: '/o', body: '' }, paths)).toBe(1);
    expect(ordersIn({ path: '/elsewhere', body: '[{}]' }, paths)).toBe(0);
    const r = await runAgainstServer({}, { only: ['ROBUST-NO-5XX.oversized'], maxOrders: 10000, runs: 3 });
    expect(r.checks.map((c: RunReport['checks'][number]) => [c.id, c.status, c.reason])).toEqual([
      ['ROBUST-NO-5XX.oversized', 'pass', undefined],
    ]);
  });
});
