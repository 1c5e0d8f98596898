/**
 * The verdict of one exchange, and of a check over its routes: a pure function of what
 * the probe expected, what discovery (and the run so far) learnt of the target, and what
 * came back (design notes, "How a verdict is earned"). The runner only orchestrates: it
 * sends, re-sends a route's positive control when this module asks, and files the cells.
 */
import { describe, entriesOf, entryFailed, entryPlaced, isRecord, type Observation } from '../../src/core/response.js';
import type { RawRequest } from '../../src/client/http.js';

/**
 * Which refusal a negative probe expects. `auth`: the fault is in the request's
 * authentication (key, signature, timestamp), so the signature/key fingerprint is the
 * refusal the rule asks for. `rule`: the request is authentic and broken in one field, so
 * the refusal must come from past the authentication (the auth fingerprint proves nothing).
 * `any`: several faults at once, any refusal is right.
 */
export type RefusalLayer = 'auth' | 'rule' | 'any';

/**
 * What a probe expects (design notes). `accept`: a valid, correctly signed request, to be
 * accepted. `signature-accepted`: a valid request whose signature must verify; a refusal
 * counts only when it is shown by difference not to be about the signature. `refuse`: a
 * request broken in exactly one way; `entries` also takes an accepted batch whose every
 * entry failed (§4.1 "unsupported"). `entry`: inside an accepted batch, entry `index` fails
 * (or the whole call is refused). `observe`: an open point of the seed; only an answer that
 * is no answer at all, a 5xx or garbage fails.
 */
export type Expectation =
  | { kind: 'accept' }
  | { kind: 'signature-accepted' }
  | { kind: 'refuse'; layer: RefusalLayer; entries?: boolean }
  | { kind: 'entry'; index: number }
  | {
      kind: 'observe';
      /** A connection the server closed before answering refused the request at the front (an oversized body, garbage): decided. */
      closeRefuses?: boolean;
    };

/** The expectations, by name, for probe sites. */
export const expect = {
  accept: { kind: 'accept' } as Expectation,
  signatureAccepted: { kind: 'signature-accepted' } as Expectation,
  refuse: (layer: RefusalLayer = 'rule', entries = false): Expectation => ({
    kind: 'refuse',
    layer,
    ...(entries ? { entries } : {}),
  }),
  entry: (index: number): Expectation => ({ kind: 'entry', index }),
  observe: { kind: 'observe' } as Expectation,
  /** Observe a request a front may refuse by closing the connection (an oversized body, garbage): the close is its refusal. */
  observeClosing: { kind: 'observe', closeRefuses: true } as Expectation,
};

/**
 * The outcome of one exchange for the rule its probe exercises. `unanswered`: no answer
 * (timeout, reset): never read as accepted nor refused (ROBUST-NO-HANG judges it).
 */
export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'unanswered';

/**
 * Why an exchange (or a check's cell) is undecided, typed so no report reads reason text.
 * `no-control`: the route accepted no valid request in this run. `business`: refused like valid
 * orders are in this run (shown by a control). `auth`: refused at the authentication, never
 * reaching the rule. `rate-limited`: still limited after retries. `not-sent`: held back (the
 * order budget, the deadline, a route not offered). `unanswered`: no answer.
 */
export type UndecidedCause =
  | 'no-control'
  | 'business'
  | 'auth'
  | 'rate-limited'
  | 'not-sent'
  | 'unanswered'
  | 'target-down';

/**
 * Why a check is undecided or was not run, typed so no report reads reason text: an exchange's
 * cause, or `budget` / `deadline` (held back, not run), `not-offered` (the target lacks the route),
 * `check` (the check's own reason). Decided once, in conformance/judgement/decide.ts.
 */
export type Cause =
  | Exclude<UndecidedCause, 'not-sent'>
  | 'budget'
  | 'deadline'
  | 'not-offered'
  | 'check'
  | 'interrupted'
  | 'fail-fast';

export interface ExchangeVerdict {
  verdict: Verdict;
  /** Why, in words (for a pass: how it was earned). */
  reason: string;
  /** For a pass earned by a refusal shown not to be about the signature: that refusal. */
  business?: string;
  /** For an undecided verdict: why, typed. */
  cause?: UndecidedCause;
}

/**
 * `accepted`: a valid order was accepted. `signature-ok`: refused, but not like a bad
 * signature on the same route (a business reason: filters, balance), so signing checks
 * may use the route and rule checks may not. `refused`: refused like a bad signature,
 * or no route at all (404), or no usable answer. `not-offered`: the target description
 * says the server does not serve it; nothing was sent.
 */
