/**
 * Valid orders that were accepted earlier in the run and now meet a refusal no earlier
 * valid order met: the account (balance, open-order limit) may be exhausted. Then the
 * checks that meet it are inconclusive with that reason, never failed, and the run says
 * so once (design notes, "A positive probe can fail ... unless the route's own control met
 * the same refusal in this run").
 */
import { codeValue, describe, entriesOf, isRecord, type Observation } from '../src/core/response.js';
import { fingerprintOf } from './verdict.js';
import { routeKey, type Built, type Route } from './requests.js';
import type { SendResult } from './transport.js';

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
  /** A valid order for the route on this side (the positive control again, fresh client id). */
  control: (route: Route, side: 'BUY' | 'SELL') => Built;
  send: (b: Built) => Promise<SendResult | undefined>;
  /** Whether the route's control was accepted in discovery (valid orders were accepted there earlier). */
  acceptedEarlier: (route: Route) => boolean;
}

/** Follows the run: asked about a failure's refusal, it re-sends the route's control and says whether valid orders now meet it. */
export function createExhaustionWatch(deps: ExhaustionDeps) {
  let found: Exhaustion | undefined;
  return {
    current: (): Exhaustion | undefined => found,
    /** Whether `o` (on `route`) is the refusal valid orders now meet; re-sends the control once per call until one is found. */
    async explains(route: Route | undefined, o: Observation): Promise<Exhaustion | undefined> {
      const marks = refusalMarks(o);
      if (marks.length === 0 || route === undefined) return undefined;
      if (found !== undefined) return meets(marks, found.mark) ? found : undefined;
      if (!deps.acceptedEarlier(route)) return undefined;
      // A valid order of either side meeting one of these refusals shows it is met by valid orders now.
      for (const side of ['BUY', 'SELL'] as const) {
        const again = await deps.send(deps.control(route, side));
        const mark = again === undefined ? undefined : refusalMark(again.observation);
        if (again === undefined || mark === undefined || !meets(marks, mark)) continue;
        found ??= {
          mark,
          route: routeKey(route),
          observed: describe(again.observation),
          reason: `valid orders are now refused with ${mark} (a valid ${side} order on ${routeKey(route)}, where valid orders were accepted earlier in this run, now got ${describe(again.observation)}); the account may be exhausted`,
        };
        return found;
      }
      return undefined;
    },
  };
}

export type ExhaustionWatch = ReturnType<typeof createExhaustionWatch>;
