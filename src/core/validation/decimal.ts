/**
 * DECIMAL values as text (§2.1): plain notation, never an exponent, so that a
 * number always reads as a decimal string of the form the validators accept.
 */

/** Plain decimal text of a finite number: `1e-7` gives `0.0000001`, `1.5e21` gives `1500000000000000000000`. */
export function plainDecimal(n: number): string {
  const s = String(n);
  const e = s.search(/e/i);
  if (e === -1) return s;
  const exp = Number(s.slice(e + 1));
  const neg = s.startsWith('-');
  const mantissa = s.slice(neg ? 1 : 0, e);
  const dot = mantissa.indexOf('.');
  const digits = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot === -1 ? mantissa.length : dot) + exp;
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${body}` : body;
}
