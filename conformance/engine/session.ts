/**
 * The run's session (design notes, "Evidence first, verdict last"): every request goes through
 * its one sender, which holds back what the order budget or the target description forbids, and
 * records each check's probes as evidence (route, the expectation the check stated, the exchange
 * or no answer). What the run learns on the way (refusals valid orders meet, effects of refused
 * calls) is gathered here too; the verdict is conformance/judgement/decide.ts's alone.
 */
import { rule } from '../../src/rules.js';
import { describe, type Observation } from '../../src/core/response.js';
import type { RawRequest } from '../../src/client/http.js';
import { ordersIn, BUDGET_REASON, type OrderBudget, type OrderPaths, type ShareState } from './budget.js';
import { controlOf, controlRequest, knowledgeOf, type Discovery } from './discovery.js';
import { createEffectProber, methodText, ordersCarried, type EffectProber } from '../judgement/effects.js';
import { businessShown, createExhaustionWatch, refusalMarks } from '../judgement/exhaustion.js';
import { routeKey, type Built, type RequestFactory, type Route, type SigningFacts } from './requests.js';
import { limitParams, oneOrder } from '../checks/orders.js';
import type { TargetProfile } from '../target/description.js';
import { timeProbeOf, type TimeProbe } from './traffic.js';
import { DEADLINE_REASON, type Place, type SendResult, type Sender, type Transport } from './transport.js';
import {
  authRefusal,
  expect as want,
  fingerprintOf,
  judgeExchange,
  refusalToConfirm,
  type Expectation,
  type Knowledge,
  type RouteKnowledge,
} from '../judgement/verdict.js';
import type { CheckRecord, EffectFinding, Evidence } from '../judgement/decide.js';
import type { AcceptedAnswer, CheckContext, CheckDefinition, CheckSender, Probed, Target } from '../judgement/types.js';

/** A result that was never sent, with the reason. */
export function notSent(request: RawRequest, facts: SigningFacts | undefined, why: string): SendResult {
  const observation: Observation = { verdict: 'not-sent', error: why };
  return { observation, exchange: { request, observation, ...facts } };
}

export interface SessionOptions {
  transport: Transport;
  budget: OrderBudget;
  paths: OrderPaths;
  /** Aborted (Ctrl-C): the next request throws. */
  signal?: AbortSignal;
  /** After every request (progress). */
  onRequest?: () => void;
}

/** Thrown into a check by its next request once the run is aborted. */
export class RunInterrupted extends Error {
  constructor() {
    super('the run was interrupted');
  }
}

/** On whose behalf a request goes: the check's order-budget share and its queue place. */
export interface OnBehalf {
  share?: ShareState;
  place?: Place;
}

/** The run's one sender: interrupts, the order budget as a reservation, traffic counts. */
export function createRunSender(o: SessionOptions) {
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  /** Per route, the send order of the latest request that got an answer (a route shown alive after a request it left unanswered). */
  const lastAnswered = new Map<string, number>();
  /** The order each result's request was sent in. */
  const sentAs = new WeakMap<SendResult, number>();
  let sent = 0;
  /** Send `req`, reserving the orders it could place (against the check's share too, when given); not sent when they do not fit. */
  const send = async (
    req: RawRequest,
    facts?: SigningFacts,
    rebuild?: () => Built,
    { share, place }: OnBehalf = {},
  ): Promise<SendResult> => {
    if (o.signal?.aborted) throw new RunInterrupted();
    const n = ordersIn(req, o.paths);
    if (!o.budget.reserve(n, share))
      return notSent(req, facts, `${BUDGET_REASON}${o.budget.label}) is spent: not sent, it could place ${n} order(s)`);
    let r: SendResult | undefined;
    const seq = ++sent;
    try {
      r = await o.transport.send(req, facts, rebuild, place);
      sentAs.set(r, seq);
      return r;
    } finally {
      o.budget.settle(n, r?.observation ?? { verdict: 'no-answer' }, share);
      if (r !== undefined) {
        const v = r.observation.verdict;
        if (v !== 'not-sent') answers[v] = (answers[v] ?? 0) + 1;
        if (r.observation.elapsedMs !== undefined) latencies.push(r.observation.elapsedMs);
        if (v !== 'not-sent' && v !== 'no-answer' && r.exchange.route !== undefined) {
          const key = routeKey(r.exchange.route);
          lastAnswered.set(key, Math.max(lastAnswered.get(key) ?? 0, seq));
        }
      }
      o.onRequest?.();
    }
  };
  return { send, latencies, answers, lastAnswered, seqOf: (r: SendResult) => sentAs.get(r) };
}

