/**
 * The conformance runner: measures the target's clock, runs the selected checks in
 * order with the run's seed, and turns outcomes into a report (levels and profile
 * applied, a reproduction for every failure).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from 'undici';
import { rule, type RuleLevel } from '../src/rules.js';
import { readKitJson } from '../src/paths.js';
import { type Observation, describe, entriesOf, entryPlaced } from '../src/core/response.js';
import { SpotcheckError } from '../src/core/errors.js';
import {
  authRefusal,
  expect as want,
  fingerprintOf,
  judgeExchange,
  refusalToConfirm,
  routeVerdicts,
  type ExchangeVerdict,
  type RouteKnowledge,
  type RouteTally,
} from './verdict.js';
import { LIMITS } from '../src/core/wire.js';
import {
  anyUsable,
  controlOf,
  controlRequest,
  discover,
  explainNothingAccepted,
  knowledgeOf,
  type Discovery,
} from './discovery.js';
import { resolveDescription } from './target/description.js';
import { coverageMatrix } from './coverage.js';
import { createEffectProber, methodText, type EffectMethod, type FollowUp } from './effects.js';
import { createExhaustionWatch, meets, refusalMarks } from './exhaustion.js';
import { limitParams, oneOrder } from './checks/orders.js';
import { measureClock, unknownClock, type ClockEstimate } from './clock.js';
import { curlFor, NO_TRADE_SECRET_VAR } from './curl.js';
import { commandLine, replayArgv } from './reproduce.js';
import { checks as allChecks } from './checks/index.js';
import { clientIdSource } from './generators.js';
import { createRequestFactory, routeKey, type Built, type Route } from './requests.js';
import { summariseTraffic, timeProbeOf, type TimeProbe } from './traffic.js';
import { createTransport, DEADLINE_REASON, type Exchange, type SendResult, type Sender } from './transport.js';
import type { CheckOutcome } from './verdict.js';
import type {
  CheckContext,
  CheckDefinition,
  CheckReport,
  DiscoveryReport,
  Profile,
  RunReport,
  Target,
} from './types.js';

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
  /** Called with each check's report as it ends (NDJSON streaming). */
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

function version(): string {
  try {
    return readKitJson<{ version: string }>('package.json').version;
  } catch {
    return '0.0.0';
  }
}

/** Orders a response shows as placed: an accepted single order, or the batch entries whose code is 0 (by code, never by an echoed `order`). */
function placedBy(route: Route | undefined, o: Observation): number {
  if (o.verdict !== 'accepted') return 0;
  if (route?.endpoint !== 'batch') return 1;
  return (entriesOf(o.json) ?? []).filter(entryPlaced).length;
}

/**
 * Orders a request can place on a server that keeps the 20-order limit (§4.1 rule 1, §8): the
 * elements of a batch body up to 20 (a 2 MiB body of 12,000 orders is one oversized request,
 * not 12,000 orders), or one for any other request. Counted before sending, against --max-orders.
 */
export function ordersIn(route: Route | undefined, body: string): number {
  if (route?.endpoint !== 'batch') return 1;
  try {
    const v = JSON.parse(body) as unknown;
    return Array.isArray(v) ? Math.min(v.length, LIMITS.maxBatchOrders) : 0;
  } catch {
    return 0;
  }
}

/** A check's request waiting longer than this, ms, goes before the other checks' that have waited less (none starves). */
const OVERDUE_MS = 1000;

/** Why a request was held back by the order budget (the start of every such reason). */
export const BUDGET_REASON = 'the order budget (';

/** Apply level and profile to an outcome: what goes in the report. INFO is never a failure. */
export function judge(
  def: CheckDefinition,
  out: CheckOutcome,
  profile: Profile,
): { status: CheckReport['status']; level: RuleLevel; pinned: boolean } {
  const level = def.level ?? rule(def.ruleId).level;
  if (out.status === 'info' && profile === 'reference' && out.matchesReference === false) {
    return { status: 'fail', level: 'MUST', pinned: true };
  }
  if ((out.status === 'pass' || out.status === 'fail') && level === 'INFO')
    return { status: 'info', level, pinned: false };
  return { status: out.status, level, pinned: false };
}

/** A result that was never sent, with the reason, for a route or budget that forbids it. */
function notSent(request: SendResult['exchange']['request'], facts: Parameters<Sender>[1], why: string): SendResult {
  const observation: Observation = { verdict: 'not-sent', error: why };
  return { observation, exchange: { request, observation, ...facts } };
}

