/**
 * Reading JSON answers without losing 64-bit values (design notes, "Numbers on the
 * wire"): a LONG such as `orderId` may arrive as a bare JSON integer above 2^53, which
 * `JSON.parse` rounds, so two distinct ids could read as one. Pure, browser-safe.
 */

/** Longest digit run that is always a safe integer (2^53 has 16 digits). */
const SAFE_DIGITS = 15;

/**
 * `JSON.parse`, except that an integer literal whose value is not a safe integer is
 * returned as its exact digit string (sign kept), so no two distinct integers read
 * alike. Other numbers (fractions, exponents) are parsed as usual. Throws `SyntaxError`
 * exactly where `JSON.parse` would.
 */
export function parseJsonLossless(text: string): unknown {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string literal, escapes included
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      if (c === 0x2d) i++;
      const digitsStart = i;
      while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
      const digits = i - digitsStart;
      let integer = true;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d || (d >= 0x30 && d <= 0x39)) {
          integer = false;
          i++;
        } else break;
      }
      if (integer && digits > SAFE_DIGITS && !Number.isSafeInteger(Number(text.slice(start, i)))) {
        out += `${text.slice(last, start)}"${text.slice(start, i)}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last));
}

/**
 * Deepest nesting of arrays and objects in a JSON text (`[[1]]` is 2, a scalar 0),
 * found by one scan that skips string literals, so a body can be refused before it
 * is parsed. Stops counting once past `limit` (returns `limit + 1`). Never throws;
 * on text that is not JSON the result is a bound, not a meaning.
 */
export function jsonNestingDepth(text: string, limit = Number.MAX_SAFE_INTEGER): number {
  let depth = 0;
  let max = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return limit + 1;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth = Math.max(0, depth - 1);
    }
  }
  return max;
}
