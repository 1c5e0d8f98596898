/**
 * Valid orders that were accepted earlier in the run and now meet a refusal no earlier valid
 * order met, while the opposite order sent at the same moment is placed: the account (balance,
 * position) refuses one side. Then the checks failing on that refusal are inconclusive with that
 * reason, never failed, and the run says so once. A failure that is an acceptance of what must be
 * refused is never excused (conformance/judgement/decide.ts).
 */
import { codeValue, describe, entriesOf, isRecord, showsPlaced, type Observation } from '../../src/core/response.js';
import { fingerprintOf } from './verdict.js';
import { routeKey, type Built, type Route } from '../engine/requests.js';
import type { Place, SendResult } from '../engine/transport.js';
import type { RawRequest } from '../../src/client/http.js';

/** The refusals an answer shows: its whole-call fingerprint, or the codes of the failed entries of an accepted batch. */
export function refusalMarks(o: Observation): string[] {
  if (o.verdict === 'rejected') {
    const f = fingerprintOf(o);
    return f === undefined ? [] : [f];
  }
  if (o.verdict !== 'accepted') return [];
  const out = new Set<string>();
  for (const e of entriesOf(o.json) ?? []) {
    const code = isRecord(e) ? codeValue(e.code) : undefined;
    if (code !== undefined && code !== 0) out.add(`entry code ${code}`);
  }
  return [...out];
}

/** Two refusal marks name the same refusal: equal, or the same venue code (a whole call's `HTTP 400 code -2010` and a batch entry's `entry code -2010`). */
export function sameRefusal(a: string, b: string): boolean {
  if (a === b) return true;
  const code = (m: string) => /code (-?[0-9]+)$/.exec(m)?.[1];
  const ca = code(a);
  return ca !== undefined && ca === code(b);
}

/** Whether one of `marks` is the refusal `mark`. */
export function meets(marks: readonly string[], mark: string): boolean {
  return marks.some((m) => sameRefusal(m, mark));
}

/** The refusal a valid order's answer shows (its first mark), or undefined when it was placed. */
export function refusalMark(o: Observation): string | undefined {
  return refusalMarks(o)[0];
}

/**
 * What an account refusal shown later in the run may excuse of a check's outcome (decide() never
 * lets it excuse an acceptance of what must be refused): a failure's refusals met along the way
 * (`met`) when it rests on no exchange, or the refusal it rests on (the whole call, or batch
 * entries) when the controls sent at once did not show the account (`shownNow` false), as an
 * order larger than those cheapest ones is refused by a balance they still fit in.
 */
export function excusableMarks(
  outcome: { status: string; exchange?: { observation: Observation } } | undefined,
  shownNow: boolean,
  met: () => string[],
): string[] {
  if (outcome?.status !== 'fail') return [];
  if (outcome.exchange === undefined) return met();
  return shownNow ? [] : refusalMarks(outcome.exchange.observation);
}

/** The run's one explanation, once valid orders are shown to meet a new refusal. */
export interface Exhaustion {
  mark: string;
  route: string;
  /** What the re-sent valid order got. */
  observed: string;
  /** The sentence the run says once. */
  reason: string;
}

export interface ExhaustionDeps {
  /** A valid order for the route on this side (the positive control again, fresh client id); `small`: a thousandth of its quantity. */
  control: (route: Route, side: 'BUY' | 'SELL', small?: boolean) => Built;
  /** Send through the run (`place`: the queue place of the check asking). */
  send: (b: Built, place?: Place) => Promise<SendResult | undefined>;
  /** Whether the route's control was accepted in discovery (valid orders were accepted there earlier). */
  acceptedEarlier: (route: Route) => boolean;
  /**
   * The refused request's order at `index` (a batch's element) built anew as the run builds a
   * valid order, and the same a thousandth of its size, each with a fresh client id; undefined
   * when there is none.
   */
  sizePair?: (route: Route, refused: RawRequest, index: number) => [Built, Built] | undefined;
}

/**
 * Follows the run: asked about a failure's refusal, it sends a valid order of each side on the
 * route at the same moment, and when both meet it, a much smaller pair; when that shows nothing,
 * the refused order built anew beside the same a thousandth of its size. The refusal is the
 * account's (balance, position, limits) only when one side meets it while the other is placed,
 * or a smaller order is placed while its twin meets it (design notes, "A refusal is recognised
 * by a control, not its code"); otherwise nothing is shown, and the failure stands.
 */
