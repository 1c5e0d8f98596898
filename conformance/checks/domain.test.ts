/**
 * The domain checks send the whole catalogue (spec/domain.json) every run: every form of
 * every input over 20 seeds, routes rotating with the seed; against the reference server they
 * pass, and a server with one lenient reader fails the rule of that form's input.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstServer } from '../../harness/selftest.js';
import { mustFailures, runVenue } from '../../harness/strangers/run-venue.js';
import { acceptedPlan, domainCatalogue, invalidPlan, lenientPlan, openPlan, routesFor } from '../judgement/domain.js';
import { routeKey } from '../engine/requests.js';
import { domainChecks } from './domain.js';
import { readAs } from '../../harness/lenient-parsers.js';
import { runVariant } from '../../harness/run-variant.js';
import { reportCells } from '../report/cells.js';
import { renderConsole } from '../report/console.js';
import { renderJunit } from '../report/junit.js';
import { renderHtml } from '../report/html.js';
import { DEFAULT_RUNS } from '../cli/run.js';
import type { RunReport } from '../judgement/types.js';
import { reportValidator } from '../../harness/testing/report-schema.js';

const validateReport = reportValidator();

const cat = domainCatalogue();

/** The seed of the domain checks' runs against the reference server. */
const DOMAIN_SEED = 9;
const domainRuns = new Map<number, Promise<RunReport>>();
/** The domain checks alone against the reference server at `runs`, one run per count for the tests reading it. */
function domainRun(runs: number): Promise<RunReport> {
  let run = domainRuns.get(runs);
  if (run === undefined) {
    run = runAgainstServer({}, { runs, seed: DOMAIN_SEED, concurrency: 4, only: domainChecks.map((c) => c.id) });
    domainRuns.set(runs, run);
  }
  return run;
}

describe('the domain plan: every form class of every input, every run', () => {
  it('over 20 seeds, each run sends every form once at least (invalid ones alone), element forms in batches of 20 and 21', () => {
    const routesSeen = new Map<string, Set<string>>();
    for (let seed = 1; seed <= 20; seed++) {
      const invalid = invalidPlan(seed);
      const sent = new Set([
        ...invalid.map((p) => p.form.id),
        ...openPlan(seed).map((p) => p.form.id),
        ...lenientPlan(seed).map((p) => p.form.id),
        ...acceptedPlan(seed).flatMap((a) => a.forms.map((f) => f.id)),
      ]);
      expect(cat.forms.filter((f) => !sent.has(f.id)).map((f) => f.id)).toEqual([]);
      // each class of each input
      for (const input of cat.inputs)
        for (const cls of ['canonical', 'unusual', 'invalid'])
          expect(
            cat.forms.some((f) => f.input === input.id && f.class === cls && sent.has(f.id)),
            `${seed} ${input.id} ${cls}`,
          ).toBe(true);
      // every probe of an invalid form carries that one form, on a route it can travel
      for (const p of invalid) {
        expect(routesFor(p.form).map(routeKey)).toContain(routeKey(p.route));
        const s = routesSeen.get(p.form.id) ?? new Set();
        s.add(routeKey(p.route));
        routesSeen.set(p.form.id, s);
      }
      for (const f of cat.forms.filter((x) => x.input === 'element' && x.class === 'invalid'))
        expect(invalid.filter((p) => p.form.id === f.id).map((p) => p.size)).toEqual([20, 21]);
      // valid forms combine: fewer accepted requests than valid forms
      const accepted = acceptedPlan(seed);
      expect(accepted.length).toBeLessThan(accepted.flatMap((a) => a.forms).length);
    }
    // routes rotate with the seed: a form that can travel on every route reaches several
    const rotating = [...routesSeen.values()].filter((s) => s.size >= 3).length;
    expect(rotating).toBeGreaterThan(100);
  });

  it('is a fixed plan: as many probes for every seed, within the default run budget, whatever --runs', async () => {
    const size = (seed: number) => invalidPlan(seed).length + openPlan(seed).length + acceptedPlan(seed).length;
    const sizes = new Set(Array.from({ length: 20 }, (_, i) => size(i + 1)));
    expect([...sizes]).toHaveLength(1);
    expect(size(1)).toBeLessThan(450);
    const [few, many] = await Promise.all([domainRun(1), domainRun(DEFAULT_RUNS)]);
    expect(many.requests).toBe(few.requests);
  });

  it('names each check by a catalog rule, with no duplicate check ID', () => {
    const ids = domainChecks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('ORDER-DECIMAL-FORMAT.domain');
    expect(ids).toContain('BATCH-MAX-ORDERS.domain');
  });
});

