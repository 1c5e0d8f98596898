/**
 * The run's report from its decisions (conformance/judgement/decide.ts): every section reads the one
 * decision of each check and its typed cause, never a reason's text.
 */
import { rule } from '../../src/rules.js';
import { kitVersion } from '../../src/paths.js';
import { routeKey } from '../engine/requests.js';
import { curlFor } from './curl.js';
import { commandLine, replayArgv } from './reproduce.js';
import { coverageMatrix } from '../judgement/coverage.js';
import { summariseTraffic } from '../engine/traffic.js';
import type { ClockEstimate } from '../engine/clock.js';
import { decide, type CheckRecord, type Decision, type RunFacts } from '../judgement/decide.js';
import { meets } from '../judgement/exhaustion.js';
import type { Discovery } from '../engine/discovery.js';
import type { Exchange, Transport } from '../engine/transport.js';
import type { TargetProfile } from '../target/description.js';
import type { CheckDefinition, CheckReport, DiscoveryReport, RunReport, Strictness } from '../judgement/types.js';

/** The discovery section of the report. */
export function discoveryReport(d: Discovery): DiscoveryReport {
  const f = d.fingerprints;
  const fp = (p: { fingerprint?: string; observed: string } | undefined) => p?.fingerprint ?? p?.observed;
  const fingerprints: DiscoveryReport['fingerprints'] = {};
  const sig = fp(f.signature);
  const key = fp(f.unknownKey);
  const stale = fp(f.stale);
  const missing = (f.missing ?? []).map(fp).filter((x): x is string => x !== undefined);
  if (missing.length > 0) fingerprints.missing = missing;
  if (sig !== undefined) fingerprints.signature = sig;
  if (key !== undefined) fingerprints.unknownKey = key;
  if (stale !== undefined) fingerprints.stale = stale;
  return {
    controls: d.controls.map((c) => ({ route: routeKey(c.route), state: c.state, observed: c.observed })),
    fingerprints,
  };
}

/** A check's report from its decision. */
export function checkReport(
  def: CheckDefinition,
  d: Decision,
  extra: {
    durationMs: number;
    baseUrl: string;
    seed: number;
    replayArgs?: readonly string[];
    timeProbes?: CheckReport['timeProbes'];
  },
): CheckReport {
  const r = rule(def.ruleId);
  const { failing, cause, ...found } = d;
  const rep: CheckReport = {
    id: def.id,
    ruleId: def.ruleId,
    family: r.family,
    title: def.title,
    section: r.section,
    requirement: r.sentence,
    durationMs: Math.round(extra.durationMs),
    ...found,
    ...(cause === undefined ? {} : { cause }),
  };
  if (rep.status === 'fail' && failing !== undefined && 'request' in failing)
    rep.reproduce = curlFor(extra.baseUrl, failing as Exchange);
  if (extra.timeProbes !== undefined && extra.timeProbes.length > 0) rep.timeProbes = extra.timeProbes;
  if (rep.status === 'fail' && extra.replayArgs !== undefined)
    rep.replay = `spotcheck ${commandLine(replayArgv(extra.seed, def.id, extra.replayArgs))}`;
  return rep;
}

/** What one check's run left beside its record: the refusals it met, its time probes. */
export interface CheckTrace {
  marks: string[];
  timeProbes: CheckReport['timeProbes'];
}

/**
 * The run's records, one per selected check (by index), until the one decision of each
 * (design notes, "Evidence first, verdict last"): `excuse` gives a failure the account's refusal
 * a control pair showed later, `decideAll` decides every record once with the run's final facts.
 */
