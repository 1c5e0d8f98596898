/**
 * The one decision of a check (design notes, "Evidence first, verdict last"): once the run's
 * knowledge is final, a check's record (what it sent, what each probe expected, what came
 * back, what the run showed by effect) becomes its status, cells and typed reason. Pure: the
 * same record and knowledge give the same decision; no status is set anywhere else, and every
 * output (console, JSON, JUnit, NDJSON, HTML, matrix, --fail-fast) reads this one.
 */
import { rule, type RuleLevel } from '../../src/rules.js';
import { describe, showsPlaced, type Observation } from '../../src/core/response.js';
import {
  judgeExchange,
  routeVerdicts,
  type CheckOutcome,
  type ExchangeVerdict,
  type Expectation,
  type Knowledge,
  type RouteCell,
  type RouteTally,
  type ExchangeRef,
  type Cause,
} from './verdict.js';
import { DEADLINE_REASON, TARGET_DOWN_REASON } from '../engine/transport.js';
import { meets, refusalMarks } from './exhaustion.js';
import type { CheckDefinition, CheckReport, CheckStatus, Strictness } from './types.js';
import type { RawRequest } from '../../src/client/http.js';

/** One probe as the run recorded it: where it went, what the check last stated it expects, what came back. */
export interface Evidence {
  route?: string;
  /** The expectation the check stated (`observe` when it stated none). */
  expectation: Expectation;
  observation: Observation;
  /** The order the request was sent in, over the whole run. */
  seq?: number;
  /** The request as sent (for the run's own tests: a positive probe stays inside the target description). */
  request?: RawRequest;
}

/** What the run showed by effect about one of the check's refused calls (conformance/judgement/effects.ts). */
export interface EffectFinding {
  /** The refused call and its route. */
  refused: { route?: string; observation: Observation };
  /** What showed the call placed an order, in words. */
  shown: string;
}

/** Everything the run recorded of one check. */
export interface CheckRecord {
  def: CheckDefinition;
  /** What the check concluded from its provisional verdicts; undefined when it did not run or threw. */
  outcome?: CheckOutcome;
  /** The check threw instead of concluding (a defect of the kit): the error's message. */
  crashed?: string;
  evidence: readonly Evidence[];
  /** Requests the order budget held back, and requests the deadline cut. */
  withheld: number;
  cut: number;
  /** Set when the check did not run at all: the deadline passed, discovery was cut, the target stopped answering, the run was stopped. */
  notRun?: { cause: 'deadline' | 'budget' | 'target-down' | 'interrupted' | 'fail-fast'; reason: string };
  /** A refused call shown by effect to have placed an order. */
  placedByRefused?: EffectFinding;
  /** Refused calls shown by effect to have placed nothing, and how it was shown. */
  effects: { shown: number; methods: readonly string[] };
  /**
   * Valid orders shown by a control to meet this refusal at that moment while an opposite order
   * was accepted (conformance/judgement/exhaustion.ts): the refusal is the account's, not the rule's.
   */
  business?: { mark: string; reason: string };
  durationMs: number;
}

/** What the run as a whole knows when it decides. */
export interface RunFacts {
  knowledge: Knowledge;
  profile: Strictness;
  /** Routes the target does not offer (described so, or 404/405 to the control). */
  absent: ReadonlySet<string>;
  /** Routes whose positive control failed: for checks that do not establish them, not offered. */
  controlFailed: ReadonlySet<string>;
  /** Per route, the send order of the latest request it answered in this run. */
  lastAnswered: ReadonlyMap<string, number>;
  /** The order budget in words (`--max-orders N`, or the account budget). */
  budgetLabel: string;
  /** The run's deadline in words (`--max-time N ms`). */
  deadlineLabel: string;
  /** Set when the target stopped answering (conformance/engine/transport.ts Silence): since when no answer came. */
  silence?: { since: number };
}

/** The decision: the report fields that say what the check found. */
export type Decision = Pick<
  CheckReport,
  | 'status'
  | 'level'
  | 'expected'
  | 'actual'
  | 'observed'
  | 'reason'
  | 'counterexample'
  | 'runs'
  | 'notes'
  | 'routes'
  | 'cells'
  | 'failures'
> & {
  /** Why it is undecided or not run (typed). */
  cause?: Cause;
  /** The exchange the outcome rests on (for the curl reproduction). */
  failing?: ExchangeRef;
};

const ACCEPTS = new Set(['accept', 'signature-accepted']);

