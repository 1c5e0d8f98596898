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
 * an object of a read shape keeps only its read members (no member of Object.prototype is one), an
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
  const out: Record<string, unknown> = {};
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
  const out: unknown[] | Record<string, unknown> = shape === RESULT ? [] : {};
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
          const v0 = i;
          i = read(s, i, m, depth + 1);
          if (i >= 0) {
            const key = s.slice(k0, k1);
            (out as Record<string, unknown>)[key] = got;
            if (m === WHOLE) readStrings.push({ obj: out as object, key, at: s.charCodeAt(v0) === 0x22 ? v0 + 1 : -1 });
          }
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

/** A member read whole: its object in the reduced value, its name, where its text starts if a string (else -1). */
interface ReadString {
  obj: object;
  key: string;
  at: number;
}

/** The members read whole by the last {@link read} from the root, in order. */
let readStrings: ReadString[] = [];

/** How to build the reduced value of an answer that matched a skeleton. */
type Plan =
  | { kind: 'object'; members: Array<[string, Plan]> }
  | { kind: 'array'; items: Plan[] }
  | { kind: 'value'; value: string | number | boolean | null }
  | { kind: 'slot'; slot: number };

/**
 * The text of an answer with the contents of some strings left open (slots): `runs[0]`,
 * slot 0, `runs[1]`, ..., `runs[n]`. Learnt from two answers whose texts differ only inside
 * strings: a text made of the same runs, each slot free of quotes, backslashes and control
 * characters, is then valid JSON of the same structure (the runs are text already checked,
 * and each slot stays the inside of the same string), so it is checked by comparing the
 * runs and reading the slots, and its reduced value is the plan with the slots filled in.
 */
interface Skeleton {
  runs: string[];
  /** Whether the verdict reads slot i (it is then built). */
  read: boolean[];
  plan: Plan;
  values: string[];
}

/** The positions of the quotes of a text without escapes (in pairs: each string's two quotes). */
function quotes(s: string): number[] {
  const q: number[] = [];
  for (let i = s.indexOf('"'); i >= 0; i = s.indexOf('"', i + 1)) q.push(i);
  return q;
}

/** The plan of a reduced value in `shape`; undefined when a read value is an object or array (not learnt). */
function planOf(
  v: unknown,
  shape: Shape,
  strings: Map<object, Map<string, number>>,
  slotAt: Map<number, number>,
): Plan | undefined {
  if (shape === RESULT && Array.isArray(v)) {
    const items: Plan[] = [];
    for (const e of v) {
      const p = planOf(e, ENTRY, strings, slotAt);
      if (p === undefined) return undefined;
      items.push(p);
    }
    return { kind: 'array', items };
  }
  if (shape !== WHOLE && isRecord(v)) {
    const members: Array<[string, Plan]> = [];
    for (const [k, x] of Object.entries(v)) {
      const m = memberShape(shape, k);
      const at = strings.get(v)?.get(k);
      const slot = at === undefined ? undefined : slotAt.get(at);
      const p = slot !== undefined ? ({ kind: 'slot', slot } as const) : planOf(x, m, strings, slotAt);
      if (p === undefined) return undefined;
      members.push([k, p]);
    }
    return { kind: 'object', members };
  }
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    return { kind: 'value', value: v };
  return undefined;
}

/**
 * The skeleton shared by `a` and `b` (both read by {@link read}: no escapes, no control
 * characters; `qa`, `qb` their {@link quotes}), `b`'s reduced value `v` with its read strings;
 * undefined unless they differ only inside strings.
 */
function learn(
  a: string,
  qa: number[],
  b: string,
  qb: number[],
  v: unknown,
  strings: readonly ReadString[],
): Skeleton | undefined {
  if (qa.length !== qb.length || qa.length % 2 !== 0) return undefined;
  const gap = (s: string, q: number[], k: number): string =>
    s.slice(k === 0 ? 0 : (q[2 * k - 1] as number) + 1, k * 2 < q.length ? q[2 * k] : s.length);
  const m = qb.length / 2;
  for (let k = 0; k <= m; k++) if (gap(a, qa, k) !== gap(b, qb, k)) return undefined;
  const runs: string[] = [];
  const slotAt = new Map<number, number>();
  let cur = gap(b, qb, 0);
  for (let k = 0; k < m; k++) {
    const open = qb[2 * k] as number;
    const close = qb[2 * k + 1] as number;
    const text = b.slice(open + 1, close);
    cur += '"';
    if (text !== a.slice((qa[2 * k] as number) + 1, qa[2 * k + 1])) {
      // A member name decides what is read: names are never slots.
      if (
        gap(b, qb, k + 1)
          .trimStart()
          .startsWith(':')
      )
        return undefined;
      slotAt.set(open + 1, runs.length);
      runs.push(cur);
      cur = '';
    } else cur += text;
    cur += `"${gap(b, qb, k + 1)}`;
  }
  runs.push(cur);
  const byObject = new Map<object, Map<string, number>>();
  for (const r of strings) {
    let keys = byObject.get(r.obj);
    if (keys === undefined) byObject.set(r.obj, (keys = new Map()));
    keys.set(r.key, r.at);
  }
  const plan = planOf(v, ROOT, byObject, slotAt);
  if (plan === undefined) return undefined;
  const read = Array.from({ length: runs.length - 1 }, () => false);
  for (const slot of slotAt.values()) read[slot] = planUses(plan, slot);
  return { runs, read, plan, values: [] };
}

