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