/** The level a check reports at: its own, else its rule's. */
function levelOf(def: CheckDefinition): RuleLevel {
  return def.level ?? rule(def.ruleId).level;
}

/**
 * The final verdict of one probe, with the run's final knowledge: the exchange verdict of
 * conformance/judgement/verdict.ts, plus a rule it cannot see alone: a valid request left unanswered by a
 * route that answered requests sent after it fails (a valid request left unanswered is as refused as a refused one); a
 * route that stopped answering altogether leaves it undecided.
 */
function finalVerdict(e: Evidence, facts: RunFacts, def: Pick<CheckDefinition, 'establishes'>): ExchangeVerdict {
  // a request left unanswered once the target had stopped answering is evidence of the outage only (ROBUST-NO-HANG)
  if (silenced(e.observation, facts))
    return {
      verdict: 'inconclusive',
      reason: `no answer: the target had stopped answering (${describe(e.observation)})`,
      cause: 'target-down',
    };
  const v = judgeExchange(e.expectation, facts.knowledge, e, { establishes: def.establishes ?? [] });
  if (
    v.verdict === 'unanswered' &&
    ACCEPTS.has(e.expectation.kind) &&
    e.route !== undefined &&
    e.seq !== undefined &&
    (facts.lastAnswered.get(e.route) ?? 0) > e.seq
  )
    return {
      verdict: 'fail',
      reason: `a valid, correctly signed request was never answered, while ${e.route} answered requests sent after it in this run: ${describe(e.observation)}`,
    };
  return v;
}

/** Whether an observation is a request left unanswered, or never sent, because the target had stopped answering. */
function silenced(o: Observation, facts: RunFacts): boolean {
  if (o.verdict === 'not-sent') return o.error === TARGET_DOWN_REASON;
  return o.verdict === 'no-answer' && facts.silence !== undefined && (o.endedAt ?? Infinity) >= facts.silence.since;
}

/** Whether a probe's failure is an acceptance of what must be refused (never excused, whenever it happened). */
function acceptedWhatMustBeRefused(e: Evidence, v: ExchangeVerdict): boolean {
  return (
    v.verdict === 'fail' &&
    (e.expectation.kind === 'refuse' || e.expectation.kind === 'entry') &&
    showsPlaced(e.observation)
  );
}

/** The cause of an undecided exchange verdict, typed where it was judged. */
function causeOf(e: Evidence, v: ExchangeVerdict, facts: RunFacts): Cause {
  if (v.cause !== 'not-sent') return v.cause ?? 'check';
  if (e.observation.error === TARGET_DOWN_REASON) return 'target-down';
  if (e.route !== undefined && facts.absent.has(e.route)) return 'not-offered';
  return e.observation.error === DEADLINE_REASON ? 'deadline' : 'budget';
}

/** Apply level and profile to an outcome (INFO is never a failure; the reference profile pins its choices). */
function graded(
  def: CheckDefinition,
  out: CheckOutcome,
  profile: Strictness,
): { status: CheckStatus; level: RuleLevel; pinned: boolean } {
  const level = levelOf(def);
  if (out.status === 'info' && profile === 'reference' && out.matchesReference === false)
    return { status: 'fail', level: 'MUST', pinned: true };
  if ((out.status === 'pass' || out.status === 'fail') && level === 'INFO')
    return { status: 'info', level, pinned: false };
  return { status: out.status, level, pinned: false };
}

