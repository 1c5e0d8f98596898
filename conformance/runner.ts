/**
 * The conformance runner: a short list of phases over the run's session (design notes,
 * "Evidence first, verdict last"): the clock, discovery, the checks (each recording evidence),
 * effects, one decision per check once the run's knowledge is final, the report.
 */
import type { Dispatcher } from 'undici';
import { SpotcheckError } from '../src/core/errors.js';
import { anyUsable, controlOf, discover, explainNothingAccepted, knowledgeOf } from './discovery.js';
import { resolveDescription } from './target/description.js';
import { createEffectProber } from './effects.js';
import { businessShown, createExhaustionWatch, meets } from './exhaustion.js';
import { limitParams, oneOrder } from './checks/orders.js';
import { measureClock, unknownClock, type ClockEstimate } from './clock.js';
import { NO_TRADE_SECRET_VAR } from './curl.js';
import { checks as allChecks } from './checks/index.js';
import { clientIdSource } from './generators.js';
import { createRequestFactory, type Built, type Route } from './requests.js';
import { createTransport } from './transport.js';
import { createOrderBudget } from './budget.js';
import {
  createCheckSession,
  createConfirmer,
  createRunSender,
  plainSender,
  RunInterrupted,
  type Learning,
} from './session.js';
import { createLanes, OVERDUE_MS, schedule } from './scheduler.js';
import { decide, type CheckRecord, type RunFacts } from './decide.js';
import { buildReport, checkReport, discoveryReport } from './run-report.js';
import type { CheckContext, CheckDefinition, CheckReport, Profile, RunReport, Target } from './types.js';
import type { EvidenceEvent } from './report/files.js';