export function createRecordBook(
  selected: readonly CheckDefinition[],
  at: { baseUrl: string; seed: number; replayArgs?: readonly string[] },
) {
  const records: Array<CheckRecord | undefined> = new Array(selected.length);
  const traces: Array<CheckTrace | undefined> = [];
  const reportOf = (i: number, d: Decision): CheckReport => {
    const timeProbes = traces[i]?.timeProbes;
    return checkReport(selected[i] as CheckDefinition, d, {
      durationMs: records[i]?.durationMs ?? 0,
      baseUrl: at.baseUrl,
      seed: at.seed,
      ...(at.replayArgs === undefined ? {} : { replayArgs: at.replayArgs }),
      ...(timeProbes === undefined ? {} : { timeProbes }),
    });
  };
  return {
    record(i: number, rec: CheckRecord, trace?: CheckTrace): void {
      records[i] = rec;
      traces[i] = trace;
    },
    /** A check kept from running (the deadline, a target that stopped answering, the run stopped): skipped, with its cause. */
    notRun(i: number, reason: string, cause: NonNullable<CheckRecord['notRun']>['cause'] = 'deadline'): void {
      records[i] = {
        def: selected[i] as CheckDefinition,
        evidence: [],
        withheld: 0,
        cut: 0,
        effects: { shown: 0, methods: [] },
        durationMs: 0,
        notRun: { cause, reason },
      };
    },
    /** The check's report, decided with the facts known now (--fail-fast asks before the run ends). */
    decided: (i: number, facts: RunFacts): CheckReport => reportOf(i, decide(records[i] as CheckRecord, facts)),
    /**
     * A refusal valid orders were later shown (by a control pair) to meet is the account's: a
     * failure whose refusals meet it is excused by it (the refusals it met along the way, or the
     * refusal it rests on, whole call or batch entries, when that moment's controls were placed:
     * a larger order meets a balance the cheapest ones still fit in; exhaustion.ts excusableMarks).
     */
    excuse(spent: { mark: string; reason: string } | undefined): void {
      if (spent === undefined) return;
      for (const [i, rec] of records.entries())
        if (rec?.outcome?.status === 'fail' && rec.business === undefined && meets(traces[i]?.marks ?? [], spent.mark))
          rec.business = { mark: spent.mark, reason: spent.reason };
    },
    /** Whether check `i` has a record (it ran, or was marked not run). */
    has: (i: number): boolean => records[i] !== undefined,
    /** Every recorded check decided once, in selection order; `onCheck` with each report. */
    decideAll(facts: RunFacts, onCheck?: (r: CheckReport) => void): CheckReport[] {
      const reports: CheckReport[] = [];
      for (const [i, rec] of records.entries()) {
        if (rec === undefined) continue;
        const r = reportOf(i, decide(rec, facts));
        reports.push(r);
        onCheck?.(r);
      }
      return reports;
    },
  };
}

/** The checks' route cells by verdict, for the summary. */
function cellCounts(reports: readonly CheckReport[]): NonNullable<RunReport['summary']['cells']> {
  const n = { pass: 0, fail: 0, inconclusive: 0, unanswered: 0, notOffered: 0 };
  for (const c of reports.flatMap((r) => r.cells ?? [])) {
    if (c.verdict === 'not-offered') n.notOffered++;
    else n[c.verdict]++;
  }
  return n;
}

/** MUST checks left undecided on a route the target offers (undecided is not passed: the run is incomplete). */
export function incompleteMust(reports: readonly CheckReport[]): CheckReport[] {
  return reports.filter((r) => r.status === 'inconclusive' && r.level === 'MUST' && r.cause !== 'not-offered');
}

/** The run's settings a report repeats (conformance/engine/runner.ts RunOptions). */
export interface RunSettings {
  target: { baseUrl: string };
  profile: Strictness;
  seed: number;
  runs: number;
  maxTimeMs?: number;
  replayArgs?: readonly string[];
  checks?: readonly CheckDefinition[];
}