/** The check's decision from its record and the run's final knowledge. */
export function decide(rec: CheckRecord, facts: RunFacts): Decision {
  const def = rec.def;
  if (rec.notRun !== undefined)
    return { status: 'skip', level: rule(def.ruleId).level, reason: rec.notRun.reason, cause: rec.notRun.cause };
  let out: CheckOutcome =
    rec.crashed !== undefined
      ? {
          status: 'fail',
          expected: 'the check to complete',
          actual: `the runner hit an internal error: ${rec.crashed}`,
        }
      : (rec.outcome ?? { status: 'inconclusive', reason: 'the check did not end' });
  const judged = rec.evidence.map((e) => ({ e, v: finalVerdict(e, facts, def) }));
  // Measurement checks (the time window) retry a probe near an edge and judge the attempts themselves.
  // A refusal a control pair showed to be the account's (design notes, "A refusal is recognised by a control, not its code").
  const excused = (o: Observation) => rec.business !== undefined && meets(refusalMarks(o), rec.business.mark);
  // Evidence that fails the check whatever it concluded: an acceptance of what must be refused, a
  // valid request refused or left unanswered (its verdict with the final knowledge).
  const decisive =
    def.timed === true
      ? []
      : judged.filter(
          ({ e, v }) =>
            acceptedWhatMustBeRefused(e, v) ||
            (v.verdict === 'fail' && ACCEPTS.has(e.expectation.kind) && !excused(e.observation)),
        );
  // A check the deadline cut short has no verdict, unless it had found a failure.
  if (rec.cut > 0 && out.status !== 'fail' && decisive.length === 0)
    return {
      status: 'skip',
      level: rule(def.ruleId).level,
      reason: `cut short: ${facts.deadlineLabel} was reached while this check ran (${rec.cut} requests not sent or not finished)`,
      cause: 'deadline',
    };
  // Nothing sent at all because of the order budget: not run.
  if (rec.evidence.length > 0 && rec.withheld === rec.evidence.length && out.status !== 'fail')
    return {
      status: 'skip',
      level: rule(def.ruleId).level,
      reason: `not run: the order budget (${facts.budgetLabel}) left no order for it; every request of this check could place one`,
      cause: 'budget',
    };
  // A failure resting on a request the target never answered once it had stopped answering: that is the
  // staying-up rule's evidence (ROBUST-NO-HANG), against no other rule.
  let down = false;
  if (
    out.status === 'fail' &&
    def.judgesLiveness !== true &&
    out.exchange !== undefined &&
    silenced(out.exchange.observation, facts)
  ) {
    down = true;
    out = {
      status: 'inconclusive',
      reason: `the target had stopped answering: ${describe(out.exchange.observation)}`,
      exchange: out.exchange,
    };
  }
  // A failure resting on a refusal of a valid request that a control showed to be the account's: undecided. Never an acceptance.
  if (out.status === 'fail' && rec.business !== undefined) {
    const x = out.exchange;
    // (a refusal: a whole call refused, or batch entries failed with it)
    const refusal = x === undefined || refusalMarks(x.observation).length > 0;
    // (a measurement check's accepted probes are its own to weigh: only the failing one counts there)
    const weighed = def.timed === true ? judged.filter(({ e }) => e.observation === x?.observation) : judged;
    if (refusal && !weighed.some(({ e, v }) => acceptedWhatMustBeRefused(e, v)))
      out = { status: 'inconclusive', reason: rec.business.reason, ...(x === undefined ? {} : { exchange: x }) };
  }
  // A failure the check did not see: an acceptance of what must be refused, or a valid request never answered.
  const firstDecisive = decisive[0];
  if (out.status !== 'fail' && firstDecisive !== undefined) {
    const { e, v } = firstDecisive;
    out = {
      status: 'fail',
      expected: acceptedWhatMustBeRefused(e, v)
        ? 'a request broken in one way is refused and places nothing'
        : 'a valid, correctly signed request is accepted',
      actual: v.reason,
      exchange: { observation: e.observation, ...(e.route === undefined ? {} : { route: splitRoute(e.route) }) },
    };
  }
  // A refused call that placed an order, shown by effect, fails the check whatever its answer said.
  if (rec.placedByRefused !== undefined && out.status !== 'fail') {
    const p = rec.placedByRefused;
    out = {
      status: 'fail',
      expected: `${p.refused.route === undefined ? 'a refused call' : `a call refused on ${p.refused.route}`} (${describe(p.refused.observation)}) places nothing`,
      actual: `it placed an order: ${p.shown}`,
      exchange: {
        observation: p.refused.observation,
        ...(p.refused.route === undefined ? {} : { route: splitRoute(p.refused.route) }),
      },
    };
  }
  // Per route: the tallies of final verdicts, then the cells and the check's status from them.
  const tallies = new Map<string, RouteTally>();
  const causes = new Map<string, Cause>();
  let decided = 0;
  let firstUndecided: { reason: string; cause: Cause } | undefined;
  for (const { e, v } of judged) {
    if (v.verdict === 'pass' || v.verdict === 'fail') decided++;
    else firstUndecided ??= { reason: v.reason, cause: causeOf(e, v, facts) };
    if (e.route === undefined) continue;
    const t = tallies.get(e.route) ?? { pass: 0, fail: 0, inconclusive: 0, unanswered: 0, requests: 0 };
    t.requests++;
    t[v.verdict]++;
    if (v.verdict === 'inconclusive' && t.firstReason === undefined) {
      t.firstReason = v.reason;
      causes.set(e.route, causeOf(e, v, facts));
    }
    if (v.verdict === 'unanswered') t.firstUnanswered ??= v.reason;
    tallies.set(e.route, t);
  }
  // A route whose control failed is not offered to the checks that merely use it.
  const established = new Set<string>(def.establishes ?? []);
  const lacking = new Set([...facts.absent, ...[...facts.controlFailed].filter((r) => !established.has(r))]);
  const byRoute = routeVerdicts(out, def.covers ?? [], tallies, lacking);
  out = byRoute.outcome;
  const cells: RouteCell[] = byRoute.cells.map((c) =>
    c.verdict === 'not-offered' && facts.controlFailed.has(c.route) && !facts.absent.has(c.route)
      ? {
          ...c,
          reason: `the route's positive control failed in this run (${facts.knowledge.routes[c.route]?.observed ?? '?'}): not offered to this check`,
        }
      : c,
  );
  // A pass earned by no request that reached the rule is no pass.
  if (out.status === 'pass' && rec.evidence.length > 0 && decided === 0)
    out = { status: 'inconclusive', reason: firstUndecided?.reason ?? 'no request reached the rule' };
  const g = graded(def, out, facts.profile);
  const d: Decision = { status: g.status, level: g.level };
  if (g.pinned) {
    d.expected = 'the reference choice of spec/decisions.md (reference profile)';
    d.actual = ('observed' in out ? out.observed : undefined) ?? 'a different behaviour';
  }
  if ('expected' in out) d.expected = out.expected;
  if ('actual' in out) d.actual = out.actual;
  if ('observed' in out && out.observed !== undefined) d.observed = out.observed;
  if ('reason' in out) d.reason = out.reason;
  if ('counterexample' in out && out.counterexample !== undefined) d.counterexample = out.counterexample;
  if ('runs' in out && out.runs !== undefined) d.runs = out.runs;
  if (g.status === 'fail' && 'failures' in out && out.failures !== undefined && out.failures.length > 0)
    d.failures = out.failures;
  if (g.status === 'inconclusive') {
    const open = cells.find((c) => c.verdict === 'inconclusive' || c.verdict === 'unanswered');
    d.cause =
      open === undefined
        ? (firstUndecided?.cause ?? 'check')
        : open.verdict === 'unanswered'
          ? 'unanswered'
          : (causes.get(open.route) ?? 'check');
    if (rec.business !== undefined && d.reason === rec.business.reason) d.cause = 'business';
    if (down) d.cause = 'target-down';
  }
  const notes = notesOf(rec, judged, g.status, decided);
  if (notes.length > 0) d.notes = notes;
  const reached = [...tallies].filter(([, t]) => t.pass + t.fail > 0).map(([k]) => k);
  if (reached.length > 0) d.routes = reached.sort();
  if (cells.length > 0) d.cells = cells;
  if ('exchange' in out && out.exchange !== undefined) d.failing = out.exchange;
  return d;
}

