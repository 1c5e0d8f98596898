/**
 * Reading an answer body for the load verdict: the JSON text reduced to the members the
 * verdict reads (the root's `code`, `result`, `order`, `clientOrderId`; each result entry's
 * `code`, `order`, `clientOrderId`; an order's `clientOrderId`), every other value checked
 * for JSON grammar and skipped without being built. A batch answer of 20 entries carries
 * about 300 values the verdict never reads (§4.1, §7); building them was most of the cost
 * of judging under load. Anything out of the ordinary (an escape or a control character
 * anywhere, whitespace other than spaces, deep nesting, a grammar error) falls back to
 * `JSON.parse` and {@link pruneAnswer}, so the result is always that of the full parse.
 */

/** Which members of a value the verdict reads: one of the shapes below. */
type Shape = 0 | 1 | 2 | 3 | 4 | 5;
/** Not read: checked, not built. */
const SKIP = 0;
/** Read as a value: built whole. */
const WHOLE = 1;
/** The answer: code, result, order, clientOrderId. */
const ROOT = 2;
/** `result`: an array of entries. */
const RESULT = 3;
/** A result entry: code, order, clientOrderId. */
const ENTRY = 4;
/** An order: clientOrderId. */
const ORDER = 5;

/** The shape of member `key` of a value of shape `s`. */
function memberShape(s: Shape, key: string): Shape {
  if (key === 'clientOrderId') return WHOLE;
  if (s === ORDER) return SKIP;
  if (key === 'code') return WHOLE;
  if (key === 'order') return ORDER;
  if (key === 'result' && s === ROOT) return RESULT;
  return SKIP;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A parsed value reduced to what the verdict reads (the reference for {@link readAnswer}):
 * an object of a read shape keeps only its read members (in a null-prototype object), an
 * array of entries keeps its length, a value that is not of the expected kind becomes null
 * (the verdict only asks whether it is an object or an array).
 */
export function pruneAnswer(v: unknown): unknown {
  return prune(v, ROOT);
}

function prune(v: unknown, s: Shape): unknown {
  if (s === WHOLE) return v;
  if (s === RESULT) return Array.isArray(v) ? v.map((e) => prune(e, ENTRY)) : null;
  if (!isRecord(v)) return null;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, x] of Object.entries(v)) {
    const m = memberShape(s, k);
    if (m !== SKIP) out[k] = prune(x, m);
  }
  return out;
}

/** Deeper than this, the fast reader gives up (the full parse has no such limit). */
const MAX_DEPTH = 64;

/**
 * What the fast reader leaves to the full parse: a backslash (an escape) or a control
 * character anywhere (so whitespace is spaces only, and a string ends at the next quote).
 */
const UNUSUAL = /[\u0000-\u001f\\]/;

/** The value the last {@link read} built. */
let got: unknown;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Past the spaces at `i`. */
const sp = (s: string, i: number): number => {
  while (s.charCodeAt(i) === 0x20) i++;
  return i;
};

/** Past the number at `i` (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or -1. */
function number(s: string, i: number): number {
  if (s.charCodeAt(i) === 0x2d) i++;
  const first = s.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) while (isDigit(s.charCodeAt(++i)));
  else return -1;
  if (s.charCodeAt(i) === 0x2e) {
    if (!isDigit(s.charCodeAt(++i))) return -1;
    while (isDigit(s.charCodeAt(++i)));
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    const sign = s.charCodeAt(++i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(s.charCodeAt(i))) return -1;
    while (isDigit(s.charCodeAt(++i)));
  }
  return i;
}

