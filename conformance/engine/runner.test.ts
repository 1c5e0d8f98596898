import { describe, expect, it } from 'vitest';
import { runAgainstServer } from '../../harness/selftest.js';
import { checks } from '../checks/index.js';
import { rules } from '../../src/rules.js';
import { selectChecks } from './runner.js';
import { DEFAULT_RUNS, LOOPBACK_CONCURRENCY } from '../cli/run.js';
import { mutants } from '../../harness/mutants.js';
import { defaultPolicy } from '../../src/server/policy.js';
import type { RunReport } from '../judgement/types.js';
import { renderConsole } from '../report/console.js';
import { reportValidator } from '../../harness/testing/report-schema.js';

const validateReport = reportValidator();

/**
 * The checks of a run that report another level than spec/rules.json gives their rule with no
 * written reason: only a check whose definition sets its level with a `levelReason` may, and, in
 * the reference profile, an open point pinned by spec/decisions.md that the server answered
 * otherwise (failed at MUST, its Expected naming the profile).
 */
function silentLevels(r: RunReport): string[] {
  const byId = new Map(checks.map((c) => [c.id, c]));
  return r.checks.flatMap((c) => {
    const ruleLevel = rules().get(c.ruleId)?.level;
    if (c.level === ruleLevel) return [];
    const def = byId.get(c.id);
    if (def?.levelReason !== undefined && c.level === def.level) return [];
    const pinned =
      r.profile === 'reference' &&
      c.status === 'fail' &&
      c.level === 'MUST' &&
      /reference profile/.test(c.expected ?? '');
    return pinned ? [] : [`${c.id}: reported at ${c.level}, its rule ${c.ruleId} is ${ruleLevel} in spec/rules.json`];
  });
}

/** One whole run against the reference server at the defaults, shared by the tests reading it. */
let referenceRun: Promise<RunReport> | undefined;
const wholeReferenceRun = (): Promise<RunReport> =>
  (referenceRun ??= runAgainstServer(
    {},
    { runs: DEFAULT_RUNS, concurrency: LOOPBACK_CONCURRENCY, profile: 'reference' },
  ));

/** The JSON-body mutant's SIG-, BATCH- and RESULT- run at 16 requests at once, shared by the tests reading it. */
const bodyMutant = mutants.find((m) => m.name.startsWith('JSON body not covered'))?.options ?? {};
const VERDICT_CHECKS = ['SIG-', 'BATCH-', 'RESULT-'];
let mutantRun: Promise<RunReport> | undefined;
const sixteenAtOnceOnMutant = (): Promise<RunReport> =>
  (mutantRun ??= runAgainstServer(bodyMutant, { runs: 8, seed: 3, only: VERDICT_CHECKS, concurrency: 16 }));

