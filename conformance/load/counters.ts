/**
 * Tallies as flat named counters (`spotcheck.<route>.<count>`) and back: the Artillery
 * processor emits them, Artillery sums them across virtual users and workers, and
 * `load report` reads them back into the same tallies. `spotcheck.fail.<kind>` carries the
 * correctness totals the generated `ensure` block tests.
 */
import { LOAD_ROUTES, type LoadRoute } from './mix.js';
import { emptyTally, failureCounts, FAILURE_KINDS, type FailureKind, type RouteTally } from './verdict.js';

/** Prefix of every counter. */
export const COUNTER_PREFIX = 'spotcheck.';

/** Name of the correctness total of one failure kind. */
export const failCounter = (kind: FailureKind): string => `${COUNTER_PREFIX}fail.${kind}`;

/** Every correctness total's name. */
export const FAIL_COUNTERS: readonly string[] = (Object.keys(FAILURE_KINDS) as FailureKind[]).map(failCounter);

/** Name of the processor's signing hook of a route, as the generated YAML names it. */
export const hookName = (route: LoadRoute): string => `sign_${route.replace(/[./]/g, '_')}`;

/** Name of a route's latency histogram. */
export const latencyName = (route: LoadRoute): string => `${COUNTER_PREFIX}${route}.latency`;

function flatten(prefix: string, v: unknown, out: Array<[string, number]>): void {
  if (typeof v === 'number') {
    if (v !== 0) out.push([prefix, v]);
    return;
  }
  if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) flatten(prefix === '' ? k : `${prefix}.${k}`, x, out);
}

/** The non-zero counts of `t` as counters of `route`, then the non-zero failure totals. */
export function tallyCounters(route: LoadRoute, t: RouteTally): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  flatten('', t, out);
  const named = out.map(([k, v]): [string, number] => [`${COUNTER_PREFIX}${route}.${k}`, v]);
  for (const [kind, n] of Object.entries(failureCounts(t)) as Array<[FailureKind, number]>)
    if (n > 0) named.push([failCounter(kind), n]);
  return named;
}

/** Record keys under which any sub-key is a count (HTTP status x code, entry codes). */
const MAPS = new Set(['refused', 'results.entryCodes']);

/** Route tallies from summed counters (unknown names ignored). */
export function talliesFromCounters(
  counters: Readonly<Record<string, number>>,
): Partial<Record<LoadRoute, RouteTally>> {
  const out: Partial<Record<LoadRoute, RouteTally>> = {};
  const routes = [...LOAD_ROUTES].sort((a, b) => b.length - a.length);
  for (const [name, value] of Object.entries(counters)) {
    if (!name.startsWith(COUNTER_PREFIX) || typeof value !== 'number') continue;
    const route = routes.find((r) => name.startsWith(`${COUNTER_PREFIX}${r}.`));
    if (route === undefined) continue;
    const key = name.slice(COUNTER_PREFIX.length + route.length + 1);
    const t = (out[route] ??= emptyTally()) as unknown as Record<string, unknown>;
    const map = [...MAPS].find((m) => key.startsWith(`${m}.`));
    if (map !== undefined) {
      let obj: Record<string, unknown> = t;
      for (const p of map.split('.')) obj = obj[p] as Record<string, unknown>;
      const sub = key.slice(map.length + 1);
      obj[sub] = ((obj[sub] as number | undefined) ?? 0) + value;
      continue;
    }
    const path = key.split('.');
    let obj: Record<string, unknown> = t;
    for (const p of path.slice(0, -1)) {
      const next = obj[p];
      if (typeof next !== 'object' || next === null) {
        obj = {};
        break;
      }
      obj = next as Record<string, unknown>;
    }
    const last = path[path.length - 1] as string;
    if (typeof obj[last] === 'number') obj[last] = (obj[last] as number) + value;
  }
  return out;
}