export function createExhaustionWatch(deps: ExhaustionDeps) {
  let found: Exhaustion | undefined;
  /**
   * The cheapest controls fit, yet this order was refused: the same order built anew, refused the
   * same way, while the same a thousandth of its size, sent with it, is placed, shows its size met
   * the account (a MARKET order of 10 quote, on an account the cheapest orders still fit in). The
   * order built anew answers for what else the refused request carried (a signature in capitals,
   * a header): placed, the refusal was about that, not the size.
   */
  const sizeShown = async (
    route: Route,
    marks: readonly string[],
    o: Observation,
    refused: RawRequest,
    place?: Place,
  ): Promise<Exhaustion | undefined> => {
    // a batch's first refused entry, or the single order
    const index = Math.max(
      0,
      (entriesOf(o.json) ?? []).findIndex((e) => isRecord(e) && (codeValue(e.code) ?? 0) !== 0),
    );
    const pair = deps.sizePair?.(route, refused, index);
    if (pair === undefined) return undefined;
    const [same, small] = await Promise.all(pair.map((b) => deps.send(b, place)));
    const mark = same === undefined ? undefined : refusalMarks(same.observation).find((m) => meets(marks, m));
    const smallPlaced =
      small !== undefined && showsPlaced(small.observation) && refusalMarks(small.observation).length === 0;
    if (mark === undefined || !smallPlaced) return undefined;
    return {
      mark,
      route: routeKey(route),
      observed: describe(o),
      reason: `a valid order was refused with ${mark} on ${routeKey(route)} (${describe(o)}), and again when sent anew, while the same order a thousandth of its size, sent with it, was placed: the account's balance or limits, not the rule`,
    };
  };
  return {
    current: (): Exhaustion | undefined => found,
    /** Whether `o` (on `route`) is a refusal a control pair shows to be the account's. */
    async explains(
      route: Route | undefined,
      o: Observation,
      place?: Place,
      refused?: RawRequest,
    ): Promise<Exhaustion | undefined> {
      const marks = refusalMarks(o);
      if (marks.length === 0 || route === undefined) return undefined;
      if (found !== undefined && meets(marks, found.mark)) return found;
      if (!deps.acceptedEarlier(route)) return undefined;
      const shown =
        (await businessShown(deps, route, marks, place)) ??
        (refused === undefined ? undefined : await sizeShown(route, marks, o, refused, place));
      if (shown !== undefined) found ??= shown;
      return shown;
    },
  };
}

/**
 * Whether one of `marks` is the account's refusal on `route`, shown by controls sent now: a valid
 * order of each side at the same moment (one meets it while the other is placed), and when both
 * meet it, a pair a thousandth of their size (one placed: a balance). Undefined: not shown.
 */
export async function businessShown(
  deps: Pick<ExhaustionDeps, 'control' | 'send'>,
  route: Route,
  marks: readonly string[],
  place?: Place,
): Promise<Exhaustion | undefined> {
  const placed = (r: SendResult | undefined) => r !== undefined && showsPlaced(r.observation);
  const meeting = (r: SendResult | undefined) => {
    const mark = r === undefined ? undefined : refusalMark(r.observation);
    return mark !== undefined && meets(marks, mark) ? mark : undefined;
  };
  const pair = (small: boolean) =>
    Promise.all([
      deps.send(deps.control(route, 'BUY', small), place),
      deps.send(deps.control(route, 'SELL', small), place),
    ]);
  const shown = (mark: string, met: SendResult, reason: string): Exhaustion => ({
    mark,
    route: routeKey(route),
    observed: describe(met.observation),
    reason,
  });
  const [buy, sell] = await pair(false);
  for (const [side, met, other] of [
    ['BUY', buy, sell],
    ['SELL', sell, buy],
  ] as const) {
    const mark = meeting(met);
    if (mark !== undefined && met !== undefined && placed(other))
      return shown(
        mark,
        met,
        `valid ${side} orders are now refused with ${mark} on ${routeKey(route)} (${describe(met.observation)}) while a valid ${side === 'BUY' ? 'SELL' : 'BUY'} order sent with it was placed: the account's ${side === 'BUY' ? 'quote' : 'base'} balance or position, not the rule`,
      );
  }
  const mark = meeting(buy) ?? meeting(sell);
  const met = meeting(buy) !== undefined ? buy : sell;
  if (mark === undefined || met === undefined) return undefined;
  const [smallBuy, smallSell] = await pair(true);
  if (placed(smallBuy) || placed(smallSell))
    return shown(
      mark,
      met,
      `valid orders are now refused with ${mark} on ${routeKey(route)} (${describe(met.observation)}) while an order a thousandth of their size, sent right after, was placed: the account's balance, not the rule`,
    );
  return undefined;
}

export type ExhaustionWatch = ReturnType<typeof createExhaustionWatch>;