describe('the runner against clean servers', () => {
  it('passes the reference server with zero failures in the reference profile (so in the core one), at the default case count, concurrently, each check reaching the routes it declares', async () => {
    // The strictness reaches decide() only, and the reference profile adds failures to the core's (an
    // open point answered otherwise than spec/decisions.md), never removes one (decide.test.ts): one run
    // stands for both.
    const r = await wholeReferenceRun();
    expect(r.profile).toBe('reference');
    expect(r.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.actual ?? ''}`)).toEqual([]);
    expect(r.summary.passed).toBeGreaterThan(50);
    // the one check needing a declared order grid (target description) is skipped, saying so; a time-window
    // check may be too, on a loaded machine, when the clock's measured uncertainty leaves no room for its probe
    // (it says so: a skip, never a verdict that moved with the load)
    const timed = new Set(checks.filter((c) => c.timed === true).map((c) => c.id));
    const skipped = r.checks.filter((c) => c.status === 'skip');
    expect(
      skipped
        .filter((c) => !(timed.has(c.id) && /clock uncertainty .* too large/.test(c.reason ?? '')))
        .map((c) => c.id),
    ).toEqual(['RESULT-FAILED-ORDER-REPORTED.business']);
    expect(validateReport(r), JSON.stringify(validateReport.errors)).toBe(true);
    // declared coverage is real coverage: every route a check declares is one it reached with an answer that decided its rule
    const unreached = checks.flatMap((c) => {
      if (skipped.some((x) => x.id === c.id)) return [];
      const seen = new Set(r.checks.find((x) => x.id === c.id)?.routes ?? []);
      return (c.covers ?? []).filter((route) => !seen.has(route)).map((route) => `${c.id} @ ${route}`);
    });
    expect(unreached).toEqual([]);
  });

  it('gives the same verdict, check by check, one request at a time and sixteen at once', async () => {
    // a mutant whose faults surface in properties and per-route checks: it fails the body's
    // coverage and passes every other check, so both verdicts (and the shrunk counterexamples) are compared
    const one = await runAgainstServer(bodyMutant, { runs: 8, seed: 3, only: VERDICT_CHECKS, concurrency: 1 });
    const many = await sixteenAtOnceOnMutant();
    expect(many.checks.map((c) => [c.id, c.status, c.counterexample, c.runs])).toEqual(
      one.checks.map((c) => [c.id, c.status, c.counterexample, c.runs]),
    );
    const statuses = new Set(one.checks.map((c) => c.status));
    expect([statuses.has('pass'), statuses.has('fail')]).toEqual([true, true]);
    expect(one.checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(20);
  });

  it('sends each generated valid batch once for all the checks that judge it (RESULT, SCHEMA, BATCH-ACCEPT-UP-TO-MAX), each still earning its verdict', async () => {
    const one = await runAgainstServer({}, { runs: 10, seed: 4, only: ['RESULT-TOP-CODE'] });
    const three = await runAgainstServer(
      {},
      {
        runs: 10,
        seed: 4,
        only: ['RESULT-TOP-CODE', 'RESULT-SUCCESS-CODE-ZERO', 'SCHEMA-BATCH-RESPONSE', 'BATCH-ACCEPT-UP-TO-MAX'],
        exclude: ['BATCH-ACCEPT-UP-TO-MAX.'],
        concurrency: 3,
      },
    );
    expect(three.requests).toBe(one.requests);
    expect(three.checks.map((c) => [c.id, c.status, c.routes]).sort()).toEqual([
      ['BATCH-ACCEPT-UP-TO-MAX', 'pass', ['batch/json']],
      ['RESULT-SUCCESS-CODE-ZERO', 'pass', ['batch/json']],
      ['RESULT-TOP-CODE', 'pass', ['batch/json']],
      ['SCHEMA-BATCH-RESPONSE', 'pass', ['batch/json']],
    ]);
  });

  it('passes the core profile against a server answering rejections with HTTP 200 and a non-zero code', async () => {
    const r = await runAgainstServer({ errorStyle: 'code-only' }, { runs: 8 });
    expect(r.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.actual ?? ''}`)).toEqual([]);
  });

  for (const skewMs of [4000, -3500]) {
    it(`passes the time checks against a server whose clock is off by ${skewMs} ms`, async () => {
      const r = await runAgainstServer({ clock: () => Date.now() + skewMs }, { only: ['TIME'], runs: 5 });
      expect(
        r.checks
          .filter((c) => c.status !== 'pass' && c.status !== 'info')
          .map((c) => `${c.id}: ${c.status} ${c.actual ?? c.reason ?? ''}`),
      ).toEqual([]);
      expect(Math.abs((r.clock.offsetMs ?? 0) - skewMs)).toBeLessThan(300);
    });
  }

  it('reference profile fails a server whose open-point behaviour differs from the decisions record', async () => {
    const r = await runAgainstServer(
      {
        errorStyle: 'code-only',
        policy: { validateBatch: (b) => (Array.isArray(b) && b.length === 0 ? [] : defaultPolicy.validateBatch(b)) },
      },
      {
        profile: 'reference',
        only: ['BATCH-EMPTY'],
      },
    );
    expect(r.checks.find((c) => c.id === 'BATCH-EMPTY')?.status).toBe('fail');
  });
});