function planUses(p: Plan, slot: number): boolean {
  if (p.kind === 'slot') return p.slot === slot;
  if (p.kind === 'object') return p.members.some(([, x]) => planUses(x, slot));
  if (p.kind === 'array') return p.items.some((x) => planUses(x, slot));
  return false;
}

function build(p: Plan, values: readonly string[]): unknown {
  switch (p.kind) {
    case 'value':
      return p.value;
    case 'slot':
      return values[p.slot];
    case 'array':
      return p.items.map((x) => build(x, values));
    default: {
      const o: Record<string, unknown> = {};
      for (const [k, x] of p.members) o[k] = build(x, values);
      return o;
    }
  }
}

/** The reduced value of `s` when it is made of the skeleton's runs; undefined otherwise. */
function matchSkeleton(k: Skeleton, s: string): unknown {
  const { runs, read, values } = k;
  const n = runs.length - 1;
  let j = 0;
  for (let x = 0; x < n; x++) {
    const r = runs[x] as string;
    // A slice compared whole: far quicker than startsWith over runs this long.
    if (s.slice(j, j + r.length) !== r) return undefined;
    j += r.length;
    const q = s.indexOf('"', j);
    if (q < 0) return undefined;
    for (let c = j; c < q; c++) {
      const ch = s.charCodeAt(c);
      if (ch < 0x20 || ch === 0x5c) return undefined;
    }
    if (read[x]) values[x] = s.slice(j, q);
    j = q;
  }
  const last = runs[n] as string;
  if (j + last.length !== s.length || s.slice(j) !== last) return undefined;
  return build(k.plan, values);
}

/** How many skeletons a reader keeps (a mix of routes answers in a few shapes). */
const SKELETONS = 4;

/**
 * Reads answer bodies for the verdict ({@link readAnswer}). It remembers the shape of the
 * answers it has read: a target answers the same text with other ids and numbers, so after
 * two answers that differ only inside strings, the next is checked by comparing the text
 * they share and reading only what differs. Whatever it remembers, each result is that of
 * the full parse.
 */
export class AnswerReader {
  private skeletons: Skeleton[] = [];
  /** The last answer read in full, and its quotes. */
  private last: { body: string; quotes: number[] } | undefined;
  /** Answers read through a skeleton (the rest by the full read). */
  skeletonReads = 0;

  /** {@link pruneAnswer} of `JSON.parse(body)`, undefined when the body is absent, empty or not JSON. */
  read(body: string | undefined): unknown {
    if (body === undefined || body === '') return undefined;
    for (const k of this.skeletons) {
      const v = matchSkeleton(k, body);
      if (v !== undefined) {
        this.skeletonReads++;
        return v;
      }
    }
    if (!UNUSUAL.test(body)) {
      readStrings = [];
      const end = read(body, sp(body, 0), ROOT, 0);
      const v = got;
      const strings = readStrings;
      got = undefined;
      readStrings = [];
      if (end >= 0 && sp(body, end) === body.length) {
        const q = quotes(body);
        if (this.last !== undefined) {
          const k = learn(this.last.body, this.last.quotes, body, q, v, strings);
          if (k !== undefined) {
            this.skeletons.unshift(k);
            this.skeletons.length = Math.min(this.skeletons.length, SKELETONS);
          }
        }
        this.last = { body, quotes: q };
        return v;
      }
    }
    try {
      return pruneAnswer(JSON.parse(body));
    } catch {
      return undefined;
    }
  }
}

const shared = new AnswerReader();

/**
 * The answer body as the verdict reads it: {@link pruneAnswer} of `JSON.parse(body)`,
 * undefined when the body is absent, empty or not JSON.
 */
export function readAnswer(body: string | undefined): unknown {
  return shared.read(body);
}
