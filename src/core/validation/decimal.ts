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

const DECIMAL_TEXT = /^[0-9]+(\.[0-9]+)?$/;

/** Canonical text of a decimal string: no leading integer zeros, no trailing fraction zeros (`007.50` gives `7.5`). */
function canonical(s: string): string {
  const [int = '', frac = ''] = s.split('.');
  const i = int.replace(/^0+(?=[0-9])/, '');
  const f = frac.replace(/0+$/, '');
  return f === '' ? i : `${i}.${f}`;
}

/**
 * Two DECIMALs (§2.1: a JSON number or a decimal string) equal by value, exactly: `1.50` equals
 * `1.5`, `0.123456789012345678` does not equal `0.12345678901234568`. Where one side is a JSON
 * number, both are read as a JSON parser reads them (a double), the most such an echo can carry.
 */
export function sameDecimalValue(a: unknown, b: unknown): boolean {
  const text = (v: unknown): string | undefined =>
    typeof v === 'number' && Number.isFinite(v)
      ? plainDecimal(v)
      : typeof v === 'string' && DECIMAL_TEXT.test(v)
        ? v
        : undefined;
  const x = text(a);
  const y = text(b);
  if (x === undefined || y === undefined) return false;
  if (typeof a === 'number' || typeof b === 'number') return Number(x) === Number(y);
  return canonical(x) === canonical(y);
}

/** A decimal text with an optional exponent (`1e400`, `1.5E+3`, `18446744073709551621`). */
const SCIENTIFIC_TEXT = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** The value of a decimal text as `digits x 10^exp`, digits without leading or trailing zeros (`0` for zero); exact. */
function scaled(s: string): { digits: string; exp: bigint } | undefined {
  const m = SCIENTIFIC_TEXT.exec(s);
  if (m === null) return undefined;
  const frac = m[2] ?? '';
  const all = `${m[1] ?? ''}${frac}`.replace(/^0+/, '');
  if (all === '') return { digits: '0', exp: 0n };
  const digits = all.replace(/0+$/, '');
  return { digits, exp: BigInt(m[3] ?? '0') - BigInt(frac.length) + BigInt(all.length - digits.length) };
}

/**
 * Whether an echoed DECIMAL carries exactly the value sent as `sent` (plain or exponent text,
 * §2.1): a string echo is compared digit for digit whatever its notation (`1E+400` is `1e400`).
 * A JSON number echo has been read as a double: it matches when the double is the value sent;
 * undefined (undecidable) when it is past the double range, or is the double nearest to a
 * value no double holds (the server's digits are lost to any JSON parser, exact or not).
 */
export function echoesDecimal(echo: unknown, sent: string): boolean | undefined {
  const want = scaled(sent);
  if (want === undefined) return false;
  if (typeof echo === 'number') {
    if (!Number.isFinite(echo)) return undefined;
    const got = scaled(plainDecimal(echo));
    if (got !== undefined && got.digits === want.digits && got.exp === want.exp) return true;
    return Number(sent) === echo ? undefined : false;
  }
  const got = typeof echo === 'string' ? scaled(echo) : undefined;
  return got !== undefined && got.digits === want.digits && got.exp === want.exp;
}
