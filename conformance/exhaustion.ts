/**
 * Valid orders that were accepted earlier in the run and now meet a refusal no earlier
 * valid order met: the account (balance, open-order limit) may be exhausted. Then the
 * checks that meet it are inconclusive with that reason, never failed, and the run says
 * so once (design notes, "A positive probe can fail ... unless the route's own control met
 * the same refusal in this run").
 */
import { codeValue, describe, entriesOf, isRecord, type Observation } from '../src/core/response.js';
import { fingerprintOf } from './discovery.js';
import { routeKey, type Built, type Route } from './requests.js';
import type { SendResult } from './transport.js';

/** The refusal an answer shows: a whole-call fingerprint, or the code of the first failed entry of an accepted batch. */
export function refusalMark(o: Observation): string | undefined {
  if (o.verdict === 'rejected') return fingerprintOf(o);
  if (o.verdict !== 'accepted') return undefined;
  for (const e of entriesOf(o.json) ?? []) {
    const code = isRecord(e) ? codeValue(e.code) : undefined;
    if (code !== undefined && code !== 0) return `entry code ${code}`;
  }
  return undefined;
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
  /** A valid order for the route (the positive control again, fresh client id). */
  control: (route: Route) => Built;
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
      const mark = refusalMark(o);
      if (mark === undefined || route === undefined) return undefined;
      if (found !== undefined) return found.mark === mark ? found : undefined;
      if (!deps.acceptedEarlier(route)) return undefined;
      const again = await deps.send(deps.control(route));
      if (again === undefined || refusalMark(again.observation) !== mark) return undefined;
      found ??= {
        mark,
        route: routeKey(route),
        observed: describe(again.observation),
        reason: `valid orders are now refused with ${mark} (a valid order on ${routeKey(route)}, accepted there earlier in this run, now got ${describe(again.observation)}); the account may be exhausted`,
      };
      return found;
    },
  };
}

export type ExhaustionWatch = ReturnType<typeof createExhaustionWatch>;
