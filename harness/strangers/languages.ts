/**
 * Venues written in the habits of one language each (Python, Go, JavaScript), the way their
 * teams write them: the stranger venue (harness/strangers/venue.ts, plain node:http, its own
 * reader) with the value readers swapped for that language's stock functions. Each lenient
 * reader is one habit of the language, emulated from its documented behaviour (the parsers of
 * spec/domain.json); the clean venue of each language validates before it converts. Test
 * harness only.
 */
import type { VenueReaders } from './venue.js';

export type Language = 'python' | 'go' | 'js';

/** One lenient habit of a language and the check that must catch it. */
export interface LenientReader {
  language: Language;
  name: string;
  /** The check (ID) that fails on it. */
  caughtBy: string;
  readers: Partial<VenueReaders>;
}

const KEY = 'stranger-key-7f3a';
/** 2^63 - 1, the largest LONG (§2.1). */
const LONG_MAX = 9_223_372_036_854_775_807n;
/** A LONG read by `read` only within the 64-bit range, as every clean venue checks. */
const inRange =
  (read: (v: string) => bigint | undefined) =>
  (v: string): bigint | undefined => {
    const n = read(v);
    return n !== undefined && n >= 0n && n <= LONG_MAX ? n : undefined;
  };
const SECRET = 'stranger-secret-91bd';

// ------------------------------------------------------------------ Python

/** Python's int(): blanks, a sign, underscores between digits (PEP 515), any Unicode decimal digit. */
function pyInt(s: string): bigint | undefined {
  const t = s.trim();
  const m = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(t);
  if (m === null) return undefined;
  const digits = [...(m[2] ?? '').replace(/_/g, '')].map((c) => unicodeDigit(c)).join('');
  const v = BigInt(digits);
  return m[1] === '-' ? -v : v;
}

/** The value of a Unicode decimal digit: Nd characters are encoded in contiguous runs of ten, zero first. */
function unicodeDigit(c: string): string {
  const cp = c.codePointAt(0) ?? 48;
  let start = cp;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

/** Python's float(): blanks, a sign, underscores, Unicode digits, exponents, nan / inf / infinity in any case. */
function pyFloat(s: string): number | undefined {
  const t = s.trim();
  if (/^[+-]?(nan|inf|infinity)$/i.test(t))
    return t.toLowerCase().includes('nan') ? Number.NaN : t.startsWith('-') ? -Infinity : Infinity;
  const m = /^[+-]?(\p{Nd}+(?:_\p{Nd}+)*)?(\.\p{Nd}+(?:_\p{Nd}+)*)?([eE][+-]?\p{Nd}+)?$/u.exec(t);
  if (m === null || (m[1] === undefined && m[2] === undefined)) return undefined;
  const ascii = [...t.replace(/_/g, '')].map((c) => (/\p{Nd}/u.test(c) ? unicodeDigit(c) : c)).join('');
  return Number(ascii);
}

// ------------------------------------------------------------------ Go

/** Go's strconv.ParseFloat: a sign, exponents, hex floats (p exponent), Inf / Infinity / NaN in any case; no blanks. */
function goParseFloat(s: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return Number.NaN;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9_]+)$/.exec(s);
  if (hex !== null) {
    const int = (hex[2] ?? '').replace(/_/g, '');
    const frac = (hex[3] ?? '').replace(/_/g, '');
    const mant = Number.parseInt(int + frac || '0', 16) / 16 ** frac.length;
    const v = mant * 2 ** Number((hex[4] ?? '0').replace(/_/g, ''));
    return hex[1] === '-' ? -v : v;
  }
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s) ? Number(s) : undefined;
}

/** Go's strconv.ParseInt(s, 0, 64): a sign, 0x / 0o / 0b / leading-0 (octal) prefixes, underscores. */
function goParseInt0(s: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(s);
  if (m === null) return undefined;
  const body = (m[2] ?? '').replace(/_/g, '');
  const v = /^0[0-7]+$/.test(body)
    ? BigInt(`0o${body.slice(1)}`)
    : /^0[oO]/.test(body)
      ? BigInt(`0o${body.slice(2)}`)
      : BigInt(body);
  const signed = m[1] === '-' ? -v : v;
  // bitSize 64: a value out of range is an error (ErrRange)
  return signed > LONG_MAX || signed < -LONG_MAX - 1n ? undefined : signed;
}

/** Go's encoding/json key matching: case-insensitive with Unicode folding (ſ folds to s, K to k). */
const FIELD_NAMES = [
  'symbol',
  'side',
  'type',
  'quantity',
  'amount',
  'price',
  'newClientOrderId',
  'timeInForce',
  'stpMode',
];
const fold = (s: string): string =>
  s
    .replace(/ſ/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();
function goKey(k: string): string | undefined {
  return FIELD_NAMES.find((f) => f === k) ?? FIELD_NAMES.find((f) => fold(f) === fold(k));
}

/** Go's json.Decoder.Decode: the first JSON value of the stream; the rest is left unread. */
function goDecode(text: string): unknown {
  for (let end = text.length; end > 0; end--) {
    const head = text.slice(0, end);
    if (!/[\]}]\s*$/.test(head)) continue;
    try {
      return JSON.parse(head);
    } catch {
      /* a shorter prefix may be the first value */
    }
  }
  return JSON.parse(text);
}