describe("the console of a whole run at the defaults (npm start's, the reference server)", () => {
  it('stays under 20 KB with its progress lines, no line over 400 characters, each INFO line saying what in one line', async () => {
    // the run shared with the tests above (a second whole run beside the suite's other time-sensitive
    // runs starved their clock measurements on two cores); npm start prints this text on stdout, and at
    // most one progress line per tenth of the checks on stderr (under 160 characters each)
    const r = await wholeReferenceRun();
    const text = renderConsole(r, { color: false });
    const progress = 11 * 160;
    const lines = text.split('\n');
    const longest = lines.reduce((a, l) => (l.length > a.length ? l : a), '');
    const bytes = Buffer.byteLength(text);
    expect(
      { bytes: bytes + progress < 20_000, longest: longest.length <= 400 },
      `${bytes} bytes; longest: ${longest}`,
    ).toEqual({
      bytes: true,
      longest: true,
    });
    const info = lines.filter((l) => l.startsWith('  i '));
    expect(info.length).toBe(r.checks.filter((c) => c.status === 'info').length);
    for (const l of info) expect(l, l).toMatch(/^ {2}i \S+ \[INFO, §[\d.]+\] \S/);
  });
});

describe('levels as reported', () => {
  it("every check of a run reports its rule's level of spec/rules.json, unless its definition writes why not (levelReason)", async () => {
    // a whole run of every check, a faulty server's failures (core profile) and a pinned open point (reference profile)
    const whole = await wholeReferenceRun();
    expect(whole.checks.length).toBe(checks.length);
    expect(silentLevels(whole)).toEqual([]);
    // the faulty server's run of the test above (one at a time and sixteen at once give the same verdicts)
    const failing = await sixteenAtOnceOnMutant();
    expect(failing.checks.some((c) => c.status === 'fail' && c.level === 'MUST')).toBe(true);
    expect(silentLevels(failing)).toEqual([]);
    const pinned = await runAgainstServer(
      { policy: { validateBatch: (b) => (Array.isArray(b) && b.length === 0 ? [] : defaultPolicy.validateBatch(b)) } },
      { profile: 'reference', only: ['BATCH-EMPTY'] },
    );
    expect(pinned.checks.find((c) => c.id === 'BATCH-EMPTY')).toMatchObject({ status: 'fail', level: 'MUST' });
    expect(silentLevels(pinned)).toEqual([]);
  });

  it('a check reporting another level than its rule without a written reason is named', async () => {
    const whole = await wholeReferenceRun();
    const quiet = whole.checks.find((c) => checks.find((d) => d.id === c.id)?.levelReason === undefined);
    expect(quiet).toBeDefined();
    const other = quiet?.level === 'MUST' ? 'INFO' : 'MUST';
    const moved = {
      ...whole,
      checks: whole.checks.map((c) => (c === quiet ? { ...c, level: other } : c)),
    } as RunReport;
    expect(silentLevels(moved)).toEqual([
      `${quiet?.id}: reported at ${other}, its rule ${quiet?.ruleId} is ${quiet?.level} in spec/rules.json`,
    ]);
  });
});

describe('the check catalogue', () => {
  it('every check names a catalog rule and a unique ID that starts with its rule ID', () => {
    const ids = checks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of checks) {
      expect(rules().has(c.ruleId), c.ruleId).toBe(true);
      expect(c.id === c.ruleId || c.id.startsWith(`${c.ruleId}.`), c.id).toBe(true);
    }
  });

  it("a level other than the catalog rule's is data with its written reason; a reason without such a level is a stale one", () => {
    for (const c of checks) {
      const differs = c.level !== undefined && c.level !== rules().get(c.ruleId)?.level;
      expect(c.levelReason !== undefined, c.id).toBe(differs);
    }
  });

  it('--only selects by rule or check ID prefix and keeps runLast checks at the end', () => {
    expect(selectChecks(checks, ['SIG-PLACEMENT']).every((c) => c.ruleId.startsWith('SIG-PLACEMENT'))).toBe(true);
    const all = selectChecks(checks, []);
    expect(all.at(-1)?.runLast).toBe(true);
  });
});