function discoveryReport(d: Discovery): DiscoveryReport {
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

/** The report of a check the run's deadline kept from a verdict (status `skip`, with the reason). */
function skipReport(def: CheckDefinition, reason: string, durationMs = 0): CheckReport {
  const r = rule(def.ruleId);
  return {
    id: def.id,
    ruleId: def.ruleId,
    family: r.family,
    level: r.level,
    status: 'skip',
    title: def.title,
    section: r.section,
    requirement: r.sentence,
    durationMs: Math.round(durationMs),
    reason,
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

/** Thrown into a check by its next request once the run is aborted. */
class RunInterrupted extends Error {
  constructor() {
    super('the run was interrupted');
  }
}

/** Run the checks against the target and build the report. */
export async function runConformance(opts: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const selected = selectChecks(opts.checks ?? allChecks, opts.only, opts.exclude ?? []);
  let stopped: RunReport['stopped'];
  const profile = opts.target.profile ?? resolveDescription({});
  // A declared account budget caps the orders too (target description): the smaller cap holds.
  const accountCap = profile.account?.orders ?? Infinity;
  const maxOrders = Math.min(opts.maxOrders, accountCap);
  const budgetLabel =
    accountCap < opts.maxOrders ? `the account budget: ${accountCap} orders` : `--max-orders ${opts.maxOrders}`;
  let placed = 0;
  let maxRttMs = 0;
  // At most `width` requests in flight over the whole run, whatever the checks ask.
  const width = Math.max(1, Math.floor(opts.concurrency ?? 1));
  /** The queue place of the requests of the check under way in this async context (conformance/gate.ts). */
  const lane = new AsyncLocalStorage<{ priority: number; flow: number }>();
  const transport = createTransport({
    baseUrl: opts.target.baseUrl,
    rate: opts.rate,
    concurrency: width,
    // timed checks' probes 0 (discovery's too), a request overdue in the queue 1, the other checks' 2, each check its own flow
    place: () => lane.getStore() ?? { priority: 0 },
    overdue: { afterMs: OVERDUE_MS, priority: 1 },
    timeoutMs: opts.timeoutMs,
    ...(opts.maxTimeMs === undefined ? {} : { deadline: started + opts.maxTimeMs }),
    ...(opts.maxBodyBytes === undefined ? {} : { maxBodyBytes: opts.maxBodyBytes }),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
  const maxTimeNote = `--max-time ${opts.maxTimeMs ?? 0} ms`;
  let current: string | undefined;
  let done = 0;
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  /** Send through the run's pool; `orders`: the answer may show placed orders (not the clock probes' empty bodies, which carry none). */
  const sendVia =
    (orders: boolean): Sender =>
    async (req, facts, rebuild) => {
      if (opts.signal?.aborted) throw new RunInterrupted();
      const r = await transport.send(req, facts, rebuild);
      if (orders) placed += placedBy(r.exchange.route, r.observation);
      if (r.observation.verdict !== 'not-sent')
        answers[r.observation.verdict] = (answers[r.observation.verdict] ?? 0) + 1;
      if (r.observation.elapsedMs !== undefined) latencies.push(r.observation.elapsedMs);
      if (r.observation.elapsedMs !== undefined && current === undefined)
        maxRttMs = Math.max(maxRttMs, r.observation.elapsedMs);
      opts.onProgress?.({
        done,
        total: selected.length,
        ...(current === undefined ? {} : { current }),
        requests: transport.count(),
      });
      return r;
    };
  const send = sendVia(true);

  const needsClock = selected.some((c) => c.needsClock === true);
  // Discovery starts on the first clock sample's estimate while the samples go on; the checks start on the whole measurement.
  let clock: ClockEstimate = unknownClock('not measured yet');
  let firstEstimate = (): void => {};
  const estimated = new Promise<void>((r) => {
    firstEstimate = r;
  });
  const measuring = measureClock({
    send: sendVia(false),
    probe: {
      method: 'POST',
      path: profile.endpoints.batch.offered ? profile.endpoints.batch.path : profile.endpoints.v1.path,
      query: '',
      body: '',
      headers: {},
    },
    ...(opts.target.timePath === undefined ? {} : { timePath: opts.target.timePath }),
    samples: needsClock ? 12 : 2,
    // without time checks, timestamps need the offset only to within the window: no waiting
    spreadMs: needsClock ? 1100 : 0,
    onFirstEstimate: (e) => {
      clock = e;
      firstEstimate();
    },
  });
  const measured = measuring.then((e) => {
    clock = e;
  });
  // (a measurement that fails ends the run, before discovery or once it has ended)
  measured.catch(() => undefined);
  await Promise.race([estimated, measured]);

  const factoryFor = (v1: string) =>
    createRequestFactory({
      apiKey: opts.target.apiKey,
      secret: opts.target.secret,
      serverNow: () => clock.serverNow(),
      apiKeyHeader: profile.apiKeyHeader,
      paths: { batch: profile.endpoints.batch.path, v1, 'v1.1': profile.endpoints['v1.1'].path },
      batchSignature: profile.batchSignature,
      // a printed curl re-signs with the no-TRADE key's secret from its own variable
      ...(opts.target.noTradeKey === undefined
        ? {}
        : { namedSecrets: [{ secret: opts.target.noTradeKey.secret, variable: NO_TRADE_SECRET_VAR }] }),
    });
  // With a test-order path, v1 requests go there (it places nothing); checks marked realEndpoint use the real one.
  const realFactory = factoryFor(profile.endpoints.v1.path);
  const factory = profile.testOrderPath === undefined ? realFactory : factoryFor(profile.testOrderPath);
  const clientId = clientIdSource(opts.seed);
  const base = { target: opts.target, seed: opts.seed, clientId };
  // Discovery's controls and fingerprint probes can place orders too: they come out of --max-orders.
  let withheldInDiscovery = 0;
  let withheld = 0;
  /** Orders discovery's requests in flight may place (its controls go out together: reserved before sending). */
  let reserved = 0;
  const discovery = await discover({
    send: async (b) => {
      const n = ordersIn(b.facts.route, b.request.body);
      if (placed + reserved + n > maxOrders) {
        withheldInDiscovery++;
        withheld++;
        return notSent(b.request, b.facts, `${BUDGET_REASON}${budgetLabel}) is spent: discovery could not send it`);
      }
      reserved += n;
      try {
        return await send(b.request, b.facts, b.rebuild);
      } finally {
        reserved -= n;
      }
    },
    requests: factory,
    profile,
    batchOrder: () => oneOrder(base),
    limitParams: () => limitParams(base),
  });
  await measured;
  const cutInDiscovery = transport.cutByDeadline() > 0;
  // What the run knows of the target (conformance/verdict.ts): discovery's, plus refusals learnt by re-sent controls.
  const known = knowledgeOf(discovery);
  const routeKnowledge: Record<string, RouteKnowledge> = { ...known.routes };
  const knowledge = { ...known, routes: routeKnowledge };
  const absent = new Set(
    Object.entries(routeKnowledge)
      .filter(([, r]) => r.absent === true)
      .map(([k]) => k),
  );
  const learned: Array<{ route: string; refusal: string }> = [];
  const confirming = new Map<string, Promise<void>>();
  const controlInput = { requests: factory, batchOrder: () => oneOrder(base), limitParams: () => limitParams(base) };
  /**
   * Send a route's positive control again after a refusal not seen there yet: the same
   * refusal means valid orders meet it in this run (business: balance, position, filters),
   * an acceptance means it is the rule's (conformance/verdict.ts refusalToConfirm). Once per
   * route and refusal.
   */
  const confirm = (route: Route, fp: string): Promise<void> => {
    const key = routeKey(route);
    const id = `${key} ${fp}`;
    let p = confirming.get(id);
    if (p === undefined) {
      p = (async () => {
        if (placed + 1 > opts.maxOrders) return;
        const b = controlRequest(controlInput, route);
        const r = await send(b.request, b.facts, b.rebuild);
        const got = fingerprintOf(r.observation);
        const rk = routeKnowledge[key];
        if (rk === undefined) return;
        if (r.observation.verdict === 'accepted') {
          routeKnowledge[key] = { ...rk, ruleRefusals: [...rk.ruleRefusals, fp] };
        } else if (got !== undefined && authRefusal(knowledge, got) === undefined && !rk.validRefusals.includes(got)) {
          routeKnowledge[key] = { ...rk, validRefusals: [...rk.validRefusals, got] };
          learned.push({ route: key, refusal: describe(r.observation) });
        }
      })();
      confirming.set(id, p);
    }
    return p;
  };
  const unanswered: string[] = [];
  let unansweredCount = 0;
  if (!anyUsable(discovery) && !cutInDiscovery && withheldInDiscovery === 0)
    throw new SpotcheckError('ERR_TARGET', explainNothingAccepted(discovery), {
      discovery: discoveryReport(discovery),
    });
  // Place-nothing by effect: a whole-call refusal is followed by a valid order reusing one of its client ids, or by the order-lookup path.
  const followedUp = new Set<string>();
  const effects = createEffectProber({
    send: async (b) => (placed + 1 > maxOrders ? undefined : send(b.request, b.facts, b.rebuild)),
    sendPlain: (req) => sendVia(false)(req),
    validOrder: (route, id) =>
      route.endpoint === 'batch'
        ? factory.batch([{ ...oneOrder(base), newClientOrderId: id }])
        : factory.order(
            { ...limitParams(base), newClientOrderId: id },
            route.endpoint,
            route.placement === 'json' ? 'query' : route.placement,
          ),
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
  // Valid orders accepted earlier that now meet a new refusal: the account may be exhausted (said once).
  const controlOrder = (route: Route, side: 'BUY' | 'SELL'): Built =>
    route.endpoint === 'batch'
      ? factory.batch([{ ...oneOrder(base), side }])
      : factory.order(
          { ...limitParams(base), side },
          route.endpoint,
          route.placement === 'json' ? 'query' : route.placement,
        );
  const exhaustion = createExhaustionWatch({
    control: controlOrder,
    send: async (b) => (placed + 1 > maxOrders ? undefined : send(b.request, b.facts, b.rebuild)),
    acceptedEarlier: (route) => controlOf(discovery, route)?.state === 'accepted',
  });
  const ctx: CheckContext = {
    target: opts.target,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    send,
    requests: factory,
    clock,
    clientId,
    maxRttMs: Math.ceil(maxRttMs),
    requestSpacingMs: opts.rate > 0 ? Math.ceil(1000 / opts.rate) : 0,
    timeouts: () => transport.timeouts(),
  };

  // Reports keep the selection order whatever order the checks end in.
  const slots: Array<CheckReport | undefined> = new Array(selected.length);
  /** The refusals each failed check met (its failing answer's, or all it saw): the account may turn out exhausted. */
  const failedOn: Array<{ marks: string[]; exchange?: Exchange } | undefined> = new Array(selected.length);
  let placingLeft = selected.filter((c) => c.placesOrders).length;
  const running = new Set<string>();
  const progress = (): void => {
    current = running.size === 0 ? undefined : [...running].join(', ');
    opts.onProgress?.({
      done,
      total: selected.length,
      ...(current === undefined ? {} : { current }),
      requests: transport.count(),
    });
  };
  let halted = false;
  const sharedProbes = new Map<string, Promise<{ result: SendResult; carry: unknown }>>();

  /** Run one check and file its report in its slot; Ctrl-C or --fail-fast set `halted`. */
  async function runOne(def: CheckDefinition, index: number, parallel: number): Promise<void> {
    if (cutInDiscovery || transport.cutByDeadline() > 0) {
      const why = cutInDiscovery
        ? `not run: ${maxTimeNote} was reached before discovery ended`
        : `not run: ${maxTimeNote} was reached before this check`;
      slots[index] = skipReport(def, why);
      done++;
      return;
    }
    running.add(def.id);
    progress();
    const t0 = performance.now();
    // Each check placing orders gets a fair share of what is left of --max-orders, so a
    // greedy early check cannot silently starve the MUST checks after it.
    const share =
      Number.isFinite(maxOrders) && def.placesOrders
        ? Math.floor((maxOrders - placed) / Math.max(1, placingLeft))
        : Infinity;
    if (def.placesOrders) placingLeft--;
    let mine = 0;
    /** Every exchange of this check with its route and the verdict of what the check last expected of it. */
    const exchanges: Array<{ route?: string; verdict: ExchangeVerdict }> = [];
    let cut = 0;
    const role = { establishes: def.establishes ?? [] };
    let withheldHere = 0;
    /** The refusals this check met (an exhausted account may explain a failure later). */
    const marks = new Set<string>();
    const effectStats = {
      shown: 0,
      methods: new Set<string>(),
      placed: undefined as { refused: SendResult; follow: FollowUp; method: EffectMethod } | undefined,
    };
    const probes: TimeProbe[] = [];
    const judged: Sender = async (req, facts, rebuild) => {
      const route = facts?.route;
      const c = route === undefined ? undefined : controlOf(discovery, route);
      let r: SendResult;
      if (c?.state === 'not-offered' && route !== undefined) {
        r = notSent(req, facts, `the target does not offer ${routeKey(route)} (target description)`);
      } else if (mine + ordersIn(route, req.body) > share || placed + ordersIn(route, req.body) > maxOrders) {
        r = notSent(req, facts, `${BUDGET_REASON}${budgetLabel}) is spent: this check's share allowed no more orders`);
        withheldHere++;
        withheld++;
      } else {
        r = await send(req, facts, rebuild);
        mine += placedBy(r.exchange.route, r.observation);
        const tp = def.timeProbes === true ? timeProbeOf(r.exchange, clock.offsetMs ?? 0) : undefined;
        if (tp !== undefined) probes.push(tp);
        if (r.observation.verdict === 'not-sent' && r.observation.error === DEADLINE_REASON) cut++;
        if (r.observation.verdict === 'no-answer') {
          unansweredCount++;
          if (unanswered.length < 20)
            unanswered.push(
              `${def.id}: ${req.method} ${req.path}${route === undefined ? '' : ` (${routeKey(route)})`}: ${describe(r.observation)}`,
            );
        }
        const fp = refusalToConfirm(knowledge, {
          observation: r.observation,
          ...(route === undefined ? {} : { route: routeKey(route) }),
        });
        if (fp !== undefined && route !== undefined) await confirm(route, fp);
        for (const m of refusalMarks(r.observation)) marks.add(m);
        await followUp(r);
      }
      return judgeable(r);
    };
    /** A whole-call refusal through a controlled route: shown to have placed nothing by effect (design notes, "Effects, not only answers"). */
    const followUp = async (r: SendResult): Promise<void> => {
      const route = r.exchange.route;
      if (
        def.ownEffects === true ||
        r.observation.verdict !== 'rejected' ||
        route === undefined ||
        controlOf(discovery, route)?.state !== 'accepted'
      )
        return;
      // Once per rule family, route and refusal over the whole run: a server placing the orders of one kind of refused call does so each time.
      const key = `${rule(def.ruleId).family} ${routeKey(route)} ${fingerprintOf(r.observation) ?? ''}`;
      if (followedUp.has(key) || mine + 1 > share) return;
      followedUp.add(key);
      const f = await effects.followUp(r);
      if (f === undefined) return;
      if (f.result !== undefined && f.method.kind === 'reuse') mine += placedBy(route, f.result.observation);
      effectStats.methods.add(
        f.method.kind === 'none' ? `not shown on ${routeKey(route)}: ${methodText(f.method)}` : methodText(f.method),
      );
      if (f.reading === 'placed-nothing') effectStats.shown++;
      if (f.reading === 'placed') effectStats.placed ??= { refused: r, follow: f, method: f.method };
    };
    /** The answer with its judge: the verdict for what the probe expects, counted toward this check's route (the last expectation judged counts). */
    const judgeable = (r: SendResult): SendResult => {
      const route = r.exchange.route === undefined ? undefined : routeKey(r.exchange.route);
      const x = { observation: r.observation, ...(route === undefined ? {} : { route }) };
      const slot = exchanges.length;
      const judge = (exp: Parameters<typeof judgeExchange>[0]): ExchangeVerdict => {
        let v = judgeExchange(exp, knowledge, x, role);
        // An exhausted account (conformance/exhaustion.ts): its refusal decides no rule past the authentication.
        const spent = exhaustion.current();
        const authLayer = exp.kind === 'refuse' && exp.layer !== 'rule';
        if (
          spent !== undefined &&
          !authLayer &&
          (v.verdict === 'pass' || v.verdict === 'fail') &&
          r.observation.verdict !== 'accepted' &&
          meets(refusalMarks(r.observation), spent.mark)
        )
          v = { verdict: 'inconclusive', reason: spent.reason };
        exchanges[slot] = { ...(route === undefined ? {} : { route }), verdict: v };
        return v;
      };
      // what a probe that states no expectation shows: an answer, read as it is
      judge(want.observe);
      return { ...r, judge };
    };
    /** One exchange per key for the whole run: the first check asking sends it, the others judge the same answer. */
    const shared = async <T>(
      key: string,
      make: () => { built: Built; carry: T },
    ): Promise<{ result: SendResult; carry: T }> => {
      const first = sharedProbes.get(key) as Promise<{ result: SendResult; carry: T }> | undefined;
      if (first !== undefined) {
        const v = await first;
        // a probe the first check could not send (its order budget, a route not offered) is this check's to try
        if (v.result.observation.verdict !== 'not-sent') {
          const own: SendResult = {
            observation: v.result.observation,
            exchange: v.result.exchange,
            ...(v.result.response === undefined ? {} : { response: v.result.response }),
          };
          return { result: judgeable(own), carry: v.carry };
        }
      }
      const { built, carry } = make();
      const p = judged(built.request, built.facts, built.rebuild).then((result) => ({ result, carry }));
      if (first === undefined) sharedProbes.set(key, p);
      return p;
    };
    let out: CheckOutcome;
    try {
      out = await def.run({
        ...ctx,
        parallel,
        send: judged,
        shared,
        ordersPlaced: () => mine,
        ...(def.realEndpoint ? { requests: realFactory } : {}),
      });
      if (opts.signal?.aborted) throw new RunInterrupted();
    } catch (err) {
      running.delete(def.id);
      if (err instanceof RunInterrupted || opts.signal?.aborted) {
        halted = true;
        stopped = { reason: 'interrupted', notRun: selected.length - done };
        return;
      }
      const msg = err instanceof Error ? err.message : String(err);
      out = { status: 'fail', expected: 'the check to complete', actual: `the runner hit an internal error: ${msg}` };
    }
    running.delete(def.id);
    // A check the deadline cut short has no verdict, unless it had already found a failure.
    if (cut > 0 && out.status !== 'fail') {
      slots[index] = skipReport(
        def,
        `cut short: ${maxTimeNote} was reached while this check ran (${cut} requests not sent or not finished)`,
        performance.now() - t0,
      );
      done++;
      progress();
      return;
    }
    // Nothing sent at all because of the order budget: the check did not run (status skip, with the reason).
    if (exchanges.length > 0 && withheldHere === exchanges.length && out.status !== 'fail') {
      slots[index] = skipReport(
        def,
        `not run: ${BUDGET_REASON}${budgetLabel}) left no order for it; every request of this check could place one`,
        performance.now() - t0,
      );
      done++;
      progress();
      opts.onCheck?.(slots[index] as CheckReport);
      return;
    }
    // A failure on a refusal valid orders now meet too (accepted earlier in the run): no verdict, the account may be exhausted.
    if (out.status === 'fail') {
      const met = out.exchange !== undefined ? refusalMarks(out.exchange.observation) : [...marks];
      const spent =
        out.exchange === undefined
          ? exhaustion.current()
          : await exhaustion
              .explains((out.exchange as Exchange).route, out.exchange.observation)
              .catch(() => undefined);
      if (spent !== undefined && meets(met, spent.mark))
        out = {
          status: 'inconclusive',
          reason: spent.reason,
          ...(out.exchange === undefined ? {} : { exchange: out.exchange }),
        };
      else if (met.length > 0)
        failedOn[index] = { marks: met, ...(out.exchange === undefined ? {} : { exchange: out.exchange as Exchange }) };
    }
    // A refused call that placed an order, shown by effect, fails the check whatever its answer said.
    const effectPlaced = effectStats.placed;
    if (effectPlaced !== undefined && out.status !== 'fail') {
      const where =
        effectPlaced.refused.exchange.route === undefined
          ? 'a refused call'
          : `a call refused on ${routeKey(effectPlaced.refused.exchange.route)}`;
      out = {
        status: 'fail',
        expected: `${where} (${describe(effectPlaced.refused.observation)}) places nothing`,
        actual: `it placed an order: ${methodText(effectPlaced.method)} showed client id ${effectPlaced.follow.id} already used (${effectPlaced.follow.result === undefined ? '?' : describe(effectPlaced.follow.result.observation)})`,
        exchange: effectPlaced.refused.exchange,
      };
    }
    // Per route: the cells, and the check's status from them (conformance/verdict.ts routeVerdicts).
    const tallies = new Map<string, RouteTally>();
    let decided = 0;
    let firstUndecided: string | undefined;
    for (const e of exchanges) {
      const v = e.verdict.verdict;
      if (v === 'pass' || v === 'fail') decided++;
      else firstUndecided ??= e.verdict.reason;
      if (e.route === undefined) continue;
      const t = tallies.get(e.route) ?? { pass: 0, fail: 0, inconclusive: 0, unanswered: 0, requests: 0 };
      t.requests++;
      t[v]++;
      if (v === 'inconclusive') t.firstReason ??= e.verdict.reason;
      if (v === 'unanswered') t.firstUnanswered ??= e.verdict.reason;
      tallies.set(e.route, t);
    }
    const byRoute = routeVerdicts(out, def.covers ?? [], tallies, absent);
    out = byRoute.outcome;
    // A pass earned by no request that reached the rule is no pass.
    if (out.status === 'pass' && exchanges.length > 0 && decided === 0) {
      out = { status: 'inconclusive', reason: firstUndecided ?? 'no request reached the rule' };
    }
    const notes: string[] = [];
    const business = exchanges.filter((e) => e.verdict.business !== undefined);
    if (out.status === 'pass' && business.length > 0) {
      notes.push(
        `${business.length} correctly signed requests were refused for a reason other than the signature and count as signature accepted (first: ${business[0]?.verdict.business ?? '?'})`,
      );
    }
    if (effectStats.shown > 0 || effectStats.methods.size > 0) {
      notes.push(
        `place-nothing by effect: ${effectStats.shown} refused call(s) shown to have placed nothing; method: ${[...effectStats.methods].join('; ')}`,
      );
    }
    if (out.status === 'pass' && decided < exchanges.length)
      notes.push(
        `${exchanges.length - decided} of ${exchanges.length} requests could not decide the rule (first: ${firstUndecided ?? '?'})`,
      );
    const r = rule(def.ruleId);
    const j = judge(def, out, opts.profile);
    const rep: CheckReport = {
      id: def.id,
      ruleId: def.ruleId,
      family: r.family,
      level: j.level,
      status: j.status,
      title: def.title,
      section: r.section,
      requirement: r.sentence,
      durationMs: Math.round(performance.now() - t0),
    };
    if (j.pinned) {
      rep.expected = 'the reference choice of spec/decisions.md (reference profile)';
      rep.actual = ('observed' in out ? out.observed : undefined) ?? 'a different behaviour';
    }
    if ('expected' in out) rep.expected = out.expected;
    if ('actual' in out) rep.actual = out.actual;
    if ('observed' in out && out.observed !== undefined) rep.observed = out.observed;
    if ('reason' in out) rep.reason = out.reason;
    if ('counterexample' in out && out.counterexample !== undefined) rep.counterexample = out.counterexample;
    if ('runs' in out && out.runs !== undefined) rep.runs = out.runs;
    if (notes.length > 0) rep.notes = notes;
    const reached = [...tallies].filter(([, t]) => t.pass + t.fail > 0).map(([k]) => k);
    if (reached.length > 0) rep.routes = reached.sort();
    if (byRoute.cells.length > 0) rep.cells = byRoute.cells;
    const failing = 'exchange' in out ? out.exchange : undefined;
    if (rep.status === 'fail' && failing !== undefined && 'request' in failing)
      rep.reproduce = curlFor(opts.target.baseUrl, failing as Exchange);
    if (probes.length > 0) rep.timeProbes = probes;
    if (rep.status === 'fail' && opts.replayArgs !== undefined)
      rep.replay = `spotcheck ${commandLine(replayArgv(opts.seed, def.id, opts.replayArgs))}`;
    slots[index] = rep;
    done++;
    progress();
    opts.onCheck?.(rep);
    if (!halted && done < selected.length && opts.stopAfter?.(rep) === true) {
      halted = true;
      stopped = { reason: 'fail-fast', notRun: 0 };
    }
  }

  // One at a time: every check in selection order. Otherwise two lanes side by side: the timed
  // checks one after another, their requests first through the gate (a time probe waits one
  // spacing at most), and the other checks `width` at a time, the check with the fewest requests
  // in flight served first (a chain of dependent requests is not queued behind the many cases
  // another check keeps in flight); then the runLast ones.
  if (width === 1) {
    for (const [i, def] of selected.entries()) {
      if (halted) break;
      await runOne(def, i, 1);
    }
  } else {
    const where = (pick: (c: CheckDefinition) => boolean): number[] => selected.flatMap((c, i) => (pick(c) ? [i] : []));
    const pool = async (list: readonly number[]): Promise<void> => {
      let cursor = 0;
      const worker = async (): Promise<void> => {
        while (cursor < list.length && !halted) {
          const i = list[cursor++] as number;
          await lane.run({ priority: 2, flow: i }, () => runOne(selected[i] as CheckDefinition, i, width));
        }
      };
      await Promise.all(Array.from({ length: Math.min(width, list.length) }, worker));
    };
    const timedLane = async (): Promise<void> => {
      for (const i of where((c) => c.timed === true && c.runLast !== true)) {
        if (halted) return;
        await lane.run({ priority: 0, flow: i }, () => runOne(selected[i] as CheckDefinition, i, width));
      }
    };
    await Promise.all([timedLane(), pool(where((c) => c.timed !== true && c.runLast !== true))]);
    if (!halted) await pool(where((c) => c.runLast === true));
  }
  // Failures on a refusal that turned out, later in the run, to be the one valid orders meet: inconclusive too.
  if (exhaustion.current() === undefined) {
    for (const f of failedOn) {
      if (f?.exchange === undefined) continue;
      if ((await exhaustion.explains(f.exchange.route, f.exchange.observation).catch(() => undefined)) !== undefined)
        break;
    }
  }
  const spentAtEnd = exhaustion.current();
  if (spentAtEnd !== undefined) {
    for (const [i, f] of failedOn.entries()) {
      const rep = slots[i];
      if (f === undefined || rep === undefined || rep.status !== 'fail' || !meets(f.marks, spentAtEnd.mark)) continue;
      const { expected: _e, actual, reproduce: _r, replay: _p, ...rest } = rep;
      slots[i] = {
        ...rest,
        status: 'inconclusive',
        reason: spentAtEnd.reason,
        notes: [
          ...(rep.notes ?? []),
          `would have failed on a refusal valid orders were later shown to meet: ${actual ?? '?'}`,
        ],
      };
    }
  }
  const reports = slots.filter((r): r is CheckReport => r !== undefined);
  if (stopped !== undefined) stopped.notRun = selected.length - reports.length;
  current = undefined;
  opts.onProgress?.({ done, total: selected.length, requests: transport.count() });

  const count = (s: CheckReport['status']) => reports.filter((r) => r.status === s).length;
  return {
    tool: { name: 'spotcheck', version: version() },
    target: opts.target.baseUrl,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: transport.count(),
    clock: {
      method: clock.method,
      ...(clock.offsetMs === undefined ? {} : { offsetMs: clock.offsetMs }),
      ...(clock.uncertaintyMs === undefined ? {} : { uncertaintyMs: clock.uncertaintyMs }),
      ...(clock.note === undefined ? {} : { note: clock.note }),
    },
    summary: {
      passed: count('pass'),
      failed: count('fail'),
      info: count('info'),
      skipped: count('skip'),
      inconclusive: count('inconclusive'),
      mustFailures: reports.filter((r) => r.status === 'fail' && r.level === 'MUST').length,
      cells: cellCounts(reports),
    },
    unanswered: {
      count: unansweredCount,
      probes: unanswered,
      ...transport.wait(),
    },
    discovery: { ...discoveryReport(discovery), ...(learned.length === 0 ? {} : { learned }) },
    traffic: summariseTraffic(latencies, answers),
    rateLimits: transport.rateLimits(),
    ...(opts.maxTimeMs === undefined
      ? {}
      : {
          deadline: {
            maxTimeMs: opts.maxTimeMs,
            reached: transport.cutByDeadline() > 0,
            checksNotRun: reports
              .filter((r) => r.status === 'skip' && r.reason?.includes(maxTimeNote) === true)
              .map((r) => r.id),
            requestsNotSent: transport.cutByDeadline(),
          },
        }),
    orders: ((): NonNullable<RunReport['orders']> => {
      const notRun = reports.filter((r) => r.status === 'skip' && r.reason?.includes(BUDGET_REASON) === true);
      return {
        ...(Number.isFinite(maxOrders) ? { maxOrders: maxOrders } : {}),
        placed,
        requestsNotSent: withheld,
        checksNotRun: notRun.map((r) => r.id),
        mustNotRun: notRun.filter((r) => r.level === 'MUST').length,
      };
    })(),
    ...((spent) => (spent === undefined ? {} : { exhausted: spent.reason }))(exhaustion.current()),
    deviations: profile.deviations,
    coverage: coverageMatrix(opts.checks ?? allChecks),
    ...(opts.replayArgs === undefined ? {} : { replayArgs: [...opts.replayArgs] }),
    ...(stopped === undefined ? {} : { stopped }),
    checks: reports,
  };
}