export type RunSender = ReturnType<typeof createRunSender>;

/** What the run learns while checks send: refusals confirmed by re-sent controls. */
export interface Learning {
  knowledge: Knowledge & { routes: Record<string, RouteKnowledge> };
  learned: Array<{ route: string; refusal: string }>;
}

/**
 * Send a route's control again after a refusal not seen there yet (verdict.ts refusalToConfirm):
 * placed, the refusal is the rule's; refused alike, valid orders meet it in this run, and a control
 * pair (exhaustion.ts businessShown) tells whether it is the account's (business) or not shown
 * (blocking: a valid request meeting it still fails). Once per route and refusal. A refused
 * control is sent once more before the run learns from it: what one refusal of a valid order
 * teaches holds for every route and check (a time-window refusal learnt from a request a loaded
 * machine delayed would leave every TIME check undecided), and a jitter does not come twice,
 * while a balance refuses every time.
 */
export function createConfirmer(
  learning: Learning,
  send: (b: Built, place?: Place) => Promise<SendResult>,
  controlInput: Parameters<typeof controlRequest>[0],
  business: (route: Route, marks: readonly string[], place?: Place) => Promise<unknown>,
) {
  const confirming = new Map<string, Promise<void>>();
  return (route: Route, fp: string, place?: Place): Promise<void> => {
    const key = routeKey(route);
    const id = `${key} ${fp}`;
    let p = confirming.get(id);
    if (p === undefined) {
      p = (async () => {
        const control = () => send(controlRequest(controlInput, route), place);
        let r = await control();
        if (r.observation.verdict !== 'accepted' && r.observation.verdict !== 'not-sent') r = await control();
        if (r.observation.verdict === 'not-sent') return;
        const got = fingerprintOf(r.observation);
        const routes = learning.knowledge.routes;
        const rk = routes[key];
        if (rk === undefined) return;
        if (r.observation.verdict === 'accepted') {
          routes[key] = { ...rk, ruleRefusals: [...rk.ruleRefusals, fp] };
          return;
        }
        if (got === undefined || authRefusal(learning.knowledge, got) !== undefined) return;
        if (rk.validRefusals.includes(got) || rk.blocking?.includes(got) === true) return;
        const shown = (await business(route, [got], place)) !== undefined;
        const now = routes[key] ?? rk;
        routes[key] = shown
          ? { ...now, validRefusals: [...now.validRefusals, got] }
          : { ...now, blocking: [...(now.blocking ?? []), got] };
        learning.learned.push({
          route: key,
          refusal: `${describe(r.observation)}${shown ? " (the account's: a control pair showed it)" : " (valid orders meet it; not shown to be the account's)"}`,
        });
      })();
      confirming.set(id, p);
    }
    return p;
  };
}

export interface CheckSessionDeps {
  run: RunSender;
  learning: Learning;
  discovery: Discovery;
  /** The first asking check's place is the control's (conformance/engine/transport.ts Place). */
  confirm: (route: Route, fp: string, place?: Place) => Promise<void>;
  effects: EffectProber;
  /** Once per family, route and refusal over the whole run. */
  followedUp: Set<string>;
  /** The server clock's offset, for time probes. */
  offsetMs: () => number;
  /** Probes shared between checks (one request for the run). */
  shared: Map<string, Promise<{ result: SendResult; carry: unknown }>>;
  /** Unanswered requests of the run (the first 20 described). */
  unanswered: { count: number; probes: string[] };
  /** Accepted answers of the run, with the check that sent each (the run-wide invariants, conformance/judgement/invariant.ts). */
  answers: AcceptedAnswer[];
}