export type ControlState = 'accepted' | 'signature-ok' | 'refused' | 'not-offered';

/** What the run knows of one route. */
export interface RouteKnowledge {
  /** The state of its positive control in discovery. */
  state: ControlState;
  /** What the control got, in words. */
  observed: string;
  /** The control's refusal fingerprint, when it was refused. */
  fingerprint?: string;
  /** The control got 404/405: the target has no such route. */
  absent?: boolean;
  /**
   * Refusals valid orders on this route met in this run that a control showed to be the account's
   * (the opposite or a much smaller order, sent at that moment, was placed): business (design notes, "A refusal is recognised by a control, not its code").
   */
  validRefusals: readonly string[];
  /**
   * Refusals valid orders on this route met in this run with no control showing them to be the
   * account's: a negative probe meeting one proves nothing, a valid request meeting one still fails.
   */
  blocking?: readonly string[];
  /** Refusals shown not to be met by valid orders here: a control re-sent right after met none of them. */
  ruleRefusals: readonly string[];
}

/** What discovery, and the run so far, learnt of the target. */
export interface Knowledge {
  /** By route key (`batch/json`, `v1.1/split`, ...). */
  routes: Readonly<Record<string, RouteKnowledge>>;
  /** The answer to a wrong signature. */
  signature?: string;
  /** The answer to an unknown API key. */
  unknownKey?: string;
  /** The answers to a request without its signature, its API key or its timestamp (a "missing parameter" answer proves nothing about the signature). */
  missing: readonly string[];
}

/** What the check knows of itself. */
export interface CheckRole {
  /** The routes whose acceptance this check establishes: a refused control there is this check's failure. */
  establishes?: readonly string[];
}

/** One exchange as the verdict reads it. */
export interface Judged {
  observation: Observation;
  /** Route key, when the request went to an order route. */
  route?: string;
}

/** `HTTP 401 code -1022`: the status and top-level code of a rejection; undefined for anything that is not one. */
export function fingerprintOf(o: Observation): string | undefined {
  if (o.verdict !== 'rejected') return undefined;
  return `HTTP ${o.status ?? '?'} code ${o.code === undefined ? 'none' : JSON.stringify(o.code)}`;
}

/** Whether a refusal is the signature or key fingerprint (it never got past the authentication). */
export function authRefusal(k: Knowledge, fp: string | undefined): string | undefined {
  if (fp === undefined) return undefined;
  if (fp === k.signature) return `the signature fingerprint (${fp})`;
  if (fp === k.unknownKey) return `the API-key fingerprint (${fp})`;
  return undefined;
}

/**
 * Refusals valid orders met anywhere in this run, shown to be the account's or not (a negative
 * probe meeting one proves nothing either way), less the auth fingerprints and the
 * missing-parameter answers: a valid order refused like a request missing a parameter shows a
 * route that does not read it, not a state of the account.
 */
export function refusalsValidOrdersMeet(k: Knowledge): Set<string> {
  const out = new Set<string>();
  for (const r of Object.values(k.routes))
    for (const f of [...r.validRefusals, ...(r.blocking ?? [])])
      if (authRefusal(k, f) === undefined && !k.missing.includes(f)) out.add(f);
  return out;
}

/** A refusal that shows the signature verified: unlike the wrong-signature, unknown-key and every missing-parameter answer. */
export function signatureShownAccepted(k: Knowledge, fp: string | undefined): boolean {
  return (
    fp !== undefined &&
    k.signature !== undefined &&
    fp !== k.signature &&
    fp !== k.unknownKey &&
    !k.missing.includes(fp)
  );
}

const v = (verdict: Verdict, reason: string, business?: string): ExchangeVerdict =>
  business === undefined ? { verdict, reason } : { verdict, reason, business };

/** An undecided verdict with its cause. */
const open = (reason: string, cause: UndecidedCause): ExchangeVerdict => ({ verdict: 'inconclusive', reason, cause });

function broken(o: Observation): boolean {
  return o.verdict === 'server-error' || o.verdict === 'bad-response';
}

/** Entries of an accepted batch answer that show a placed order. */
function placedEntries(o: Observation): boolean {
  return (entriesOf(o.json) ?? []).some(entryPlaced);
}

/** An accepted batch whose every entry failed: nothing placed (§4.1 "unsupported"). */
function everyEntryFailed(o: Observation): boolean {
  const e = entriesOf(o.json);
  return o.verdict === 'accepted' && e !== undefined && e.length > 0 && e.every(entryFailed);
}

/**
 * The verdict of one exchange for the rule its probe exercises (design notes, "How a
 * verdict is earned"). Pure: the same inputs give the same verdict.
 */