// ------------------------------------------------------------------ JavaScript

/** Node's Buffer.from(s, 'hex'): stops at the first character that does not make a hex pair. */
function bufferHex(s: string): string {
  let out = '';
  for (let i = 0; i + 1 < s.length; i += 2) {
    const pair = s.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
    out += pair.toLowerCase();
  }
  return out;
}

export const lenientReaders: readonly LenientReader[] = [
  // Python
  {
    language: 'python',
    name: 'quantity and price read with float()',
    caughtBy: 'ORDER-DECIMAL-FORMAT.domain',
    readers: { decimal: pyFloat },
  },
  {
    language: 'python',
    name: 'timestamp and recvWindow read with int()',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.domain',
    readers: { long: (v) => pyInt(v) },
  },
  {
    language: 'python',
    name: 'enums matched after str.upper()',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
    readers: { enumOf: (v, values) => (values.has(v.toUpperCase()) ? v.toUpperCase() : undefined) },
  },
  {
    language: 'python',
    name: 'the signature decoded with bytes.fromhex (blanks ignored)',
    caughtBy: 'SIG-HMAC-SHA256-HEX.domain',
    readers: {
      signature: (sent, mac) => /^[0-9a-fA-F\s]+$/.test(sent) && sent.replace(/\s/g, '').toLowerCase() === mac,
    },
  },
  {
    language: 'python',
    name: "the secret looked up with SECRETS.get(key, '')",
    caughtBy: 'AUTH-APIKEY-REQUIRED.confusion',
    readers: { secret: (key) => (key === KEY ? SECRET : '') },
  },
  // Go
  {
    language: 'go',
    name: 'quantity and price read with strconv.ParseFloat',
    caughtBy: 'ORDER-DECIMAL-FORMAT.domain',
    readers: { decimal: goParseFloat },
  },
  {
    language: 'go',
    name: 'timestamp and recvWindow read with strconv.ParseInt(s, 0, 64)',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.domain',
    readers: { long: goParseInt0 },
  },
  {
    language: 'go',
    name: 'batch keys matched by encoding/json (case-insensitive, Unicode folding)',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
    readers: { key: goKey },
  },
  {
    language: 'go',
    name: 'the batch body read with json.Decoder.Decode (trailing text ignored)',
    caughtBy: 'BATCH-JSON-BODY.domain',
    readers: { body: goDecode },
  },
  {
    language: 'go',
    name: 'the secret read from a map (a missing key gives the zero value "")',
    caughtBy: 'AUTH-APIKEY-UNKNOWN.confusion',
    readers: { secret: (key) => (key === KEY ? SECRET : key === undefined || key === '' ? undefined : '') },
  },
  // JavaScript
  {
    language: 'js',
    name: 'quantity and price read with Number()',
    caughtBy: 'ORDER-DECIMAL-FORMAT.domain',
    readers: { decimal: (v) => Number(v) },
  },
  {
    language: 'js',
    name: 'timestamp and recvWindow read with parseInt()',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.domain',
    readers: {
      long: (v) => {
        const n = Number.parseInt(v, 10);
        return Number.isNaN(n) ? undefined : BigInt(n);
      },
    },
  },
  {
    language: 'js',
    name: 'batch values read with String() (["BUY"] is "BUY")',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
    readers: { scalar: (v) => String(v) },
  },
  {
    language: 'js',
    name: 'batch elements filtered with .filter(Boolean) before the 20-order count (null dropped)',
    caughtBy: 'BATCH-MAX-ORDERS.domain',
    readers: {
      body: (text) => {
        const v: unknown = JSON.parse(text);
        return Array.isArray(v) ? v.filter(Boolean) : v;
      },
    },
  },
  {
    language: 'js',
    name: "the signature decoded with Buffer.from(s, 'hex')",
    caughtBy: 'SIG-HMAC-SHA256-HEX.domain',
    readers: { signature: (sent, mac) => bufferHex(sent) === mac },
  },
  {
    language: 'js',
    name: 'the secret read as `${secrets[key]}` ("undefined" for a missing key)',
    caughtBy: 'AUTH-APIKEY-REQUIRED.confusion',
    readers: { secret: (key) => (key === KEY ? SECRET : String(undefined)) },
  },
];

/**
 * The clean venue of each language: the same stock functions, called only on text that a
 * pattern of the seed's form has already accepted (the way each team fixes these bugs).
 */
export const cleanReaders: Record<Language, Partial<VenueReaders>> = {
  python: {
    decimal: (v) => (/^[0-9]+(\.[0-9]+)?$/.test(v) ? pyFloat(v) : undefined),
    long: inRange((v) => (/^[0-9]{1,19}$/.test(v) ? pyInt(v) : undefined)),
  },
  go: {
    decimal: (v) => (/^[0-9]+(\.[0-9]+)?$/.test(v) ? goParseFloat(v) : undefined),
    long: (v) => (/^(0|[1-9][0-9]{0,18})$/.test(v) ? goParseInt0(v) : undefined),
  },
  js: {
    decimal: (v) => (/^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : undefined),
    long: inRange((v) => (/^[0-9]{1,19}$/.test(v) ? BigInt(v) : undefined)),
    scalar: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  },
};
