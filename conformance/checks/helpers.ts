/**
 * Small helpers every check family uses: outcomes, expectations over observations,
 * and running a fast-check property with the run's seed.
 */
import fc from 'fast-check';
import type { CheckOutcome } from '../judgement/verdict.js';
import { describe } from '../../src/core/response.js';
import {
  expect as want,
  judgeExchange,
  type ExchangeVerdict,
  type Expectation,
  type Knowledge,
  type RefusalLayer,
} from '../judgement/verdict.js';
import type { Exchange, SendResult } from '../engine/transport.js';
import type { CheckContext, Probed } from '../judgement/types.js';
import type { Built } from '../engine/requests.js';
import type { BatchOrderItem } from '../../src/core/types.js';
import { withClientIds } from '../engine/generators.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import { inOrder } from '../engine/pool.js';

export const pass = (extra: { observed?: string; runs?: number } = {}): CheckOutcome => ({ status: 'pass', ...extra });
export const skip = (reason: string): CheckOutcome => ({ status: 'skip', reason });
export const info = (observed: string, matchesReference?: boolean, exchange?: Exchange): CheckOutcome => ({
  status: 'info',
  observed,
  ...(matchesReference === undefined ? {} : { matchesReference }),
  ...(exchange === undefined ? {} : { exchange }),
});
export const inconclusive = (reason: string, exchange?: Exchange): CheckOutcome => ({
  status: 'inconclusive',
  reason,
  ...(exchange === undefined ? {} : { exchange }),
});
export const fail = (expected: string, actual: string, exchange?: Exchange): CheckOutcome => ({
  status: 'fail',
  expected,
  actual,
  ...(exchange === undefined ? {} : { exchange }),
});

/** A failed outcome. */
export type Failure = Extract<CheckOutcome, { status: 'fail' }>;

/** Result of one step of a check: undefined = fine, otherwise the failure. */
export type Step = CheckOutcome | undefined;

/** Send a built request (rebuilt with a fresh timestamp if a rate limit asks for a retry). */
export function send(ctx: CheckContext, b: Built): Promise<SendResult> {
  return ctx.send(b.request, b.facts, b.rebuild);
}

/**
 * Send a generated valid batch (client ids added), once per run for all the checks that
 * judge the same batches (the RESULT and SCHEMA properties draw the same cases from the
 * seed): the first sends it, the others judge the same answer. Undefined, and
 * nothing sent, for a generated batch the validators refuse (§4.1): it is no valid case.
 */
export async function sendBatchOnce(
  ctx: CheckContext,
  orders: readonly BatchOrderItem[],
): Promise<{ sent: Array<BatchOrderItem & { newClientOrderId: string }>; r: SendResult } | undefined> {
  if (validateBatch(withClientIds(orders, () => 'x')).length > 0) return undefined;
  const make = () => {
    const sent = withClientIds(orders, ctx.clientId);
    return { built: ctx.requests.batch(sent), carry: sent };
  };
  if (ctx.shared === undefined) {
    const { built, carry } = make();
    return { sent: carry, r: await send(ctx, built) };
  }
  const { result, carry } = await ctx.shared(`valid-batch ${JSON.stringify(orders)}`, make);
  return { sent: carry, r: result };
}

/** Nothing known of the target: the verdict of an answer judged outside a run. */
const NOTHING_KNOWN: Knowledge = { routes: {}, missing: [] };

/**
 * State what a probe expects of its answer: recorded as the probe's evidence by the run's session
 * (conformance/engine/session.ts), with the verdict for it from what the run knows now (the final one is
 * conformance/judgement/decide.ts's); outside a run, the answer's own verdict.
 */
export function verdictOf(r: SendResult, exp: Expectation): ExchangeVerdict {
  return (r as Probed).expect?.(exp) ?? judgeExchange(exp, NOTHING_KNOWN, { observation: r.observation });
}

/** A verdict as a step of a check: a failure with Expected/Actual, an undecided probe with its reason. No answer is never read as accepted nor refused. */
function stepOf(v: ExchangeVerdict, r: SendResult, what: string, expected: string): Step {
  switch (v.verdict) {
    case 'pass':
      return undefined;
    case 'fail':
      return fail(expected, v.reason, r.exchange);
    case 'inconclusive':
      return inconclusive(`${what}: ${v.reason}`, r.exchange);
    case 'unanswered':
      return inconclusive(`${what}: ${v.reason}: no answer is neither an acceptance nor a refusal`, r.exchange);
  }
}

/**
 * Expect a rejection (HTTP 4xx, or 200 with a non-zero code; design principle) and no
 * order placed (BATCH-REJECTED-PLACES-NOTHING, §4.1).
 */
export function expectRejected(r: SendResult, what: string, layer: RefusalLayer = 'rule'): Step {
  return stepOf(
    verdictOf(r, want.refuse(layer)),
    r,
    what,
    `${what}: rejected (HTTP 4xx, or 200 with a non-zero code), no order placed`,
  );
}

/**
 * Expect a refusal where the seed only says "unsupported" (§4.1 rule 2): a rejection,
 * or an accepted call whose every entry failed (nothing placed) — both readings are
 * legitimate.
 */
export function expectRefused(r: SendResult, what: string, layer: RefusalLayer = 'rule'): Step {
  return stepOf(
    verdictOf(r, want.refuse(layer, true)),
    r,
    what,
    `${what}: refused (a rejection, or every entry failed), no order placed`,
  );
}

