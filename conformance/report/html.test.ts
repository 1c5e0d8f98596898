import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import { checkTimeWindow } from '../../src/core/time.js';
import { verify } from '../../src/signing/hmac.js';
import { defaultPolicy } from '../../src/server/policy.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { conformanceCommands } from '../cli/commands.js';
import type { CheckReport, RunReport } from '../judgement/types.js';
import { reportCells } from './cells.js';
import { checkAnchor, renderHtml } from './html.js';
import { secretSpellings } from './secret-spellings.js';

const check = (over: Partial<CheckReport> & Pick<CheckReport, 'id' | 'ruleId' | 'status'>): CheckReport => ({
  family: over.ruleId.split('-')[0] as CheckReport['family'],
  level: 'MUST',
  title: `title of ${over.id}`,
  section: '5.4',
  requirement: 'The request is processed when timestamp < serverTime + 1000.',
  durationMs: 1,
  ...over,
});

/** A small report: one failure with every part, a route not offered, a pass that never reached a route, time probes. */
function sampleReport(): RunReport {
  const checks: CheckReport[] = [
    check({
      id: 'TIME-WINDOW-LEAD',
      ruleId: 'TIME-WINDOW-LEAD',
      status: 'fail',
      expected: 'batch/json: timestamp 1200 ms ahead: rejected',
      actual: 'accepted: HTTP 200 code 0 <b>',
      counterexample: '[{"symbol":"BTCUSDT"}]',
      replay: 'spotcheck replay --seed 7 --only TIME-WINDOW-LEAD --base-url http://127.0.0.1:1',
      reproduce: 'TS=$(date +%s%3N)\nSIG=$(printf \'%s\' "$Q" | openssl dgst -sha256 -hmac "$SPOTCHECK_SECRET")',
      routes: ['batch/json', 'v1/query'],
      timeProbes: [
        { offsetMs: -1000, route: 'batch/json', verdict: 'accepted' },
        { offsetMs: 1200, route: 'batch/json', verdict: 'accepted' },
        { offsetMs: 3200, route: 'batch/json', verdict: 'rejected' },
        { offsetMs: -3_600_000, recvWindow: 3000, route: 'v1/query', verdict: 'rejected' },
        { offsetMs: 500, recvWindow: 3000, route: 'v1/query', verdict: 'no-answer' },
      ],
    }),
    check({ id: 'SIG-REQUIRED', ruleId: 'SIG-REQUIRED', status: 'pass', routes: ['batch/json'] }),
    check({
      id: 'BATCH-ATOMICITY',
      ruleId: 'BATCH-ATOMICITY',
      status: 'info',
      level: 'INFO',
      observed: 'all-or-nothing',
    }),
  ];
  return {
    tool: { name: 'spotcheck', version: '0.1.0' },
    target: 'http://127.0.0.1:1/<script>alert(1)</script>',
    profile: 'core',
    seed: 7,
    runs: 5,
    startedAt: '2026-11-24T00:00:00.000Z',
    durationMs: 1234,
    requests: 42,
    clock: { method: 'date-header', offsetMs: 12, uncertaintyMs: 60 },
    summary: { passed: 1, failed: 1, info: 1, skipped: 0, inconclusive: 0, mustFailures: 1 },
    discovery: {
      controls: [
        { route: 'batch/json', state: 'accepted', observed: 'HTTP 200' },
        { route: 'v1/query', state: 'accepted', observed: 'HTTP 200' },
        { route: 'v1/body', state: 'not-offered', observed: 'not offered' },
      ],
      fingerprints: { signature: 'HTTP 401 code -1022' },
    },
    traffic: {
      timed: 3,
      p50: 1,
      p90: 2,
      p99: 2,
      max: 2,
      histogram: [
        { upToMs: 1, count: 2 },
        { upToMs: 2, count: 1 },
        { upToMs: null, count: 0 },
      ],
      answers: { accepted: 2, rejected: 1 },
    },
    coverage: {
      routes: ['batch/json', 'v1/query', 'v1/body'],
      cells: [
        { rule: 'TIME-WINDOW-LEAD', route: 'batch/json', checks: ['TIME-WINDOW-LEAD'] },
        { rule: 'TIME-WINDOW-LEAD', route: 'v1/body', checks: ['TIME-WINDOW-LEAD'] },
        { rule: 'SIG-REQUIRED', route: 'batch/json', checks: ['SIG-REQUIRED'] },
        { rule: 'SIG-REQUIRED', route: 'v1/query', checks: ['SIG-REQUIRED'] },
        { rule: 'BATCH-ATOMICITY', route: 'batch/json', checks: ['BATCH-ATOMICITY'] },
        { rule: 'BATCH-EMPTY', route: 'batch/json', checks: [], explained: 'seen once' },
      ],
      totals: { cells: 6, covered: 5, explained: 1, missing: 0 },
    },
    checks,
  };
}

