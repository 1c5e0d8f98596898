/** Flags and target settings shared by `load` and `load init`. */
import { SpotcheckError } from '../../src/core/errors.js';
import { wireWith, type WireProfile } from '../../src/core/wire.js';
import { offersRoute, type TargetProfile } from '../target/description.js';
import { gridValue, type Grid } from '../target/decimal-grid.js';
import { DEFAULT_MIX, parseMix, routeParts, type MixEntry } from './mix.js';

/** Default --max-orders for a target (as `run`); the embedded server has none. */
export const TARGET_MAX_ORDERS = 10000;

/** A whole number flag within bounds. */
export function intFlag(name: string, v: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `--${name} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, got '${v}'`,
    );
  }
  return Number(v);
}

/** A positive number flag (decimals allowed). */
export function numberFlag(name: string, v: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0))
    throw new SpotcheckError('ERR_USAGE', `--${name} must be a positive number, got '${v}'`);
  return n;
}

/** The target's wire: the seed's with the description's header and paths. */
export function wireOfProfile(p: TargetProfile): WireProfile {
  return wireWith(p.apiKeyHeader, {
    batch: p.endpoints.batch.path,
    v1: p.endpoints.v1.path,
    'v1.1': p.endpoints['v1.1'].path,
  });
}

/** The middle value of a grid (a venue's accepted values), or the fallback. */
export const midValue = (g: Grid | undefined, fallback: string): string =>
  g === undefined ? fallback : gridValue(g, g.count / 2n);

/**
 * The mix for a target: the one given (every route must be offered) or the default less
 * the routes the target does not offer.
 */
export function mixFor(p: TargetProfile, given: string | undefined): MixEntry[] {
  const offered = (m: MixEntry): boolean => offersRoute(p, routeParts(m.route));
  const mix = parseMix(given ?? DEFAULT_MIX);
  if (given !== undefined) {
    const missing = mix.filter((m) => !offered(m));
    if (missing.length > 0)
      throw new SpotcheckError(
        'ERR_USAGE',
        `--mix names routes the target description does not offer: ${missing.map((m) => m.route).join(', ')}`,
      );
    return mix;
  }
  const kept = mix.filter(offered);
  if (kept.length === 0) throw new SpotcheckError('ERR_USAGE', 'the target description offers none of the load routes');
  return kept;
}