/**
 * One check's recorder: its sender (evidence), its shared probes, and its record when it ends.
 * Every request sent on the check's behalf, its follow-ups included, takes the check's `place`.
 */
export function createCheckSession(
  def: CheckDefinition,
  share: ShareState | undefined,
  d: CheckSessionDeps,
  place?: Place,
) {
  const evidence: Evidence[] = [];
  let withheld = 0;
  let cut = 0;
  const marks = new Set<string>();
  const effects = { shown: 0, methods: new Set<string>() };
  let placedByRefused: EffectFinding | undefined;
  const probes: TimeProbe[] = [];
  const role = { establishes: def.establishes ?? [] };

  /** Record the answer as evidence; `expect` restates what the probe expects (the last one stated counts). */
  const recorded = (r: SendResult): Probed => {
    const route = r.exchange.route === undefined ? undefined : routeKey(r.exchange.route);
    const slot = evidence.length;
    const seq = d.run.seqOf(r);
    const entry = (expectation: Expectation): Evidence => ({
      expectation,
      observation: r.observation,
      request: r.exchange.request,
      ...(route === undefined ? {} : { route }),
      ...(seq === undefined ? {} : { seq }),
    });
    evidence.push(entry(want.observe));
    return {
      ...r,
      expect: (expectation) => {
        evidence[slot] = entry(expectation);
        return judgeExchange(expectation, d.learning.knowledge, evidence[slot] as Evidence, role);
      },
    };
  };

  /** A whole-call refusal through a controlled route: shown to have placed nothing by effect (design notes, "Effects, not only answers"). */
  const followUp = async (r: SendResult): Promise<void> => {
    const route = r.exchange.route;
    if (
      def.ownEffects === true ||
      r.observation.verdict !== 'rejected' ||
      route === undefined ||
      controlOf(d.discovery, route)?.state !== 'accepted'
    )
      return;
    const key = `${rule(def.ruleId).family} ${routeKey(route)} ${fingerprintOf(r.observation) ?? ''}`;
    if (d.followedUp.has(key)) return;
    d.followedUp.add(key);
    const f = await d.effects.followUp(r, place);
    if (f === undefined) return;
    effects.methods.add(
      f.method.kind === 'none' ? `not shown on ${routeKey(route)}: ${methodText(f.method)}` : methodText(f.method),
    );
    if (f.reading === 'placed-nothing') effects.shown++;
    if (f.reading === 'placed')
      placedByRefused ??= {
        refused: { route: routeKey(route), observation: r.observation },
        shown: `${methodText(f.method)} showed client id ${f.id} already used (${f.result === undefined ? '?' : describe(f.result.observation)})`,
      };
  };

  const send: CheckSender = async (req, facts, rebuild) => {
    const route = facts?.route;
    let r: SendResult;
    if (route !== undefined && controlOf(d.discovery, route)?.state === 'not-offered') {
      r = notSent(req, facts, `the target does not offer ${routeKey(route)} (target description)`);
    } else {
      r = await d.run.send(req, facts, rebuild, {
        ...(share === undefined ? {} : { share }),
        // (the check named on its requests: the silence of a target that stops answering lists who sent what)
        place: { ...(place ?? { priority: 0 }), check: def.id },
      });
      if (r.observation.verdict === 'not-sent' && r.observation.error?.startsWith(BUDGET_REASON) === true) withheld++;
      else {
        const tp = def.timeProbes === true ? timeProbeOf(r.exchange, d.offsetMs()) : undefined;
        if (tp !== undefined) probes.push(tp);
        if (r.observation.verdict === 'not-sent' && r.observation.error === DEADLINE_REASON) cut++;
        if (r.observation.verdict === 'no-answer') {
          d.unanswered.count++;
          if (d.unanswered.probes.length < 20)
            d.unanswered.probes.push(
              `${def.id}: ${req.method} ${req.path}${route === undefined ? '' : ` (${routeKey(route)})`}: ${describe(r.observation)}`,
            );
        }
        if (r.observation.verdict === 'accepted') d.answers.push({ check: def.id, exchange: r.exchange });
        const fp = refusalToConfirm(d.learning.knowledge, {
          observation: r.observation,
          ...(route === undefined ? {} : { route: routeKey(route) }),
        });
        if (fp !== undefined && route !== undefined) await d.confirm(route, fp, place);
        for (const m of refusalMarks(r.observation)) marks.add(m);
        await followUp(r);
      }
    }
    return recorded(r);
  };

  /** One exchange per key for the whole run: the first check asking sends it, the others record the same answer. */
  const shared = async <T>(
    key: string,
    make: () => { built: Built; carry: T },
  ): Promise<{ result: SendResult; carry: T }> => {
    const first = d.shared.get(key) as Promise<{ result: SendResult; carry: T }> | undefined;
    if (first !== undefined) {
      const v = await first;
      // a probe the first check could not send (its order budget, a route not offered) is this check's to try
      if (v.result.observation.verdict !== 'not-sent') {
        const { expect: _e, ...plain } = v.result as Probed;
        return { result: recorded(plain), carry: v.carry };
      }
    }
    const { built, carry } = make();
    const p = send(built.request, built.facts, built.rebuild).then((result) => ({ result, carry }));
    if (first === undefined) d.shared.set(key, p);
    return p;
  };

  return {
    send,
    shared,
    /** Orders this check reserved or placed. */
    ordersPlaced: () => share?.used ?? 0,
    /** The refusals this check met (an exhausted account may explain a failure later). */
    marks: () => [...marks],
    timeProbes: () => probes,
    record: (outcome: CheckRecord['outcome'], durationMs: number, crashed?: string): CheckRecord => ({
      def,
      ...(outcome === undefined ? {} : { outcome }),
      ...(crashed === undefined ? {} : { crashed }),
      evidence,
      withheld,
      cut,
      ...(placedByRefused === undefined ? {} : { placedByRefused }),
      effects: { shown: effects.shown, methods: [...effects.methods] },
      durationMs,
    }),
  };
}

