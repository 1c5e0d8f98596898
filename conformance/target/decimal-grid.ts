/**
 * Decimal values a venue accepts: a fixed value, or `min + k * step` up to `max`
 * (tick size for prices, lot size for quantities). Exact: scaled integers, never
 * floating point, so `0.1 + 2 * 0.1` is `0.3`.
 */

/** A fixed decimal, or a grid from `min` to `max` in steps of `step`. */
export type DecimalSpec = string | { min: string; max: string; step: string };

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

function scaleOf(s: string): number {
  const dot = s.indexOf('.');
  return dot === -1 ? 0 : s.length - dot - 1;
}

function toScaled(s: string, scale: number): bigint {
  const [int = '0', frac = ''] = s.split('.');
  return BigInt(int + frac.padEnd(scale, '0'));
}

function fromScaled(v: bigint, scale: number): string {
  if (scale === 0) return v.toString();
  const s = v.toString().padStart(scale + 1, '0');
  const frac = s.slice(-scale).replace(/0+$/, '');
  return frac === '' ? s.slice(0, -scale) : `${s.slice(0, -scale)}.${frac}`;
}

/** A grid in integer units of 10^-scale. */
export interface Grid {
  scale: number;
  min: bigint;
  step: bigint;
  /** Number of values on the grid (at least 1). */
  count: bigint;
}

/** The grid of a spec, or the reason it is not one (for the target file's error message). */
export function toGrid(spec: DecimalSpec): Grid | { error: string } {
  const parts = typeof spec === 'string' ? { min: spec, max: spec, step: spec } : spec;
  for (const [k, v] of Object.entries(parts))
    if (!DECIMAL.test(v)) return { error: `${k} '${v}' is not a plain decimal` };
  const scale = Math.max(scaleOf(parts.min), scaleOf(parts.max), scaleOf(parts.step));
  const min = toScaled(parts.min, scale);
  const max = toScaled(parts.max, scale);
  const step = toScaled(parts.step, scale);
  if (min <= 0n) return { error: `min '${parts.min}' must be above zero (D-DECIMALS)` };
  if (step <= 0n) return { error: `step '${parts.step}' must be above zero` };
  if (max < min) return { error: `max '${parts.max}' is below min '${parts.min}'` };
  return { scale, min, step, count: typeof spec === 'string' ? 1n : (max - min) / step + 1n };
}

/** The k-th value of a grid (k taken modulo its size), as plain decimal text. */
export function gridValue(g: Grid, k: bigint): string {
  const i = ((k % g.count) + g.count) % g.count;
  return fromScaled(g.min + i * g.step, g.scale);
}

/**
 * Values a venue with this grid refuses (a filter): halfway between two steps (off the
 * tick or lot), and below the minimum (one step under it, or half of it when that would
 * not be above zero). Plain decimal text.
 */
export function offGrid(g: Grid): { offTick: string; underMin: string } {
  const offTick = fromScaled(g.min * 10n + g.step * 5n, g.scale + 1);
  const underMin = g.min - g.step > 0n ? fromScaled(g.min - g.step, g.scale) : fromScaled(g.min * 5n, g.scale + 1);
  return { offTick, underMin };
}

/** The grid holding only its minimum (the cheapest valid value). */
export function cheapest(g: Grid): Grid {
  return { ...g, count: 1n };
}

/**
 * How many orders of `price` x `quantity` an account holding `quote` and `base` pays for,
 * whichever side each order is: a BUY reserves price x quantity of quote, a SELL quantity of
 * base, so the smaller of the two counts bounds any mix of sides. Exact decimal arithmetic.
 */
export function ordersAffordable(account: { quote: string; base: string }, price: string, quantity: string): number {
  const scale = Math.max(...[account.quote, account.base, price, quantity].map(scaleOf));
  const q = toScaled(account.quote, scale) * 10n ** BigInt(scale);
  const b = toScaled(account.base, scale);
  const p = toScaled(price, scale);
  const n = toScaled(quantity, scale);
  if (p <= 0n || n <= 0n) return 0;
  const buys = q / (p * n);
  const sells = b / n;
  const least = buys < sells ? buys : sells;
  return least > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(least);
}
