/**
 * Field-level checks shared by single orders and batch elements (§2.1).
 */

/** Decimal string: digits with an optional fraction (§2.1 DECIMAL). */
const DECIMAL_STRING = /^[0-9]+(\.[0-9]+)?$/;
/** LONG as text: digits only. */
const DIGITS = /^[0-9]+$/;

/** Maximum length of newClientOrderId (§2.1, §8). */
export const MAX_CLIENT_ORDER_ID = 255;

/**
 * A DECIMAL as the wire may carry it: a finite JSON number or a decimal string
 * (§2.1). Returns the numeric value, or undefined when the value is not a decimal.
 */
export function parseDecimal(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && DECIMAL_STRING.test(v)) return Number(v);
  return undefined;
}

/** A LONG (timestamp, recvWindow): a non-negative safe JSON integer or a string of digits. */
export function parseLong(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && DIGITS.test(v) && v.length <= 16) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Length in characters (code points), as a client counts them. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The order fields of §2.1, in the order the kit sends them. */
export const ORDER_FIELDS = [
  'symbol',
  'side',
  'type',
  'quantity',
  'amount',
  'price',
  'newClientOrderId',
  'timeInForce',
  'stpMode',
] as const;

/** Order sides (§2.1). */
export const SIDES = ['BUY', 'SELL'] as const;
/** Order types (§2.1). */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'] as const;
/** Self trade prevention modes (§2.1). */
export const STP_MODES = ['EXPIRE_TAKER', 'EXPIRE_MAKER'] as const;
/** GTC and IOC are named by §2.1; FOK is the value seen in practice (decision D-TIF-VALUES). */
export const TIME_IN_FORCE_VALUES = ['GTC', 'IOC', 'FOK'] as const;

/** True when `v` is one of the string `values` (exact, case-sensitive). */
export function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}