export function judgeExchange(exp: Expectation, k: Knowledge, x: Judged, role: CheckRole = {}): ExchangeVerdict {
  const o = x.observation;
  const said = describe(o);
  const route = x.route === undefined ? undefined : k.routes[x.route];
  const establishes = x.route !== undefined && (role.establishes ?? []).includes(x.route);
  if (o.verdict === 'not-sent') {
    // A route the target does not offer is one failure: of the check establishing it.
    if (establishes && route?.state === 'not-offered' && (exp.kind === 'accept' || exp.kind === 'signature-accepted'))
      return v('fail', said);
    return open(said, 'not-sent');
  }
  if (o.verdict === 'no-answer') {
    // a front refusing an oversized body closes the connection while it is still sent (EPIPE, a reset):
    // an answer of its own kind, never a 5xx; a request the run gave up on (the target down) is not one
    if (
      exp.kind === 'observe' &&
      exp.closeRefuses === true &&
      o.errorCode === 'ERR_NETWORK' &&
      o.error?.startsWith('given up:') !== true
    )
      return v('pass', `the connection was closed before an answer, refusing the body: ${said}`);
    return { verdict: 'unanswered', reason: said, cause: 'unanswered' };
  }
  if (o.verdict === 'rate-limited')
    return open('still rate limited after waiting and retrying (HTTP 429/503): no verdict', 'rate-limited');
  const fp = fingerprintOf(o);
  const noControl = route !== undefined && route.state !== 'accepted';
  const noControlWhy = `no positive control: ${x.route ?? '?'} did not accept a valid request in this run (${route?.observed ?? '?'})`;

  switch (exp.kind) {
    case 'observe': {
      if (broken(o)) return v('fail', `an answer that is not a 5xx or garbage: ${said}`);
      if (o.verdict === 'rejected') {
        if (noControl) return open(noControlWhy, 'no-control');
        const a = authRefusal(k, fp);
        if (a !== undefined) return open(`refused with ${a}: the request never reached the point observed`, 'auth');
      }
      return v('pass', said);
    }
    case 'accept':
    case 'signature-accepted': {
      if (o.verdict === 'accepted') return v('pass', 'accepted');
      if (broken(o)) return v('fail', `a valid, correctly signed request got ${said}`);
      // rejected
      if (exp.kind === 'signature-accepted' && route?.state !== 'refused' && signatureShownAccepted(k, fp)) {
        return v(
          'pass',
          `signature accepted, order refused for another reason (${fp ?? '?'}: unlike a wrong signature and every missing-parameter answer)`,
          said,
        );
      }
      if (noControl) {
        if (establishes)
          return v(
            'fail',
            `a valid, correctly signed request on ${x.route ?? '?'} was refused, as the route's positive control was in discovery: ${said}`,
          );
        return open(noControlWhy, 'no-control');
      }
      if (route !== undefined && fp !== undefined && route.validRefusals.includes(fp)) {
        return open(
          `a valid order on ${x.route ?? '?'} met the same refusal in this run (${fp}): a business refusal (balance, position, filters), not this rule's`,
          'business',
        );
      }
      if (route !== undefined && fp !== undefined && route.blocking?.includes(fp) === true)
        return v(
          'fail',
          `a valid, correctly signed request was refused: ${said}; valid controls met the same refusal in this run and no opposite or smaller order placed at that moment showed it to be the account's (a venue limiting open orders: declare the limit as the target description's account.orders, or lower --max-orders)`,
        );
      return v('fail', `a valid, correctly signed request was refused: ${said}`);
    }
    case 'refuse':
    case 'entry': {
      if (broken(o)) return v('fail', `a refusal (HTTP 4xx, or 200 with a non-zero code), not ${said}`);
      if (o.verdict === 'accepted') {
        if (exp.kind === 'entry') {
          const e = entriesOf(o.json)?.[exp.index];
          if (isRecord(e) && entryFailed(e))
            return v('pass', `entry ${exp.index} failed with code ${JSON.stringify(e.code)}`);
          return v('fail', `entry ${exp.index} with a non-zero code, got ${JSON.stringify(e) ?? 'no such entry'}`);
        }
        if (exp.entries === true && everyEntryFailed(o))
          return v('pass', 'accepted with every entry failed: nothing placed');
        return v('fail', `accepted: ${said}`);
      }
      // rejected
      if (placedEntries(o)) return v('fail', `rejection that still reports placed orders: ${said}`);
      const layer = exp.kind === 'entry' ? 'rule' : exp.layer;
      if (noControl && x.route !== undefined) {
        // A route that verifies signatures (a valid request was refused unlike a wrong signature) can decide an auth-layer rule.
        const authDecides = layer !== 'rule' && route?.state === 'signature-ok' && fp !== route.fingerprint;
        if (!authDecides) return open(noControlWhy, 'no-control');
      }
      if (layer === 'rule') {
        const a = authRefusal(k, fp);
        if (a !== undefined) return open(`refused with ${a}, so the request never reached the rule`, 'auth');
      }
      if (layer !== 'any' && fp !== undefined && refusalsValidOrdersMeet(k).has(fp)) {
        const shown = Object.values(k.routes).some((r) => r.validRefusals.includes(fp));
        return open(
          shown
            ? `refused like valid orders are in this run (${fp}): a business refusal (balance, position, filters), not the rule under test`
            : `refused like valid orders are in this run (${fp}): the refusal proves nothing about the rule under test`,
          shown ? 'business' : 'no-control',
        );
      }
      return v('pass', `refused: ${fp ?? said}`);
    }
  }
}