/** The ids a page defines and the fragment links it holds. */
function anchors(html: string): { ids: Set<string>; hrefs: string[] } {
  const unq = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return {
    ids: new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => unq(m[1] ?? ''))),
    hrefs: [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => unq(m[1] ?? '')),
  };
}

describe('reportCells', () => {
  it('reads each cell from its checks, the route controls and the coverage explanations', () => {
    const cells = reportCells(sampleReport());
    const at = (rule: string, route: string) => cells.cells.find((c) => c.rule === rule && c.route === route)?.status;
    expect(at('TIME-WINDOW-LEAD', 'batch/json')).toBe('fail');
    expect(at('TIME-WINDOW-LEAD', 'v1/body')).toBe('not-offered');
    expect(at('SIG-REQUIRED', 'batch/json')).toBe('pass');
    // a pass that never reached v1/query with a deciding answer is no pass there
    expect(at('SIG-REQUIRED', 'v1/query')).toBe('inconclusive');
    expect(at('BATCH-ATOMICITY', 'batch/json')).toBe('info');
    expect(at('BATCH-EMPTY', 'batch/json')).toBe('explained');
  });
  it('prefers per-route verdicts a check reports itself', () => {
    const r = sampleReport();
    (r.checks[1] as CheckReport).cells = [
      { route: 'v1/query', verdict: 'fail', reason: 'accepted unsigned', requests: 1 },
    ];
    const c = reportCells(r).cells.find((x) => x.rule === 'SIG-REQUIRED' && x.route === 'v1/query');
    expect(c).toMatchObject({ status: 'fail', note: 'accepted unsigned' });
    // and the check's row shows it, the summary the counts of cells
    r.summary.cells = { pass: 3, fail: 1, inconclusive: 0, unanswered: 2, notOffered: 1 };
    expect(renderHtml(r)).toContain('Route cells: 3 pass, 1 fail, 0 inconclusive, 2 without an answer, 1 not offered.');
    expect(renderHtml(r)).toMatch(/title="v1\/query: fail \(accepted unsigned\)">v1\/query ✖</);
  });
});

