/**
 * Checks over every route a rule applies to: the batch's JSON body, and each
 * single-order endpoint with its parameters in the query, a form body, or split (§4,
 * §5.3). A route the target does not offer, or whose positive control failed, makes
 * its probes inconclusive, never passed.
 */
import type { ApiVersion } from '../../src/core/validation/order.js';
import type { Built, SignOptions } from '../engine/requests.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import type { RouteCell } from '../judgement/verdict.js';
import { allRoutes } from '../engine/discovery.js';
import { routeKey, type Route } from '../engine/requests.js';
import { limitParams, oneOrder } from './orders.js';
import { firstFailure, outcome, type Step } from './helpers.js';
import { inOrder } from '../engine/pool.js';

/** Every route of the seed, by key. */
export const ALL_ROUTES: readonly Route[] = allRoutes();
/** The single-order routes. */
export const SINGLE_ROUTES: readonly Route[] = ALL_ROUTES.filter((r) => r.endpoint !== 'batch');

/** The routes whose key is listed. */
export function routes(...keys: string[]): Route[] {
  return ALL_ROUTES.filter((r) => keys.includes(routeKey(r)));
}

/** The parameter set a route validates with (§4.2): the batch's elements follow v1. */
export function versionOf(route: Route): ApiVersion {
  return route.endpoint === 'v1.1' ? 'v1.1' : 'v1';
}

/**
 * A request on a route carrying one order: `order` as the batch's only element, or as
 * single-order parameters in the route's placement. Default: a valid LIMIT order.
 */
export function onRoute(
  ctx: CheckContext,
  route: Route,
  opts: SignOptions & { splitAt?: number } = {},
  order?: Record<string, unknown>,
): Built {
  return ctx.requests.onRoute(route, order ?? (route.endpoint === 'batch' ? oneOrder(ctx) : limitParams(ctx)), opts);
}

/** A step as a route's cell: passed, failed, or undecided with its reason. */
export function cellOf(route: Route, step: Step): RouteCell {
  const key = routeKey(route);
  if (step === undefined || step.status === 'pass') return { route: key, verdict: 'pass', requests: 0 };
  if (step.status === 'fail')
    return { route: key, verdict: 'fail', reason: `expected ${step.expected}; got ${step.actual}`, requests: 0 };
  return {
    route: key,
    verdict: 'inconclusive',
    reason: step.status === 'inconclusive' || step.status === 'skip' ? step.reason : step.observed,
    requests: 0,
  };
}

/**
 * A check that runs the same probe on each of its routes and reports a verdict per route
 * (design notes, "Verdicts per cell"); the first failure is the check's Expected/Actual.
 */
export function perRoute(
  def: Omit<CheckDefinition, 'run' | 'covers'> & {
    routes: readonly Route[];
    probe: (ctx: CheckContext, route: Route) => Promise<Step>;
  },
): CheckDefinition {
  const { routes: list, probe, ...rest } = def;
  return {
    ...rest,
    covers: list.map(routeKey),
    async run(ctx) {
      // Routes are independent: up to ctx.parallel probes in flight; steps keep route order.
      const steps = await inOrder(list, ctx.parallel ?? 1, (r) => probe(ctx, r));
      // a method no route of this target can use (every probe said why): not run, not undecided
      const [firstStep] = steps;
      if (firstStep?.status === 'skip' && steps.every((s) => s?.status === 'skip')) return firstStep;
      const cells = list.map((r, i) => cellOf(r, steps[i]));
      const first = outcome(firstFailure(...steps));
      return first.status === 'pass' || first.status === 'fail' || first.status === 'inconclusive'
        ? { ...first, cells }
        : first;
    },
  };
}