/**
 * The refusal a re-sent positive control would decide, or undefined: a refusal not yet
 * seen on a route whose control was accepted, that is neither the auth fingerprint nor a
 * missing-parameter answer. The runner re-sends the route's control once per route and
 * refusal: if the control meets the same refusal it is a business refusal of this run
 * (`validRefusals`: a valid request meeting it is inconclusive, a negative probe meeting it
 * proves nothing), otherwise it is a refusal valid orders do not meet (`ruleRefusals`).
 */
export function refusalToConfirm(k: Knowledge, x: Judged): string | undefined {
  const fp = fingerprintOf(x.observation);
  if (fp === undefined || x.route === undefined) return undefined;
  const route = k.routes[x.route];
  if (route?.state !== 'accepted') return undefined;
  if (route.validRefusals.includes(fp) || route.ruleRefusals.includes(fp) || route.blocking?.includes(fp) === true)
    return undefined;
  if (authRefusal(k, fp) !== undefined || k.missing.includes(fp)) return undefined;
  return fp;
}

/** A check's verdict on one route: a cell of the coverage matrix (spec/coverage.json). */
export type CellVerdict = 'pass' | 'fail' | 'inconclusive' | 'unanswered' | 'not-offered';

export interface RouteCell {
  route: string;
  verdict: CellVerdict;
  /** Why (for a failure: what was expected and seen; for an undecided cell: the first reason). */
  reason?: string;
  /** Requests of the check on this route. */
  requests: number;
}

/** One failing input form of a per-input check: the route, the form IDs a request carried, what it had to be and was. */
export interface FormFailure {
  route: string;
  forms: string[];
  expected: string;
  actual: string;
}

/** What a check found (the runner applies level and profile). `cells`: the check's own verdict per route, where it judged them itself. */
export type CheckOutcome =
  | { status: 'pass'; observed?: string; runs?: number; cells?: RouteCell[]; exchange?: ExchangeRef }
  | {
      status: 'fail';
      expected: string;
      actual: string;
      exchange?: ExchangeRef;
      counterexample?: string;
      runs?: number;
      observed?: string;
      cells?: RouteCell[];
      /** Every failing input form, when a check sends many (the per-input checks): the first is `expected`/`actual`. */
      failures?: FormFailure[];
    }
  | { status: 'info'; observed: string; matchesReference?: boolean; exchange?: ExchangeRef }
  | { status: 'skip'; reason: string }
  | { status: 'inconclusive'; reason: string; exchange?: ExchangeRef; runs?: number; cells?: RouteCell[] };

/** The exchange an outcome points at (for the curl reproduction and its route's cell); the transport's Exchange has these. */
export interface ExchangeRef {
  observation: Observation;
  route?: { endpoint: string; placement: string };
  /** The request as sent (the size control of an account refusal rebuilds its order). */
  request?: RawRequest;
}

/** The per-route verdicts the runner tallied from a check's exchanges. */
export interface RouteTally {
  pass: number;
  fail: number;
  inconclusive: number;
  unanswered: number;
  requests: number;
  firstReason?: string;
  firstUnanswered?: string;
}

const cellOf = (route: string, t: RouteTally | undefined): RouteCell => {
  if (t === undefined || t.requests === 0)
    return { route, verdict: 'inconclusive', reason: 'no request reached this route', requests: 0 };
  // A failure is the check's to report (it may retry, or judge more than the answer): an exchange verdict of fail decided the cell.
  if (t.pass + t.fail > 0) return { route, verdict: 'pass', requests: t.requests };
  if (t.unanswered > 0 && t.inconclusive === 0)
    return { route, verdict: 'unanswered', reason: t.firstUnanswered ?? 'no answer', requests: t.requests };
  return {
    route,
    verdict: 'inconclusive',
    reason: t.firstReason ?? t.firstUnanswered ?? 'no request reached the rule',
    requests: t.requests,
  };
};