/** Past the value at `i` (checked, nothing built), or -1. */
function skip(s: string, i: number, depth: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return s.indexOf('"', i + 1) + 1 || -1;
  if (c === 0x7b || c === 0x5b) {
    if (depth > MAX_DEPTH) return -1;
    const close = c + 2;
    i = sp(s, i + 1);
    if (s.charCodeAt(i) === close) return i + 1;
    for (;;) {
      if (c === 0x7b) {
        if (s.charCodeAt(i) !== 0x22) return -1;
        i = s.indexOf('"', i + 1) + 1;
        if (i === 0) return -1;
        i = sp(s, i);
        if (s.charCodeAt(i) !== 0x3a) return -1;
        i = sp(s, i + 1);
      }
      i = skip(s, i, depth + 1);
      if (i < 0) return -1;
      i = sp(s, i);
      const d = s.charCodeAt(i);
      if (d === close) return i + 1;
      if (d !== 0x2c) return -1;
      i = sp(s, i + 1);
    }
  }
  if (c === 0x74) return s.startsWith('true', i) ? i + 4 : -1;
  if (c === 0x66) return s.startsWith('false', i) ? i + 5 : -1;
  if (c === 0x6e) return s.startsWith('null', i) ? i + 4 : -1;
  return number(s, i);
}

/** {@link memberShape} for the member name s[k0, k1), without building the name. */
function memberShapeAt(s: string, shape: Shape, k0: number, k1: number): Shape {
  const n = k1 - k0;
  if (n === 13 && s.startsWith('clientOrderId', k0)) return WHOLE;
  if (shape === ORDER) return SKIP;
  if (n === 4 && s.startsWith('code', k0)) return WHOLE;
  if (n === 5 && s.startsWith('order', k0)) return ORDER;
  if (n === 6 && shape === ROOT && s.startsWith('result', k0)) return RESULT;
  return SKIP;
}

/** Past the value at `i` read in `shape` (not SKIP), its reduced form left in {@link got}; or -1. */
function read(s: string, i: number, shape: Shape, depth: number): number {
  const c = s.charCodeAt(i);
  if (shape === WHOLE) {
    const j = skip(s, i, depth);
    if (j < 0) return -1;
    if (c === 0x22) got = s.slice(i + 1, j - 1);
    else if (c === 0x7b || c === 0x5b) got = JSON.parse(s.slice(i, j));
    else if (c === 0x74) got = true;
    else if (c === 0x66) got = false;
    else if (c === 0x6e) got = null;
    else got = Number(s.slice(i, j));
    return j;
  }
  const want = shape === RESULT ? 0x5b : 0x7b;
  if (c !== want || depth > MAX_DEPTH) {
    got = null;
    return skip(s, i, depth);
  }
  const close = c + 2;
  const out: unknown[] | Record<string, unknown> = shape === RESULT ? [] : Object.create(null);
  i = sp(s, i + 1);
  if (s.charCodeAt(i) !== close)
    for (;;) {
      if (shape === RESULT) {
        i = read(s, i, ENTRY, depth + 1);
        if (i < 0) return -1;
        (out as unknown[]).push(got);
      } else {
        if (s.charCodeAt(i) !== 0x22) return -1;
        const k0 = i + 1;
        const k1 = s.indexOf('"', k0);
        if (k1 < 0) return -1;
        i = sp(s, k1 + 1);
        if (s.charCodeAt(i) !== 0x3a) return -1;
        i = sp(s, i + 1);
        const m = memberShapeAt(s, shape, k0, k1);
        if (m === SKIP) i = skip(s, i, depth + 1);
        else {
          i = read(s, i, m, depth + 1);
          if (i >= 0) (out as Record<string, unknown>)[s.slice(k0, k1)] = got;
        }
        if (i < 0) return -1;
      }
      i = sp(s, i);
      const d = s.charCodeAt(i);
      if (d === close) break;
      if (d !== 0x2c) return -1;
      i = sp(s, i + 1);
    }
  got = out;
  return i + 1;
}

/**
 * The answer body as the verdict reads it: {@link pruneAnswer} of `JSON.parse(body)`,
 * undefined when the body is absent, empty or not JSON.
 */
export function readAnswer(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  if (!UNUSUAL.test(body)) {
    const end = read(body, sp(body, 0), ROOT, 0);
    const v = got;
    got = undefined;
    if (end >= 0 && sp(body, end) === body.length) return v;
  }
  try {
    return pruneAnswer(JSON.parse(body));
  } catch {
    return undefined;
  }
}