describe.concurrent('the domain checks against servers', () => {
  it('a venue storing client ids lower-cased fails RESULT-CLIENT-ORDER-ID-ECHO.domain on the unusual ids it was sent', async () => {
    const { report } = await runVenue(
      {},
      { lowerCaseIds: true },
      { only: ['RESULT-CLIENT-ORDER-ID-ECHO.domain', 'ORDER-CLIENT-ID-LENGTH.domain-unusual'] },
    );
    expect(mustFailures(report)).toEqual(['RESULT-CLIENT-ORDER-ID-ECHO.domain']);
    const clean = await runVenue(
      {},
      {},
      { only: ['RESULT-CLIENT-ORDER-ID-ECHO.domain', 'ORDER-CLIENT-ID-LENGTH.domain-unusual'] },
    );
    expect(mustFailures(clean.report)).toEqual([]);
  });

  it('the reference server passes every domain check, and the INFO forms report its own reading', async () => {
    const all = await domainRun(DEFAULT_RUNS);
    const mine = all.checks.filter((c) => c.id.includes('.domain'));
    expect(mine.length).toBe(domainChecks.length);
    expect(
      mine.filter((c) => c.status !== 'pass' && c.status !== 'info').map((c) => `${c.id}: ${c.actual ?? c.reason}`),
    ).toEqual([]);
    const invalidChecks = new Set(invalidPlan(DOMAIN_SEED).map((p) => `${p.ruleId}.domain`));
    const sent = mine.filter((c) => invalidChecks.has(c.id)).reduce((n, c) => n + (c.runs ?? 0), 0);
    expect(sent).toBe(invalidPlan(DOMAIN_SEED).length);
  });
});

describe('a per-input check that fails lists every failing form, and its route cells agree', () => {
  it('a recvWindow read with parseInt fails ORDER-RECVWINDOW-FORMAT.domain on each form it cuts short, each named, on failing route cells', async () => {
    // parseInt("5000.0"), parseInt("5000abc"), parseInt("5000L"), parseInt("5000,5000"): all 5000
    const parseIntReader = readAs('recvWindow', (v) =>
      /^[0-9]+[.a-zA-Z,]/.test(v) ? String(Number.parseInt(v, 10)) : undefined,
    );
    const report = await runVariant(
      parseIntReader,
      {},
      { serverSeed: 3, seed: 5, runs: 3, only: ['ORDER-RECVWINDOW-FORMAT.domain'] },
    );
    const c = report.checks.find((x) => x.id === 'ORDER-RECVWINDOW-FORMAT.domain');
    expect(c?.status).toBe('fail');
    const forms = (c?.failures ?? []).flatMap((f) => f.forms);
    expect(forms).toEqual(
      expect.arrayContaining(['recvWindow.fraction-zero', 'recvWindow.trailing-garbage', 'recvWindow.long-suffix']),
    );
    expect(c?.actual).toContain(`and ${forms.length - 1} more failing forms`);
    // every failing form's route is a failing cell of the check, of the summary and of the rule x route grid
    const failingRoutes = new Set((c?.failures ?? []).map((f) => f.route));
    expect(
      (c?.cells ?? [])
        .filter((x) => x.verdict === 'fail')
        .map((x) => x.route)
        .sort(),
    ).toEqual([...failingRoutes].sort());
    expect(report.summary.cells?.fail).toBe(failingRoutes.size);
    const grid = reportCells(report).cells.filter((x) => x.rule === 'ORDER-RECVWINDOW-FORMAT' && x.status === 'fail');
    expect(grid.map((x) => x.route).sort()).toEqual(
      [...failingRoutes].filter((r) => grid.some((g) => g.route === r)).sort(),
    );
    expect(grid.length).toBeGreaterThan(0);
    // the console, the JSON schema and JUnit carry every form
    const text = renderConsole(report, { color: false });
    expect(text).toContain(`Every failing form (${forms.length}):`);
    for (const f of forms) expect(text).toContain(f);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(renderJunit(report)).toContain(`Every failing form (${forms.length}):`);
    const html = renderHtml(report);
    expect(html).toContain(`Every failing form (${forms.length})`);
    for (const f of forms) expect(html).toContain(`<code>${f}</code>`);
  });
});