/** The run's sender as the transport's type (no check share): for the clock probes and the checks' context before a check's own session wraps it. */
export function plainSender(run: RunSender): Sender {
  return (req, facts, rebuild) => run.send(req, facts, rebuild);
}

/** A positive decimal written the plain way: no sign, exponent, leading or trailing zeros. */
const PLAIN_DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/**
 * A refused order's parameters (its signing parameters left out) as they were, and the same with
 * its quantity and amount a thousandth: different in their size only, so only where each size is
 * written the plain way; a spelling a server may refuse (`0.10`, `1e-3`, a JSON number) or no size
 * at all gets undefined.
 */
export function sizeTwins(
  order: Record<string, unknown>,
): { same: Record<string, unknown>; small: Record<string, unknown> } | undefined {
  const { timestamp: _t, signature: _s, ...same } = order;
  const small = { ...same };
  const sizes = (['quantity', 'amount'] as const).filter((k) => same[k] !== undefined);
  for (const k of sizes) {
    const v = same[k];
    if (typeof v !== 'string' || !PLAIN_DECIMAL.test(v) || v === '0') return undefined;
    small[k] = smaller(v);
  }
  return sizes.length === 0 ? undefined : { same, small };
}

/** A thousandth of a decimal quantity, exactly (a smaller control order: conformance/judgement/exhaustion.ts). */
function smaller(q: unknown): string {
  const [i = '0', f = ''] = String(q).split('.');
  const digits = `${i}${f}`.replace(/^0+(?=\d)/, '');
  const scale = f.length + 3;
  const padded = digits.padStart(scale + 1, '0');
  return `${padded.slice(0, -scale)}.${padded.slice(-scale)}`.replace(/\.?0+$/, '');
}