describe('renderHtml', () => {
  const html = renderHtml(sampleReport());

  it('is one page with no script, nothing fetched, and escaped text', () => {
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain("default-src 'none'");
  });
  it('links only inside itself, and every link has its target', () => {
    const { ids, hrefs } = anchors(html);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const h of hrefs) {
      expect(h.startsWith('#'), h).toBe(true);
      expect(ids.has(h.slice(1)), h).toBe(true);
    }
  });
  it('shows the verdict, every part of a failure, and a grid cell per coverage cell linking to its check', () => {
    expect(html).toContain('FAIL: 1 MUST-level failure');
    const failure = html.slice(html.indexOf('id="failure-TIME-WINDOW-LEAD"'));
    for (const part of [
      'Expected',
      'Actual',
      'Counterexample',
      'Replay',
      'curl',
      'timestamp &lt; serverTime + 1000',
      'spotcheck replay --seed 7',
      '$SPOTCHECK_SECRET',
      'HTTP 200 code 0 &lt;b&gt;',
    ])
      expect(failure).toContain(part);
    expect(html.match(/<td class="s-[a-z-]+" data-status=/g)?.length).toBe(4 * 3); // 4 rules x 3 routes
    expect(html).toContain(`href="#${checkAnchor('TIME-WINDOW-LEAD')}"`);
    expect(html).toMatch(/data-status="not-offered"/);
  });
  it('plots every time probe, the seed edges of each recvWindow and the clock band', () => {
    const plot = html.slice(
      html.indexOf('<svg id="time-plot"'),
      html.indexOf('</svg>', html.indexOf('<svg id="time-plot"')),
    );
    expect(plot.match(/<g class="probe /g)?.length).toBe(5);
    expect(plot.match(/class="probe refused"/g)?.length).toBe(2);
    expect(plot.match(/class="probe other"/g)?.length).toBe(1);
    expect(plot).toContain('data-recv-window="3000"');
    expect(plot).toContain('data-recv-window="5000"');
    expect(plot).toContain('clock uncertainty ± 60 ms');
    // the default window's lead edge lies between the probes at +1200 (accepted) and +3200 (refused): too wide a bracket to call measured
    expect(plot).not.toContain('data-side="lead"');
  });
  it('gives the request count, percentiles and answers', () => {
    const lat = html.slice(html.indexOf('id="latency"'));
    expect(lat).toMatch(/<td class="num">42<\/td>/);
    expect(lat).toContain('<svg id="latency-plot"');
    expect(lat).toMatch(/accepted<\/td><td class="num">2</);
  });
});

describe('spotcheck run --report-html against a faulty server with its own credentials', () => {
  const secret = `html-${randomBytes(12).toString('hex')}`;
  const apiKey = `key-${randomBytes(6).toString('hex')}`;
  let server: RunningServer;
  beforeAll(async () => {
    // A server allowing a 3 s lead and verifying a batch signature over the query only when the full one fails.
    server = await startServer({
      port: 0,
      credentials: [{ apiKey, secret, permissions: ['TRADE'] }],
      policy: {
        checkTime: (i) =>
          i.timestamp >= i.serverTime && i.timestamp < i.serverTime + 3000
            ? { accepted: true, age: i.serverTime - i.timestamp, recvWindow: i.recvWindow ?? 5000 }
            : checkTimeWindow(i),
        verifySignature: (s, steps, sig) =>
          defaultPolicy.verifySignature(s, steps, sig) ||
          (steps.body.startsWith('[') && verify(s, steps.queryWithoutSignature, sig)),
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes the page with its failures and time probes, and no spelling of the secret anywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotcheck-html-'));
    const file = join(dir, 'r.html');
    let out = '';
    const io: Io = {
      out: (s) => void (out += s),
      err: (s) => void (out += s),
      env: { SPOTCHECK_API_KEY: apiKey, SPOTCHECK_SECRET: secret },
    };
    const code = await main(
      [
        'run',
        '--base-url',
        server.url,
        '--only',
        'TIME-WINDOW-LEAD,SIG-BODY,TIME-WINDOW-PAST',
        '--runs',
        '5',
        '--seed',
        '11',
        '--report-html',
        file,
        '--report-json',
        join(dir, 'r.json'),
      ],
      io,
      conformanceCommands,
    );
    expect(code).toBe(1);
    const html = readFileSync(file, 'utf8');
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(
      expect.arrayContaining(['TIME-WINDOW-LEAD', 'SIG-BODY-COVERED']),
    );
    for (const c of report.checks.filter((x) => x.status === 'fail')) {
      expect(html).toContain(`id="failure-${c.id}"`);
      expect(c.reproduce).toBeDefined();
    }
    const probes = report.checks.flatMap((c) => c.timeProbes ?? []);
    expect(probes.length).toBeGreaterThan(10);
    expect(html.match(/<g class="probe /g)?.length).toBe(probes.length);
    for (const spelling of secretSpellings(secret)) {
      expect(html.includes(spelling), `the HTML report holds the secret as ${spelling}`).toBe(false);
      expect(out.includes(spelling)).toBe(false);
    }
  });
});