/** Expect acceptance (2xx with code 0 or no code): a valid, correctly signed request refused fails (design notes). */
export function expectAccepted(r: SendResult, what: string): Step {
  return stepOf(verdictOf(r, want.accept), r, what, `${what}: accepted`);
}

/**
 * Expect the signature to be accepted: an acceptance, or a refusal shown by difference not
 * to be about the signature (unlike the wrong-signature and every missing-parameter answer).
 */
export function expectSignatureAccepted(r: SendResult, what: string): Step {
  return stepOf(
    verdictOf(r, want.signatureAccepted),
    r,
    what,
    `${what}: accepted (or refused for a reason shown not to be the signature)`,
  );
}

/**
 * An open point of the seed (spec/decisions.md): what the server did is INFO, and
 * matches the reference when its verdict is `referenceVerdict`; only a 5xx or no
 * answer fails (ROBUST-NO-5XX, ROBUST-NO-HANG).
 */
export function openPoint(r: SendResult, what: string, referenceVerdict: 'accepted' | 'rejected'): CheckOutcome {
  const o = r.observation;
  if (o.verdict === 'server-error' || o.verdict === 'no-answer')
    return fail(`${what}: an answer that is not a 5xx`, describe(o), r.exchange);
  const v = verdictOf(r, want.observe);
  if (v.verdict === 'inconclusive' && o.verdict !== 'accepted') return inconclusive(`${what}: ${v.reason}`, r.exchange);
  return info(`${what}: ${o.verdict} (${describe(o)})`, o.verdict === referenceVerdict, r.exchange);
}

/** Run steps in order; the first failure wins, else the first inconclusive step. */
export function firstFailure(...steps: Step[]): Step {
  return steps.find((s) => s?.status === 'fail') ?? steps.find((s) => s !== undefined && s.status !== 'pass');
}

/** Orders shrinking may place after a property's first failure. */
export const SHRINK_ORDER_BUDGET = 200;

/**
 * Run an async property with the run's seed and case count. The predicate returns
 * a failure Step or undefined; the failure of the last (shrunk) failing case is
 * reported with its counterexample.
 */
export async function property<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<Step>,
  opts: { runs?: number; examples?: T[] } = {},
): Promise<CheckOutcome> {
  let last: Failure | undefined;
  const numRuns = opts.runs ?? ctx.runs;
  // Shrinking has an order budget of its own: past it, candidates are not sent
  // and the smallest failure found so far is the counterexample.
  let placedAtFailure: number | undefined;
  let tried: number | undefined;
  /** Cases known to pass (from the parallel phase): the sequential replay skips them without sending. */
  let skip = 0;
  const width = ctx.parallel ?? 1;
  if (width > 1) {
    // Cases are independent: the seed's cases (boundary examples first) go out `width` at a time.
    // No new case starts after a failure; the first failing case in seed order, the
    // same whatever the timing, is then found again by the sequential run below (fast-check
    // draws the same cases from the same seed, the ones known to pass are skipped unsent) and
    // shrunk one request at a time: the counterexample is the one a sequential run reports.
    const values = [
      ...(opts.examples ?? []),
      ...fc.sample(arb, { seed: ctx.seed, numRuns: Math.max(0, numRuns - (opts.examples?.length ?? 0)) }),
    ];
    let failedAt = Infinity;
    let started = 0;
    await inOrder(
      values,
      width,
      async (v, i) => {
        started = Math.max(started, i + 1);
        const step = await predicate(v);
        if (step?.status === 'fail' && i < failedAt) {
          failedAt = i;
          last = step;
        }
      },
      (next) => next >= failedAt,
    );
    tried = Math.min(started, values.length);
    if (failedAt === Infinity) return pass({ runs: tried });
    skip = failedAt;
  }
  let seen = 0;
  const result = await fc.check(
    fc.asyncProperty(arb, async (v) => {
      if (seen++ < skip) return true;
      if (placedAtFailure !== undefined && (ctx.ordersPlaced?.() ?? 0) - placedAtFailure >= SHRINK_ORDER_BUDGET)
        return true;
      const step = await predicate(v);
      if (step?.status === 'fail') {
        last = step;
        placedAtFailure ??= ctx.ordersPlaced?.() ?? 0;
        return false;
      }
      return true;
    }),
    {
      seed: ctx.seed,
      numRuns,
      ...(opts.examples ? { examples: opts.examples.map((e) => [e] as [T]) } : {}),
      endOnFailure: false,
    },
  );
  // (a failure found in parallel that does not repeat alone is still that failure)
  if (!result.failed)
    return last !== undefined && tried !== undefined ? { ...last, runs: tried } : pass({ runs: result.numRuns });
  if (last === undefined) {
    const err =
      result.errorInstance instanceof Error
        ? result.errorInstance.message
        : String(result.errorInstance ?? 'unknown error');
    return fail('the property to hold', `the check itself failed: ${err}`);
  }
  const ce = result.counterexample ? fc.stringify(result.counterexample[0]) : undefined;
  return {
    ...last,
    runs: result.numRuns,
    ...(ce === undefined ? {} : { counterexample: ce.length > 2000 ? `${ce.slice(0, 2000)}…` : ce }),
  };
}

/** Either every step passes, or the first failure. */
export function outcome(step: Step, extra: { observed?: string; runs?: number } = {}): CheckOutcome {
  return step ?? pass(extra);
}