/** What the run's services need: its sender, discovery, the factory and the target. */
export interface RunServiceInput {
  run: RunSender;
  discovery: Discovery;
  factory: RequestFactory;
  base: Pick<CheckContext, 'target' | 'seed' | 'clientId'>;
  controlInput: Parameters<typeof controlRequest>[0];
  profile: TargetProfile;
  target: Target;
  /** The server's time now, and the clock's offset (conformance/engine/clock.ts). */
  now: () => number;
  offsetMs: () => number;
}

/**
 * The services the checks' sessions share: what the run learns (knowledge grown by re-sent
 * controls), the effect prober, the control pairs that show a refusal to be the account's, and
 * the exhaustion watch over failures.
 */
export function createRunServices(i: RunServiceInput) {
  const { run, discovery, factory, base } = i;
  const sendBuilt = (b: Built, place?: Place) =>
    run.send(b.request, b.facts, b.rebuild, place === undefined ? {} : { place });
  const sendOrNot = async (b: Built, place?: Place) => {
    const r = await sendBuilt(b, place);
    return r.observation.verdict === 'not-sent' ? undefined : r;
  };
  const known = knowledgeOf(discovery);
  const learning: Learning = { knowledge: { ...known, routes: { ...known.routes } }, learned: [] };
  const validOrder = (route: Route, over: Record<string, unknown>): Built =>
    factory.onRoute(route, { ...(route.endpoint === 'batch' ? oneOrder(base) : limitParams(base)), ...over });
  const effects = createEffectProber({
    send: sendOrNot,
    sendPlain: (req, place) => run.send(req, undefined, undefined, place === undefined ? {} : { place }),
    validOrder: (route, id) => validOrder(route, { newClientOrderId: id }),
    clientId: base.clientId,
    ...(i.profile.orderLookup === undefined ? {} : { lookup: i.profile.orderLookup }),
    auth: { apiKey: i.target.apiKey, secret: i.target.secret, apiKeyHeader: i.profile.apiKeyHeader, now: i.now },
    symbol: i.target.symbol,
  });
  const controls = {
    control: (route: Route, side: 'BUY' | 'SELL', small?: boolean) =>
      validOrder(route, { side, ...(small ? { quantity: smaller(limitParams(base).quantity) } : {}) }),
    send: sendOrNot,
  };
  /** The refused request's order at `index` built anew, and a thousandth of its size: fresh client ids, signed as the run signs. */
  const sizePair = (route: Route, refused: RawRequest, index: number): [Built, Built] | undefined => {
    const order = ordersCarried(route, refused)?.[index];
    const twins = order === undefined ? undefined : sizeTwins(order);
    if (twins === undefined) return undefined;
    const build = (o: Record<string, unknown>) => factory.onRoute(route, { ...o, newClientOrderId: base.clientId() });
    return [build(twins.same), build(twins.small)];
  };
  const exhaustion = createExhaustionWatch({
    ...controls,
    sizePair,
    acceptedEarlier: (route) => controlOf(discovery, route)?.state === 'accepted',
  });
  const deps: CheckSessionDeps = {
    run,
    learning,
    discovery,
    confirm: createConfirmer(learning, sendBuilt, i.controlInput, (route, marks, place) =>
      businessShown(controls, route, marks, place),
    ),
    effects,
    followedUp: new Set<string>(),
    offsetMs: i.offsetMs,
    shared: new Map(),
    unanswered: { count: 0, probes: [] },
    answers: [],
  };
  return { learning, exhaustion, deps };
}
