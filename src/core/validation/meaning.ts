/**
 * Values compared by their seed meaning, never as text where the seed gives a type (design
 * notes, "Values by their seed meaning"): a symbol names one trading pair in any letter case
 * (§2.1 STRING "Instrument name"), a LONG is an integer value (§2.2, D-WIRE-NUMBERS); enums and
 * client ids are compared exactly; DECIMALs by exact value (decimal.ts sameDecimalValue).
 */

/** The same trading pair: equal ignoring letter case (`btcusdt` placed and echoed `BTCUSDT`). */
export function sameSymbol(echo: unknown, sent: unknown): boolean {
  return typeof echo === 'string' && typeof sent === 'string' && echo.toUpperCase() === sent.toUpperCase();
}

/** A LONG's integer value, from a JSON integer (exact) or a string of digits (`"0042"` is 42); undefined for anything else. */
export function longValue(v: unknown): bigint | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  return typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : undefined;
}

/** The same LONG: equal integer values, as a JSON integer or a string of digits (`"0042"` is 42; 2^64 + 5 is not 2^64). */
export function sameLong(echo: unknown, sent: unknown): boolean {
  const a = longValue(echo);
  const b = longValue(sent);
  return a !== undefined && b !== undefined && a === b;
}