function notesOf(
  rec: CheckRecord,
  judged: ReadonlyArray<{ e: Evidence; v: ExchangeVerdict }>,
  status: CheckStatus,
  decided: number,
): string[] {
  const notes: string[] = [];
  const business = judged.filter(({ v }) => v.business !== undefined);
  if (status === 'pass' && business.length > 0)
    notes.push(
      `${business.length} correctly signed requests were refused for a reason other than the signature and count as signature accepted (first: ${business[0]?.v.business ?? '?'})`,
    );
  if (rec.effects.shown > 0 || rec.effects.methods.length > 0)
    notes.push(
      `place-nothing by effect: ${rec.effects.shown} refused call(s) shown to have placed nothing; method: ${rec.effects.methods.join('; ')}`,
    );
  if (status === 'pass' && decided < judged.length) {
    const first = judged.find(({ v }) => v.verdict !== 'pass' && v.verdict !== 'fail');
    notes.push(
      `${judged.length - decided} of ${judged.length} requests could not decide the rule (first: ${first?.v.reason ?? '?'})`,
    );
  }
  return notes;
}

/** `batch/json` as the route object of an exchange reference. */
function splitRoute(key: string): { endpoint: string; placement: string } {
  const at = key.lastIndexOf('/');
  return { endpoint: key.slice(0, at), placement: key.slice(at + 1) };
}
