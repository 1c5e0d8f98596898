/**
 * The route mix of a load run: which endpoint and placement each request takes (§4.1,
 * §4.2, §5.3) and in what proportion. Parsed from `batch=6,v1/query=1,...`; requests are
 * dealt by smooth weighted round robin, so every window of the run carries the mix.
 */
import { SpotcheckError } from '../../src/core/errors.js';

/** One load route: the batch (JSON body) or a single-order version in one placement. */
export type LoadRoute = 'batch' | 'v1/query' | 'v1/body' | 'v1/split' | 'v1.1/query' | 'v1.1/body' | 'v1.1/split';

/** Every route, in report order. */
export const LOAD_ROUTES: readonly LoadRoute[] = [
  'batch',
  'v1/query',
  'v1/body',
  'v1/split',
  'v1.1/query',
  'v1.1/body',
  'v1.1/split',
];

/** One route and its weight (a positive whole number). */
export interface MixEntry {
  route: LoadRoute;
  weight: number;
}

/** The default mix: mostly batches, every single-order route present. */
export const DEFAULT_MIX = 'batch=6,v1/query=1,v1/body=1,v1/split=1,v1.1/query=1,v1.1/body=1,v1.1/split=1';

const SHORTHAND: Readonly<Record<string, readonly LoadRoute[]>> = {
  v1: ['v1/query', 'v1/body', 'v1/split'],
  'v1.1': ['v1.1/query', 'v1.1/body', 'v1.1/split'],
  query: ['v1/query', 'v1.1/query'],
  body: ['v1/body', 'v1.1/body'],
  split: ['v1/split', 'v1.1/split'],
};

/**
 * Parse `route=weight,...`. A route is one of {@link LOAD_ROUTES}, or a shorthand (`v1`,
 * `v1.1`: its three placements; `query`, `body`, `split`: both versions) giving each of
 * its routes that weight; `batch/json` is read as `batch`; a bare route has weight 1.
 * Weight 0 leaves a route out. A route named twice, an unknown route or a bad weight is
 * a usage error naming it.
 * @throws SpotcheckError `ERR_USAGE`
 */
export function parseMix(text: string): MixEntry[] {
  const weights = new Map<LoadRoute, number>();
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0)
    throw new SpotcheckError('ERR_USAGE', `--mix is empty; give route=weight pairs, e.g. ${DEFAULT_MIX}`);
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    const w = eq === -1 ? '1' : part.slice(eq + 1).trim();
    if (!/^\d+$/.test(w) || !Number.isSafeInteger(Number(w)))
      throw new SpotcheckError('ERR_USAGE', `--mix: the weight of '${name}' must be a whole number, got '${w}'`);
    const routes =
      name === 'batch' || name === 'batch/json'
        ? (['batch'] as const)
        : (LOAD_ROUTES as readonly string[]).includes(name)
          ? [name as LoadRoute]
          : SHORTHAND[name];
    if (routes === undefined)
      throw new SpotcheckError(
        'ERR_USAGE',
        `--mix: unknown route '${name}'; routes are ${LOAD_ROUTES.join(', ')} (or v1, v1.1, query, body, split)`,
      );
    for (const r of routes) {
      if (weights.has(r)) throw new SpotcheckError('ERR_USAGE', `--mix: route '${r}' is named twice`);
      weights.set(r, Number(w));
    }
  }
  const mix = LOAD_ROUTES.filter((r) => (weights.get(r) ?? 0) > 0).map((route) => ({
    route,
    weight: weights.get(route) ?? 0,
  }));
  if (mix.length === 0) throw new SpotcheckError('ERR_USAGE', '--mix gives every route weight 0: nothing to send');
  return mix;
}

/** The mix as text, in the form {@link parseMix} reads. */
export function formatMix(mix: readonly MixEntry[]): string {
  return mix.map((m) => `${m.route}=${m.weight}`).join(',');
}

/**
 * A dealer of routes by smooth weighted round robin: over any `sum(weights)` consecutive
 * calls each route comes exactly `weight` times, spread out rather than in runs.
 */
export function routeDealer(mix: readonly MixEntry[]): () => LoadRoute {
  const total = mix.reduce((s, m) => s + m.weight, 0);
  const current = mix.map(() => 0);
  return () => {
    let best = 0;
    for (let i = 0; i < mix.length; i++) {
      current[i] = (current[i] ?? 0) + (mix[i]?.weight ?? 0);
      if ((current[i] ?? 0) > (current[best] ?? 0)) best = i;
    }
    current[best] = (current[best] ?? 0) - total;
    return (mix[best] as MixEntry).route;
  };
}

/** The endpoint and placement of a route. */
export function routeParts(route: LoadRoute): {
  endpoint: 'batch' | 'v1' | 'v1.1';
  placement: 'json' | 'query' | 'body' | 'split';
} {
  if (route === 'batch') return { endpoint: 'batch', placement: 'json' };
  const [endpoint, placement] = route.split('/') as ['v1' | 'v1.1', 'query' | 'body' | 'split'];
  return { endpoint, placement };
}