export interface RunFactsForReport {
  opts: RunSettings;
  started: number;
  clock: ClockEstimate;
  transport: Transport;
  /** The run's sender's traffic: latencies and answers by kind. */
  traffic: { latencies: readonly number[]; answers: Readonly<Record<string, number>> };
  discovery: Discovery;
  learned: ReadonlyArray<{ route: string; refusal: string }>;
  unanswered: { count: number; probes: string[] };
  orders: { maxOrders: number; placed: number; withheld: number };
  exhausted?: string;
  target: TargetProfile;
  stopped?: RunReport['stopped'];
  /** The deadline in force: --max-time, or the default one (ms from the start). */
  deadlineMs?: number;
}

/** The whole run's report. */
export function buildReport(reports: CheckReport[], f: RunFactsForReport): RunReport {
  const count = (s: CheckReport['status']) => reports.filter((r) => r.status === s).length;
  const notRunBy = (cause: string) => reports.filter((r) => r.status === 'skip' && r.cause === cause);
  const budgetSkips = notRunBy('budget');
  const inconclusiveByCause: Record<string, number> = {};
  for (const r of reports)
    if (r.status === 'inconclusive')
      inconclusiveByCause[r.cause ?? 'check'] = (inconclusiveByCause[r.cause ?? 'check'] ?? 0) + 1;
  return {
    tool: { name: 'spotcheck', version: kitVersion() ?? '0.0.0' },
    target: f.opts.target.baseUrl,
    profile: f.opts.profile,
    seed: f.opts.seed,
    runs: f.opts.runs,
    startedAt: new Date(f.started).toISOString(),
    durationMs: Date.now() - f.started,
    requests: f.transport.count(),
    clock: {
      method: f.clock.method,
      ...(f.clock.offsetMs === undefined ? {} : { offsetMs: f.clock.offsetMs }),
      ...(f.clock.uncertaintyMs === undefined ? {} : { uncertaintyMs: f.clock.uncertaintyMs }),
      ...(f.clock.note === undefined ? {} : { note: f.clock.note }),
    },
    summary: {
      passed: count('pass'),
      failed: count('fail'),
      info: count('info'),
      skipped: count('skip'),
      inconclusive: count('inconclusive'),
      mustFailures: reports.filter((r) => r.status === 'fail' && r.level === 'MUST').length,
      cells: cellCounts(reports),
      inconclusiveByCause,
      incompleteMust: incompleteMust(reports).map((r) => r.id),
    },
    unanswered: { count: f.unanswered.count, probes: f.unanswered.probes, ...f.transport.wait() },
    discovery: { ...discoveryReport(f.discovery), ...(f.learned.length === 0 ? {} : { learned: [...f.learned] }) },
    traffic: summariseTraffic([...f.traffic.latencies], { ...f.traffic.answers }),
    rateLimits: f.transport.rateLimits(),
    ...((f.opts.maxTimeMs ?? f.deadlineMs) === undefined
      ? {}
      : {
          deadline: {
            maxTimeMs: (f.opts.maxTimeMs ?? f.deadlineMs) as number,
            ...(f.opts.maxTimeMs === undefined ? { default: true as const } : {}),
            reached: f.transport.cutByDeadline() > 0,
            checksNotRun: notRunBy('deadline').map((r) => r.id),
            requestsNotSent: f.transport.cutByDeadline(),
          },
        }),
    orders: {
      ...(Number.isFinite(f.orders.maxOrders) ? { maxOrders: f.orders.maxOrders } : {}),
      placed: f.orders.placed,
      requestsNotSent: f.orders.withheld,
      checksNotRun: budgetSkips.map((r) => r.id),
      mustNotRun: budgetSkips.filter((r) => r.level === 'MUST').length,
    },
    ...(f.exhausted === undefined ? {} : { exhausted: f.exhausted }),
    deviations: f.target.deviations,
    coverage: coverageMatrix(f.opts.checks ?? []),
    ...(f.opts.replayArgs === undefined ? {} : { replayArgs: [...f.opts.replayArgs] }),
    ...(f.stopped === undefined ? {} : { stopped: f.stopped }),
    checks: reports,
  };
}
