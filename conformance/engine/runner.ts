/**
 * The conformance runner: a short list of phases over the run's session (design notes,
 * "Evidence first, verdict last"): the clock, discovery, the checks (each recording evidence),
 * effects, one decision per check once the run's knowledge is final, the report.
 */
import type { Dispatcher } from 'undici';
import { SpotcheckError } from '../../src/core/errors.js';
import { anyUsable, discover, explainNothingAccepted } from './discovery.js';
import { resolveDescription, type TargetProfile } from '../target/description.js';
import { limitParams, oneOrder } from '../checks/orders.js';
import { unknownClock } from './clock.js';
import { startRunClock } from './run-clock.js';
import { curlFor, NO_TRADE_SECRET_VAR } from '../report/curl.js';
import { checks as allChecks } from '../checks/index.js';
import { clientIdSource } from './generators.js';
import { createRequestFactory, routeKey, type RequestFactory, type Route } from './requests.js';
import { createTransport, TARGET_DOWN_REASON, type Place, type Silence } from './transport.js';
import { createOrderBudget, type ShareState } from './budget.js';
import {
  createCheckSession,
  createRunSender,
  createRunServices,
  plainSender,
  RunInterrupted,
  type Learning,
} from './session.js';
import { createProgress, OVERDUE_MS, schedule } from './scheduler.js';
import { excusableMarks } from '../judgement/exhaustion.js';
import type { CheckRecord, RunFacts } from '../judgement/decide.js';
import { buildReport, createRecordBook, discoveryReport } from '../report/run-report.js';
import type { CheckContext, CheckDefinition, CheckReport, Strictness, RunReport, Target } from '../judgement/types.js';
import type { EvidenceEvent } from '../report/files.js';

export interface RunOptions {
  target: Target;
  profile: Strictness;
  seed: number;
  /** Generated cases per property (default 100). */
  runs: number;
  /** Requests per second; 0 = unlimited. */
  rate: number;
  timeoutMs: number;
  /** After repeated silence the wait per request shortens to no less than this, ms (default 2000: conformance/engine/transport.ts). */
  minShortenedWaitMs?: number;
  /** Rule-ID or check-ID prefixes to run (empty: all). */
  only: readonly string[];
  /** Stop placing orders once this many were accepted (Infinity: no cap). Enforced per request, shared fairly between checks. */
  maxOrders: number;
  /** The check list (default: all checks). */
  checks?: readonly CheckDefinition[];
  dispatcher?: Dispatcher;
  /**
   * Whole-run deadline, ms from the start (`--max-time`; default none). Past it nothing
   * more is sent; checks not run, or cut short without a failure, end as `skip` with
   * the reason, and the report is written as usual.
   */
  maxTimeMs?: number;
  /** Largest response body read per request, bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** The run's target settings as arguments (conformance/report/reproduce.ts targetArgv): failures then carry a replay line. */
  replayArgs?: readonly string[];
  /** Rule-ID or check-ID prefixes to leave out (`--exclude`). */
  exclude?: readonly string[];
  /** Called with each check's evidence as its probes end, before any verdict (NDJSON streaming). */
  onEvidence?: (info: EvidenceEvent) => void;
  /** Called with each check's report once the run has decided (NDJSON streaming). */
  onCheck?: (report: CheckReport) => void;
  /** Called with each check's record (its evidence, each probe's request and expectation) as it ends: the kit's own tests read it. */
  onRecord?: (rec: CheckRecord) => void;
  /** A new connection pool to the target, like `dispatcher` (TLS settings included): the liveness probe's fresh connection. */
  freshDispatcher?: () => Dispatcher;
  /** Which signal stopped the run when `signal` aborted (SIGINT, SIGTERM, SIGHUP), for the reports. */
  stoppedBy?: () => string | undefined;
  /** Stop after this check (`--fail-fast`): the remaining checks are not run. */
  stopAfter?: (report: CheckReport) => boolean;
  /** Aborted (Ctrl-C): the check under way is abandoned at its next request and the report covers the checks that ended. */
  signal?: AbortSignal;
  /**
   * Checks in flight at once, and requests in flight over the whole run (a global cap on
   * the checks' route probes and property cases too; default 1). Timed checks (the time
   * window) run one at a time beside the others, their requests first in the queue.
   */
  concurrency?: number;
  /** Progress events for the console. */
  onProgress?: (p: { done: number; total: number; current?: string; requests: number }) => void;
}