export interface RunOptions {
  target: Target;
  profile: Profile;
  seed: number;
  /** Generated cases per property (default 100). */
  runs: number;
  /** Requests per second; 0 = unlimited. */
  rate: number;
  timeoutMs: number;
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
  /** The run's target settings as arguments (conformance/reproduce.ts targetArgv): failures then carry a replay line. */
  replayArgs?: readonly string[];
  /** Rule-ID or check-ID prefixes to leave out (`--exclude`). */
  exclude?: readonly string[];
  /** Called with each check's evidence as its probes end, before any verdict (NDJSON streaming). */
  onEvidence?: (info: EvidenceEvent) => void;
  /** Called with each check's report once the run has decided (NDJSON streaming). */
  onCheck?: (report: CheckReport) => void;
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
  const lanes = createLanes();
  const transport = createTransport({
    baseUrl: opts.target.baseUrl,
    rate: opts.rate,
    concurrency: width,
    place: lanes.place,
    overdue: { afterMs: OVERDUE_MS, priority: 1 },
    timeoutMs: opts.timeoutMs,
    ...(opts.maxTimeMs === undefined ? {} : { deadline: started + opts.maxTimeMs }),
    ...(opts.maxBodyBytes === undefined ? {} : { maxBodyBytes: opts.maxBodyBytes }),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
  const ep = profile.endpoints;
  const paths = { batch: ep.batch.path, single: [ep.v1.path, ep['v1.1'].path] };
  const running = new Set<string>();
  let done = 0;
  const progress = (): void => {
    const current = running.size === 0 ? undefined : [...running].join(', ');
    opts.onProgress?.({
      done,
      total: selected.length,
      ...(current === undefined ? {} : { current }),
      requests: transport.count(),
    });
  };
  const run = createRunSender({
    transport,
    budget,
    paths,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onRequest: progress,
  });
  const send = plainSender(run);

  // Phase 1, the clock: discovery starts on the first sample's estimate while the samples go on.
  const needsClock = selected.some((c) => c.needsClock === true);
  let clock: ClockEstimate = unknownClock('not measured yet');
  let firstEstimate = (): void => {};
  const estimated = new Promise<void>((r) => {
    firstEstimate = r;
  });
  const measured = measureClock({
    send,
    probe: { method: 'POST', path: ep.batch.offered ? ep.batch.path : ep.v1.path, query: '', body: '', headers: {} },
    ...(opts.target.timePath === undefined ? {} : { timePath: opts.target.timePath }),
    samples: needsClock ? 12 : 2,
    spreadMs: needsClock ? 1100 : 0,
    onFirstEstimate: (e) => {
      clock = e;
      firstEstimate();
    },
  }).then((e) => {
    clock = e;
  });
  measured.catch(() => undefined);
  await Promise.race([estimated, measured]);

  // Phase 2, discovery: positive controls per route and the rejection fingerprints.
  const factoryFor = (v1: string) =>
    createRequestFactory({
      apiKey: opts.target.apiKey,
      secret: opts.target.secret,
      serverNow: () => clock.serverNow(),
      apiKeyHeader: profile.apiKeyHeader,
      paths: { batch: ep.batch.path, v1, 'v1.1': ep['v1.1'].path },
      batchSignature: profile.batchSignature,
      ...(opts.target.noTradeKey === undefined
        ? {}
        : { namedSecrets: [{ secret: opts.target.noTradeKey.secret, variable: NO_TRADE_SECRET_VAR }] }),
    });
  // With a test-order path, v1 requests go there (it places nothing); checks marked realEndpoint use the real one.
  const realFactory = factoryFor(ep.v1.path);
  const factory = profile.testOrderPath === undefined ? realFactory : factoryFor(profile.testOrderPath);
  const clientId = clientIdSource(opts.seed);
  const base = { target: opts.target, seed: opts.seed, clientId };
  const controlInput = { requests: factory, batchOrder: () => oneOrder(base), limitParams: () => limitParams(base) };
  const sendBuilt = (b: Built) => run.send(b.request, b.facts, b.rebuild);
  const discovery = await discover({ ...controlInput, send: sendBuilt, profile });
  await measured;
  const cutInDiscovery = transport.cutByDeadline() > 0;
  const withheldInDiscovery = budget.withheld();
  if (!anyUsable(discovery) && !cutInDiscovery && withheldInDiscovery === 0)
    throw new SpotcheckError('ERR_TARGET', explainNothingAccepted(discovery), {
      discovery: discoveryReport(discovery),
    });
  const maxRttMs = Math.ceil(Math.max(0, ...run.latencies));

  // Phase 3, the checks: each records its evidence through the session.
  const learning: Learning = {
    knowledge: { ...knowledgeOf(discovery), routes: { ...knowledgeOf(discovery).routes } },
    learned: [],
  };
  const validOrder = (route: Route, over: Record<string, unknown>): Built =>
    route.endpoint === 'batch'
      ? factory.batch([{ ...oneOrder(base), ...over }])
      : factory.order(
          { ...limitParams(base), ...over },
          route.endpoint,
          route.placement === 'json' ? 'query' : route.placement,
        );
  const effects = createEffectProber({
    send: async (b) => {
      const r = await sendBuilt(b);
      return r.observation.verdict === 'not-sent' ? undefined : r;
    },
    sendPlain: (req) => run.send(req),
    validOrder: (route, id) => validOrder(route, { newClientOrderId: id }),
    clientId,
    ...(profile.orderLookup === undefined ? {} : { lookup: profile.orderLookup }),
    auth: {
      apiKey: opts.target.apiKey,
      secret: opts.target.secret,
      apiKeyHeader: profile.apiKeyHeader,
      now: () => clock.serverNow(),
    },
    symbol: opts.target.symbol,
  });
  const businessControls = {
    control: (route: Route, side: 'BUY' | 'SELL', small?: boolean) =>
      validOrder(route, { side, ...(small ? { quantity: smaller(limitParams(base).quantity) } : {}) }),
    send: async (b: Built) => {
      const r = await sendBuilt(b);
      return r.observation.verdict === 'not-sent' ? undefined : r;
    },
  };
  const exhaustion = createExhaustionWatch({
    ...businessControls,
    acceptedEarlier: (route) => controlOf(discovery, route)?.state === 'accepted',
  });
  const deps = {
    run,
    learning,
    discovery,
    confirm: createConfirmer(learning, sendBuilt, controlInput, (route, marks) =>
      businessShown(businessControls, route, marks),
    ),
    effects,
    followedUp: new Set<string>(),
    offsetMs: () => clock.offsetMs ?? 0,
    shared: new Map(),
    unanswered: { count: 0, probes: [] as string[] },
  };
  const ctx: CheckContext = {
    target: opts.target,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    send,
    requests: factory,
    clock,
    clientId,
    maxRttMs,
    requestSpacingMs: opts.rate > 0 ? Math.ceil(1000 / opts.rate) : 0,
    timeouts: () => transport.timeouts(),
  };
  const records: Array<CheckRecord | undefined> = new Array(selected.length);
  const marks: string[][] = [];
  const probes: Array<CheckReport['timeProbes']> = [];
  let placingLeft = selected.filter((c) => c.placesOrders).length;
  let stopped: RunReport['stopped'];
  const maxTimeNote = `--max-time ${opts.maxTimeMs ?? 0} ms`;
  const factsNow = (): RunFacts => runFacts(learning, opts.profile, run.lastAnswered, budget.label, maxTimeNote);

  const runOne = async (index: number): Promise<void> => {
    const def = selected[index] as CheckDefinition;
    if (cutInDiscovery || transport.cutByDeadline() > 0) {
      const when = cutInDiscovery ? 'before discovery ended' : 'before this check';
      records[index] = {
        def,
        evidence: [],
        withheld: 0,
        cut: 0,
        effects: { shown: 0, methods: [] },
        durationMs: 0,
        notRun: { cause: 'deadline', reason: `not run: ${maxTimeNote} was reached ${when}` },
      };
      done++;
      return;
    }
    running.add(def.id);
    progress();
    const t0 = performance.now();
    const share = def.placesOrders ? budget.share(placingLeft--) : { limit: Infinity, used: 0 };
    const session = createCheckSession(def, share, deps);
    let outcome: CheckRecord['outcome'];
    let crashed: string | undefined;
    try {
      outcome = await def.run({
        ...ctx,
        parallel: width,
        send: session.send,
        shared: session.shared,
        ordersPlaced: session.ordersPlaced,
        ...(def.realEndpoint ? { requests: realFactory } : {}),
      });
      if (opts.signal?.aborted) throw new RunInterrupted();
    } catch (err) {
      running.delete(def.id);
      if (err instanceof RunInterrupted || opts.signal?.aborted) {
        stopped = { reason: 'interrupted', notRun: 0 };
        return;
      }
      crashed = err instanceof Error ? err.message : String(err);
    }
    running.delete(def.id);
    const rec = session.record(outcome, performance.now() - t0, crashed);
    // A failure on a refusal: a control of the other side sent now shows whether the account, not the rule, refused it.
    if (outcome?.status === 'fail' && outcome.exchange !== undefined) {
      const spent = await exhaustion
        .explains((outcome.exchange as { route?: Route }).route, outcome.exchange.observation)
        .catch(() => undefined);
      if (spent !== undefined) rec.business = { mark: spent.mark, reason: spent.reason };
    }
    records[index] = rec;
    opts.onEvidence?.(evidenceEvent(rec));
    marks[index] = outcome?.status === 'fail' && outcome.exchange === undefined ? session.marks() : [];
    probes[index] = session.timeProbes();
    done++;
    progress();
    if (stopped === undefined && done < selected.length && opts.stopAfter !== undefined) {
      const d = decide(rec, factsNow());
      if (opts.stopAfter(reportOf(index, d))) stopped = { reason: 'fail-fast', notRun: 0 };
    }
  };
  const reportOf = (index: number, d: ReturnType<typeof decide>): CheckReport =>
    checkReport(selected[index] as CheckDefinition, d, {
      durationMs: records[index]?.durationMs ?? 0,
      baseUrl: opts.target.baseUrl,
      seed: opts.seed,
      ...(opts.replayArgs === undefined ? {} : { replayArgs: opts.replayArgs }),
      ...(probes[index] === undefined ? {} : { timeProbes: probes[index] }),
    });
  await schedule(selected, width, lanes, runOne, () => stopped !== undefined);

  // Phase 4, effects: a refusal valid orders were later shown to meet (both sides tried at once) is the account's.
  const spent = exhaustion.current();
  if (spent !== undefined)
    for (const [i, rec] of records.entries())
      if (rec?.outcome?.status === 'fail' && rec.business === undefined && meets(marks[i] ?? [], spent.mark))
        rec.business = { mark: spent.mark, reason: spent.reason };

  // Phase 5, decide: once, with the run's final knowledge; every output reads these.
  const facts = factsNow();
  const reports: CheckReport[] = [];
  for (const [i, rec] of records.entries()) {
    if (rec === undefined) continue;
    const rep = reportOf(i, decide(rec, facts));
    reports.push(rep);
    opts.onCheck?.(rep);
  }
  if (stopped !== undefined) stopped.notRun = selected.length - reports.length;
  opts.onProgress?.({ done, total: selected.length, requests: transport.count() });

  // Phase 6, the report.
  return buildReport(reports, {
    started,
    baseUrl: opts.target.baseUrl,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    clock,
    transport,
    latencies: run.latencies,
    answers: run.answers,
    discovery,
    learned: learning.learned,
    unanswered: deps.unanswered,
    ...(opts.maxTimeMs === undefined ? {} : { maxTimeMs: opts.maxTimeMs }),
    orders: { maxOrders: budget.max, placed: budget.placed(), withheld: budget.withheld() },
    ...(spent === undefined ? {} : { exhausted: spent.reason }),
    target: profile,
    checks: opts.checks ?? allChecks,
    ...(opts.replayArgs === undefined ? {} : { replayArgs: opts.replayArgs }),
    ...(stopped === undefined ? {} : { stopped }),
  });
}

/** A thousandth of a decimal quantity, exactly (a smaller control order: conformance/exhaustion.ts). */
function smaller(q: unknown): string {
  const [i = '0', f = ''] = String(q).split('.');
  const digits = `${i}${f}`.replace(/^0+(?=\d)/, '');
  const scale = f.length + 3;
  const padded = digits.padStart(scale + 1, '0');
  return `${padded.slice(0, -scale)}.${padded.slice(-scale)}`.replace(/\.?0+$/, '');
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

/** What the run knows when it decides (conformance/decide.ts RunFacts). */
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