/** Route key of an exchange reference. */
export function refRoute(x: ExchangeRef | undefined): string | undefined {
  return x?.route === undefined ? undefined : `${x.route.endpoint}/${x.route.placement}`;
}

/**
 * A check's cells and overall status from its outcome and the exchange verdicts per route
 * (design notes, "Verdicts per cell"): fail if any route fails; pass only when every route
 * it covers that the target offers was decided; otherwise inconclusive, naming the routes.
 * `absent`: routes the target does not offer (described so, or 404/405 to the control).
 */
export function routeVerdicts(
  out: CheckOutcome,
  covers: readonly string[],
  tallies: ReadonlyMap<string, RouteTally>,
  absent: ReadonlySet<string>,
): { outcome: CheckOutcome; cells: RouteCell[] } {
  if (out.status === 'info' || out.status === 'skip') return { outcome: out, cells: [] };
  const own = new Map(('cells' in out ? (out.cells ?? []) : []).map((c) => [c.route, c]));
  // a check covering no route has cells only where it judged routes itself (the per-input checks)
  if (covers.length === 0 && own.size === 0) return { outcome: out, cells: [] };
  const failedAt = out.status === 'fail' ? refRoute(out.exchange) : undefined;
  // The routes it covers, and any other route where an answer decided its rule (a check free to use any route).
  const routes = [
    ...covers,
    ...[...own.keys()].filter((r) => !covers.includes(r)),
    ...[...tallies].filter(([r, t]) => !covers.includes(r) && !own.has(r) && t.pass + t.fail > 0).map(([r]) => r),
  ];
  const cells: RouteCell[] = routes.map((route) => {
    const t = tallies.get(route);
    const mine = own.get(route);
    if (mine !== undefined) {
      if (absent.has(route) && mine.verdict !== 'pass' && mine.verdict !== 'fail')
        return {
          route,
          verdict: 'not-offered',
          reason: mine.reason ?? 'not offered by the target',
          requests: t?.requests ?? mine.requests,
        };
      return { ...mine, requests: t?.requests ?? mine.requests };
    }
    if (route === failedAt && out.status === 'fail')
      return {
        route,
        verdict: 'fail',
        reason: `expected ${out.expected}; got ${out.actual}`,
        requests: t?.requests ?? 1,
      };
    if (absent.has(route) && (t === undefined || t.pass + t.fail === 0))
      return {
        route,
        verdict: 'not-offered',
        reason: t?.firstReason ?? 'not offered by the target',
        requests: t?.requests ?? 0,
      };
    return cellOf(route, t);
  });
  if (out.status === 'fail') return { outcome: out, cells };
  const at = refRoute(out.exchange);
  // Undecided only on a route the target lacks: decided on the routes it offers.
  if (out.status === 'inconclusive' && own.size === 0 && (at === undefined || !absent.has(at))) {
    // The check could not decide, for its own reason: the route it names (or none) stays undecided.
    const marked = cells.map((c) =>
      c.route === at && c.verdict === 'pass' ? { ...c, verdict: 'inconclusive' as const, reason: out.reason } : c,
    );
    return { outcome: out, cells: marked };
  }
  const failed = cells.filter((c) => c.verdict === 'fail');
  if (failed.length > 0) {
    const f = failed[0] as RouteCell;
    return {
      outcome: {
        status: 'fail',
        expected: `every route to satisfy the rule`,
        actual: `${failed.map((c) => c.route).join(', ')}: ${f.reason ?? 'failed'}`,
        cells,
      },
      cells,
    };
  }
  const open = cells.filter((c) => c.verdict === 'inconclusive' || c.verdict === 'unanswered');
  const decided = cells.filter((c) => c.verdict === 'pass');
  if (open.length === 0 && decided.length > 0) {
    return { outcome: out.status === 'pass' ? out : { status: 'pass', cells }, cells };
  }
  const why = open.map((c) => `${c.route} (${c.reason ?? c.verdict})`).join('; ');
  const reason =
    decided.length === 0
      ? open.length === 0
        ? `no route the check covers is offered by the target: ${cells.map((c) => `${c.route} (${c.reason ?? c.verdict})`).join('; ')}`
        : `no route decided: ${why}`
      : `decided on ${decided.map((c) => c.route).join(', ')}; not on ${why}`;
  return { outcome: { status: 'inconclusive', reason }, cells };
}