/** Whether a check's ID or rule ID starts with one of the prefixes. */
function matches(c: CheckDefinition, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => c.id === p || c.id.startsWith(p) || c.ruleId.startsWith(p));
}

/** The prefixes that match no check of the list (a typo in `--only` or `--exclude`). */
export function unmatched(list: readonly CheckDefinition[], prefixes: readonly string[]): string[] {
  return prefixes.filter((p) => !list.some((c) => matches(c, [p])));
}

/** The checks an `--only` list selects less those an `--exclude` list names, `runLast` ones at the end. */
export function selectChecks(
  list: readonly CheckDefinition[],
  only: readonly string[],
  exclude: readonly string[] = [],
): CheckDefinition[] {
  const picked = (only.length === 0 ? [...list] : list.filter((c) => matches(c, only))).filter(
    (c) => !matches(c, exclude),
  );
  return [...picked.filter((c) => !c.runLast), ...picked.filter((c) => c.runLast)];
}

/** The phases of a run, over its session: clock, discovery, checks, effects, decide, report. */
export async function runConformance(opts: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const selected = selectChecks(opts.checks ?? allChecks, opts.only, opts.exclude ?? []);
  const profile = opts.target.profile ?? resolveDescription({});
  const budget = createOrderBudget(opts.maxOrders, profile.account?.orders);
  const width = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const transport = createTransport({
    baseUrl: opts.target.baseUrl,
    rate: opts.rate,
    concurrency: width,
    overdue: { afterMs: OVERDUE_MS, priority: 1 },
    timeoutMs: opts.timeoutMs,
    ...(opts.minShortenedWaitMs === undefined ? {} : { minShortenedWaitMs: opts.minShortenedWaitMs }),
    ...(opts.maxTimeMs === undefined ? {} : { deadline: started + opts.maxTimeMs }),
    ...(opts.maxBodyBytes === undefined ? {} : { maxBodyBytes: opts.maxBodyBytes }),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    startedAt: started,
    liveness: opts.freshDispatcher === undefined ? {} : { fresh: opts.freshDispatcher },
  });
  const ep = profile.endpoints;
  const progress = createProgress(selected.length, () => transport.count(), opts.onProgress);
  const run = createRunSender({
    transport,
    budget,
    paths: { batch: ep.batch.path, single: [ep.v1.path, ep['v1.1'].path] },
    ...(opts.signal ? { signal: opts.signal } : {}),
    onRequest: progress.update,
  });

  // Phase 1, the clock: discovery starts on the first sample's estimate while the samples go on.
  const clock = startRunClock({
    send: plainSender(run),
    profile,
    ...(opts.target.timePath === undefined ? {} : { timePath: opts.target.timePath }),
    needsClock: selected.some((c) => c.needsClock === true),
    quiet: () => transport.quiet(),
  });
  await clock.first;

  // Phase 2, discovery: positive controls per route and the rejection fingerprints.
  const { factory, realFactory } = factories(opts.target, profile, () => clock.now().serverNow());
  const base = { target: opts.target, seed: opts.seed, clientId: clientIdSource(opts.seed) };
  const controlInput = { requests: factory, batchOrder: () => oneOrder(base), limitParams: () => limitParams(base) };
  const discovery = await discover({ ...controlInput, send: (b) => run.send(b.request, b.facts, b.rebuild), profile });
  // the round trips so far (clock samples, discovery): the time checks' margin, with the samples still to come
  const discoveryLatencies = [...run.latencies];
  // A run always ends: with no --max-time, a default deadline from what the run plans to send and the measured round trips.
  const deadline =
    opts.maxTimeMs === undefined
      ? defaultDeadlineMs({
          checks: selected.length,
          of: (opts.checks ?? allChecks).length,
          runs: opts.runs,
          rate: opts.rate,
          concurrency: width,
          latencies: discoveryLatencies,
        })
      : opts.maxTimeMs;
  if (opts.maxTimeMs === undefined) transport.setDeadline(Date.now() + deadline);
  const cutInDiscovery = transport.cutByDeadline() > 0;
  if (!anyUsable(discovery) && !cutInDiscovery && budget.withheld() === 0)
    throw new SpotcheckError('ERR_TARGET', explainNothingAccepted(discovery, transport.silence()), {
      discovery: discoveryReport(discovery),
    });

  // Phase 3, the checks: each records its evidence through the session. They start while the clock
  // samples go on (timestamps need only the first estimate); a check that reads the measured clock
  // (needsClock: the time window; runLast: the reference comparison of Date headers) waits for it.
  const services = createRunServices({
    run,
    discovery,
    factory,
    base,
    controlInput,
    profile,
    target: opts.target,
    now: () => clock.now().serverNow(),
    offsetMs: () => clock.now().offsetMs ?? 0,
  });
  const ctx: CheckContext = {
    target: opts.target,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    send: plainSender(run),
    requests: factory,
    // the estimate for timestamps only: a check that reads the offset or its uncertainty declares needsClock
    clock: unknownClock('the check does not declare needsClock', () => clock.now().serverNow()),
    clientId: base.clientId,
    // with no offset there is no margin to size (time.ts probeMargin); a reader gets the measured one
    maxRttMs: 0,
    requestSpacingMs: opts.rate > 0 ? Math.ceil(1000 / opts.rate) : 0,
    timeouts: () => transport.timeouts(),
    answers: () => services.deps.answers,
    answered: () => transport.answered(),
    silence: () => transport.silence(),
  };
  const book = createRecordBook(selected, {
    baseUrl: opts.target.baseUrl,
    seed: opts.seed,
    ...(opts.replayArgs === undefined ? {} : { replayArgs: opts.replayArgs }),
  });
  let placingLeft = selected.filter((c) => c.placesOrders).length;
  let stopped: RunReport['stopped'];
  const maxTimeNote =
    opts.maxTimeMs === undefined
      ? `the default deadline (${Math.round(deadline / 1000)} s, from the run's size and measured round trips; --max-time sets another)`
      : `--max-time ${opts.maxTimeMs} ms`;
  const factsNow = (): RunFacts => {
    const f = runFacts(services.learning, opts.profile, run.lastAnswered, budget.label, maxTimeNote);
    const s = transport.silence();
    return s === undefined ? f : { ...f, silence: { since: s.since } };
  };

  const runOne = async (index: number, place: Place): Promise<void> => {
    const def = selected[index] as CheckDefinition;
    // the target stopped answering: nothing more to send (a check judging the run's answers still runs)
    if (transport.silence() !== undefined && def.runLast !== true) {
      book.notRun(index, `not run: ${TARGET_DOWN_REASON}`, 'target-down');
      progress.skip();
      return;
    }
    if (cutInDiscovery || transport.cutByDeadline() > 0) {
      book.notRun(
        index,
        `not run: ${maxTimeNote} was reached ${cutInDiscovery ? 'before discovery ended' : 'before this check'}`,
      );
      progress.skip();
      return;
    }
    const reader = def.needsClock === true || def.runLast === true ? await clock.forReaders(discoveryLatencies) : {};
    if (reader === undefined) {
      stopped = { reason: 'interrupted', notRun: 0 };
      return;
    }
    progress.start(def.id);
    const share = def.placesOrders ? budget.share(placingLeft--) : { limit: Infinity, used: 0 };
    const ran = await runCheck(def, share, place, {
      ctx: { ...ctx, ...reader },
      width,
      realFactory,
      services,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (ran === undefined) {
      progress.abandon(def.id);
      stopped = { reason: 'interrupted', notRun: 0 };
      return;
    }
    book.record(index, ran.rec, ran);
    opts.onEvidence?.(evidenceEvent(ran.rec));
    opts.onRecord?.(ran.rec);
    progress.end(def.id);
    if (stopped === undefined && progress.done() < selected.length && opts.stopAfter?.(book.decided(index, factsNow())))
      stopped = { reason: 'fail-fast', notRun: 0 };
  };
  await schedule(selected, width, runOne, () => stopped !== undefined);
  // Every check of the run is in every report: those never started (the run stopped) as skipped, with why.
  const haltedBy = stopped?.reason;
  if (haltedBy === 'interrupted' || haltedBy === 'fail-fast')
    for (const i of selected.keys())
      if (!book.has(i))
        book.notRun(
          i,
          haltedBy === 'interrupted'
            ? `not run: the run was stopped (${opts.stoppedBy?.() ?? 'interrupted'}) before this check ended`
            : 'not run: --fail-fast stopped the run at the first failure',
          haltedBy,
        );
  const silence = transport.silence();
  if (silence !== undefined && stopped === undefined)
    stopped = {
      reason: 'target-down',
      notRun: 0,
      message: silenceMessage(silence, started),
      silence: silenceReport(silence, opts.target.baseUrl),
    };

  // Phase 4, effects: a refusal valid orders were later shown (by a control pair) to meet is the account's.
  const spent = services.exhaustion.current();
  book.excuse(spent);

  // Phase 5, decide: once, with the run's final knowledge; every output reads these.
  await clock.settled();
  const reports = book.decideAll(factsNow(), opts.onCheck);
  if (stopped !== undefined) {
    stopped.notRun = reports.filter((r) => r.status === 'skip' && r.cause === stopped?.reason).length;
    if (stopped.reason === 'interrupted' && opts.stoppedBy?.() !== undefined)
      stopped.signal = opts.stoppedBy?.() as string;
  }
  progress.final();

  // Phase 6, the report.
  return buildReport(reports, {
    opts: { ...opts, checks: opts.checks ?? allChecks },
    started,
    clock: clock.now(),
    transport,
    traffic: run,
    discovery,
    learned: services.learning.learned,
    unanswered: services.deps.unanswered,
    orders: { maxOrders: budget.max, placed: budget.placed(), withheld: budget.withheld() },
    ...(spent === undefined ? {} : { exhausted: spent.reason }),
    target: profile,
    ...(stopped === undefined ? {} : { stopped }),
    deadlineMs: deadline,
  });
}

/**
 * Run one check through its own session (its requests at `place` in the queue) and record it;
 * undefined when the run was interrupted.
 * A failure resting on a refusal gets a control pair sent at once: whether the account, not the
 * rule, refused it (conformance/judgement/exhaustion.ts) is part of its record.
 */
async function runCheck(
  def: CheckDefinition,
  share: ShareState,
  place: Place,
  env: {
    ctx: CheckContext;
    width: number;
    realFactory: RequestFactory;
    services: ReturnType<typeof createRunServices>;
    signal?: AbortSignal;
  },
): Promise<{ rec: CheckRecord; marks: string[]; timeProbes: CheckReport['timeProbes'] } | undefined> {
  const t0 = performance.now();
  const session = createCheckSession(def, share, env.services.deps, place);
  let outcome: CheckRecord['outcome'];
  let crashed: string | undefined;
  try {
    outcome = await def.run({
      ...env.ctx,
      parallel: env.width,
      send: session.send,
      shared: session.shared,
      ordersPlaced: session.ordersPlaced,
      ...(def.realEndpoint ? { requests: env.realFactory } : {}),
    });
    if (env.signal?.aborted) throw new RunInterrupted();
  } catch (err) {
    if (err instanceof RunInterrupted || env.signal?.aborted) return undefined;
    crashed = err instanceof Error ? err.message : String(err);
  }
  const rec = session.record(outcome, performance.now() - t0, crashed);
  const failing = outcome?.status === 'fail' ? outcome.exchange : undefined;
  const spent =
    failing === undefined
      ? undefined
      : await env.services.exhaustion
          .explains((failing as { route?: Route }).route, failing.observation, place, failing.request)
          .catch(() => undefined);
  if (spent !== undefined) rec.business = { mark: spent.mark, reason: spent.reason };
  const marks = excusableMarks(outcome, spent !== undefined, session.marks);
  return { rec, marks, timeProbes: session.timeProbes() };
}

/** The request factories: v1 requests go to a test-order path when the target names one (it places nothing); `realFactory` to the real endpoint. */
function factories(target: Target, profile: TargetProfile, serverNow: () => number) {
  const ep = profile.endpoints;
  const factoryFor = (v1: string) =>
    createRequestFactory({
      defaultRecvWindow: Math.min(5000, profile.maxRecvWindow),
      apiKey: target.apiKey,
      secret: target.secret,
      serverNow,
      apiKeyHeader: profile.apiKeyHeader,
      paths: { batch: ep.batch.path, v1, 'v1.1': ep['v1.1'].path },
      batchSignature: profile.batchSignature,
      // a printed curl re-signs with the no-TRADE key's secret from its own variable
      ...(target.noTradeKey === undefined
        ? {}
        : { namedSecrets: [{ secret: target.noTradeKey.secret, variable: NO_TRADE_SECRET_VAR }] }),
    });
  const realFactory = factoryFor(ep.v1.path);
  return {
    realFactory,
    factory: profile.testOrderPath === undefined ? realFactory : factoryFor(profile.testOrderPath),
  };
}

/** A check's evidence as the stream carries it: probes by route and answers by kind. */
function evidenceEvent(rec: CheckRecord): EvidenceEvent {
  const routes: Record<string, number> = {};
  const answers: Record<string, number> = {};
  for (const e of rec.evidence) {
    if (e.route !== undefined) routes[e.route] = (routes[e.route] ?? 0) + 1;
    answers[e.observation.verdict] = (answers[e.observation.verdict] ?? 0) + 1;
  }
  return { id: rec.def.id, probes: rec.evidence.length, routes, answers, durationMs: Math.round(rec.durationMs) };
}

/** Requests per check of a default run, per generated case, rounded up from measured runs (3,017 requests for 190 checks at 50 runs; 2,614 for 200 at 40). */
const REQUESTS_PER_CHECK = 6;
const REQUESTS_PER_CASE_PER_CHECK = 0.2;

/**
 * The deadline of a run given none (design notes, "A run always ends"): ten times what its
 * planned requests take at the measured round trips (the run's concurrency, its rate), never
 * under two minutes. A run of 5 s on loopback gets 2 minutes, never 4; a slow link, its own.
 */
export function defaultDeadlineMs(p: {
  checks: number;
  of: number;
  runs: number;
  rate: number;
  concurrency: number;
  latencies: readonly number[];
}): number {
  const planned = p.checks * (REQUESTS_PER_CHECK + REQUESTS_PER_CASE_PER_CHECK * p.runs);
  const sorted = [...p.latencies].sort((a, b) => a - b);
  const rtt = Math.max(1, sorted[Math.floor(sorted.length / 2)] ?? 100);
  const byRoundTrips = (planned * rtt) / Math.max(1, p.concurrency);
  const byRate = p.rate > 0 ? (planned / p.rate) * 1000 : 0;
  return Math.max(120_000, Math.ceil(10 * Math.max(byRoundTrips, byRate)));
}

/** The silence in words: when the target stopped answering, and that an outside stop looks the same. */
function silenceMessage(s: Silence, started: number): string {
  const first = s.requests[0];
  return `the target stopped answering ${((s.since - started) / 1000).toFixed(1)} s into the run${first === undefined ? '' : `, after ${first.exchange.request.method} ${first.exchange.request.path}${first.check === undefined ? '' : ` (sent by ${first.check})`}`}; a liveness probe on a fresh connection got no answer either (${s.probe}). Nothing more was sent. A crash, a deadlock, a SIGSTOP or a restart by something outside the run look the same from here.`;
}

/** The silence as the report carries it: times as ISO strings, each request with a curl (the secret never printed). */
function silenceReport(s: Silence, baseUrl: string): NonNullable<NonNullable<RunReport['stopped']>['silence']> {
  return {
    since: new Date(s.since).toISOString(),
    judgedAt: new Date(s.judgedAt).toISOString(),
    probe: s.probe,
    requests: s.requests.map((r) => ({
      ...(r.check === undefined ? {} : { check: r.check }),
      method: r.exchange.request.method,
      path: r.exchange.request.path,
      ...(r.exchange.route === undefined ? {} : { route: routeKey(r.exchange.route) }),
      sentAt: new Date(r.sentAt).toISOString(),
      outcome: r.outcome,
      curl: curlFor(baseUrl, r.exchange),
    })),
  };
}

/** What the run knows when it decides (conformance/judgement/decide.ts RunFacts). */
function runFacts(
  learning: Learning,
  profile: RunOptions['profile'],
  lastAnswered: ReadonlyMap<string, number>,
  budgetLabel: string,
  deadlineLabel: string,
): RunFacts {
  const routes = Object.entries(learning.knowledge.routes);
  const keys = (pick: (r: (typeof routes)[number][1]) => boolean) =>
    new Set(routes.filter(([, r]) => pick(r)).map(([k]) => k));
  return {
    knowledge: learning.knowledge,
    profile,
    absent: keys((r) => r.absent === true),
    controlFailed: keys((r) => r.absent !== true && r.state !== 'accepted' && r.state !== 'not-offered'),
    lastAnswered,
    budgetLabel,
    deadlineLabel,
  };
}
