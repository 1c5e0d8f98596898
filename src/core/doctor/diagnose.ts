/**
 * The signature doctor (§5.3): given a request the server rejected and the secret, try a
 * fixed, bounded set of known client mistakes and name the one whose string signs to the
 * signature that was sent. Browser-safe: no node imports; HMAC is injected.
 *
 * Detectable: the mistakes below, each one transformation of what the server received,
 * and any two of them combined (the first in `code`, the second in `also`).
 * A timestamp the client signed but never sent is found when the caller passes it in
 * `otherTimestamps`, or without a hint when it is near the one sent (the clock read twice,
 * up to 20 ms apart) or the same instant in seconds.
 * Not detectable: a wrong secret, three or more mistakes -> UNKNOWN.
 */
import { withoutSignature, parsePairs, encodeComponent, SIGNATURE_PARAM } from '../signing/query.js';
import { signedBody, type BodyKind } from '../signing/total-params.js';

import type { HmacHex, HmacHexAsync } from '../signing/hmac.js';

/** HMAC-SHA256 hex of `message` keyed with `secret` (injected so the core stays browser-safe). */
export type Hmac = HmacHex;

/** Stable codes of the mistake classes. */
export const DOCTOR_CODES = [
  'BODY_NOT_SIGNED',
  'QUERY_NOT_SIGNED',
  'SEPARATOR_INSERTED',
  'SIGNATURE_PARAM_SIGNED',
  'PARAMS_REORDERED',
  'SIGNED_BEFORE_ENCODING',
  'ENCODING_MISMATCH',
  'JSON_RESERIALISED',
  'OTHER_TIMESTAMP',
  'UNKNOWN',
] as const;
/** One stable code of `DOCTOR_CODES`. */
export type DoctorCode = (typeof DOCTOR_CODES)[number];

/** A request as the server received it, for the doctor. */
export interface DoctorRequest {
  /** Raw query string without `?`, signature pair included as sent. */
  query: string;
  /** Raw body text. */
  body: string;
  /** How the body is read (a form body may hold the signature pair). */
  bodyKind: BodyKind;
  /** The signature sent; taken from the query/form body when absent. */
  signature?: string;
  /** Timestamp values the client may have signed instead (e.g. from a header or a log). */
  otherTimestamps?: readonly string[];
}

/** Where the server's string and the client's first differ. */
export interface FirstDifference {
  /** Index (UTF-16 code unit) of the first differing character. */
  index: number;
  /** Excerpt of the server's string around the difference, the difference marked `[>…<]`. */
  server: string;
  client: string;
}

/**
 * Why a signature did not verify (never holds the secret). Two mistakes combined (§5.3):
 * `code` names the first (primary) one, `also` the other, and `sentence` both.
 */
export interface Diagnosis {
  /** Stable code of the mistake (the primary one of a pair), `UNKNOWN` when no candidate matches. */
  code: DoctorCode;
  /** The other mistake(s) combined with `code`; absent for a single mistake. */
  also?: DoctorCode[];
  /** One sentence for people, citing the seed; for a pair, the first's then `Also: ` the other's. */
  sentence: string;
  /** The exact text the server signed (totalParams). */
  serverSigned: string;
  /** The text the client evidently signed, when a candidate matched. */
  clientSigned?: string;
  /** The first differing character of the two, marked. */
  firstDifference?: FirstDifference;
}

/** The sentence of each code (the docs page lists them). */
export const DOCTOR_SENTENCES: Readonly<Record<DoctorCode, string>> = {
  BODY_NOT_SIGNED: 'The client signed only the query string: the body must follow it in totalParams (§5.3 item 4).',
  QUERY_NOT_SIGNED: 'The client signed only the body: the query string must come first in totalParams (§5.3 item 4).',
  SEPARATOR_INSERTED: 'The client put an `&` between query string and body: totalParams joins them with nothing (§5.3 item 4).',
  SIGNATURE_PARAM_SIGNED: 'The client signed a string still holding a `signature` pair: it must be removed first (§5.3 item 5).',
  PARAMS_REORDERED: 'The client signed the parameters in another order (sorted by name, or body before query): they are signed in the order sent (§5.3).',
  SIGNED_BEFORE_ENCODING: 'The client signed the values before percent-encoding them: the bytes sent are signed (§5.3).',
  ENCODING_MISMATCH: "The client signed a differently percent-encoded string (e.g. `'!*()` or `/:` escaped or not) than it sent (§5.3).",
  JSON_RESERIALISED: 'The client signed a re-serialised JSON body, not the bytes it sent (§5.3 item 4).',
  OTHER_TIMESTAMP: 'The client signed another timestamp value than the one it sent (§5.3).',
  UNKNOWN: 'No known mistake explains the signature: check the secret, and that the exact bytes sent are signed (§5.3).',
};

const BROWSER_ENC = (s: string): string => encodeURIComponent(s);
const WIDE_ENC = (s: string): string => encodeComponent(s).replace(/[/:]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const NO_ENC = (s: string): string => s;

function isSignaturePair(pair: string): boolean {
  const eq = pair.indexOf('=');
  return (eq === -1 ? pair : pair.slice(0, eq)) === SIGNATURE_PARAM;
}

/**
 * The request as the transformations see it (§5.3 item 4): raw pairs as sent (signature
 * pairs included, left out when rendered unless `keepSignature`), and how they are joined.
 */
interface Shape {
  /** Raw query pairs, empty segments kept. */
  query: readonly string[];
  /** Raw form-body pairs (a form body only). */
  form: readonly string[];
  /** The body text of a JSON body ('' otherwise). */
  text: string;
  kind: BodyKind;
  /** Signature pairs are signed, emptied (the client's placeholder). */
  keepSignature: boolean;
  /** What is put between query string and body. */
  join: '' | '&';
  bodyFirst: boolean;
  signQuery: boolean;
  signBody: boolean;
}

function splitRaw(raw: string): string[] {
  return raw === '' ? [] : raw.split('&');
}

function shapeOf(req: DoctorRequest): Shape {
  const form = req.bodyKind === 'form';
  return {
    query: splitRaw(req.query),
    form: form ? splitRaw(req.body) : [],
    text: form ? '' : req.body,
    kind: req.bodyKind,
    keepSignature: false,
    join: '',
    bodyFirst: false,
    signQuery: true,
    signBody: true,
  };
}

function joined(s: Shape, pairs: readonly string[]): string {
  let out = '';
  let first = true;
  for (const p of pairs) {
    const sig = isSignaturePair(p);
    if (sig && !s.keepSignature) continue;
    out += (first ? '' : '&') + (sig ? `${SIGNATURE_PARAM}=` : p);
    first = false;
  }
  return out;
}

const queryText = (s: Shape): string => (s.signQuery ? joined(s, s.query) : '');
const bodyText = (s: Shape): string => (!s.signBody ? '' : s.kind === 'form' ? joined(s, s.form) : s.text);

/** The string a client with this shape signed; the untouched shape gives totalParams. */
function render(s: Shape): string {
  const q = queryText(s);
  const b = bodyText(s);
  const [x, y] = s.bodyFirst ? [b, q] : [q, b];
  return x !== '' && y !== '' ? x + s.join + y : x + y;
}

/** The pairs sorted by name (stable), empty segments left out. */
function sortPairs(pairs: readonly string[]): string[] {
  const keyed = pairs.filter((p) => p !== '').map((p) => [p.split('=', 1)[0] ?? '', p] as const);
  keyed.sort(([ka], [kb]) => (ka < kb ? -1 : ka > kb ? 1 : 0));
  return keyed.map(([, p]) => p);
}

/** Per search: each raw pair re-encoded once per encoder (the same pairs recur in many shapes). */
type Ctx = { req: DoctorRequest; recoded: Map<string, string> };

function recodePairs(pairs: readonly string[], enc: (s: string) => string, tag: string, ctx: Ctx): string[] {
  const out: string[] = [];
  for (const p of pairs) {
    if (p === '') continue;
    const key = tag + p;
    let r = ctx.recoded.get(key);
    if (r === undefined) {
      // Nothing to decode in most pairs: skip the decoder for them.
      const eq = p.indexOf('=');
      const [k, v] = /[%+]/.test(p) ? (parsePairs(p)[0] ?? ['', '']) : eq === -1 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
      r = `${enc(k)}=${enc(v)}`;
      ctx.recoded.set(key, r);
    }
    out.push(r);
  }
  return out;
}

function recode(s: Shape, enc: (s: string) => string, tag: string, ctx: Ctx): Shape {
  return { ...s, query: recodePairs(s.query, enc, tag, ctx), form: recodePairs(s.form, enc, tag, ctx) };
}

function replaceTimestamp(pairs: readonly string[], value: string): string[] {
  return pairs.filter((p) => p !== '').map((p) => (p.startsWith('timestamp=') ? `timestamp=${value}` : p));
}

/** One known client mistake: the shapes it turns a shape into ([] when it does not apply). */
type Transformation = (s: Shape, ctx: Ctx) => Shape[];

/** The mistakes as composable transformations, in the order single candidates are tried (§5.3). */
const TRANSFORMATIONS: ReadonlyArray<readonly [DoctorCode, Transformation]> = [
  ['BODY_NOT_SIGNED', (s) => (s.signBody && bodyText(s) !== '' ? [{ ...s, signBody: false }] : [])],
  ['QUERY_NOT_SIGNED', (s) => (s.signQuery && queryText(s) !== '' && bodyText(s) !== '' ? [{ ...s, signQuery: false }] : [])],
  ['SEPARATOR_INSERTED', (s) => (s.join === '' && queryText(s) !== '' && bodyText(s) !== '' ? [{ ...s, join: '&' }] : [])],
  // The client cannot have signed its own signature: it signed an empty placeholder pair.
  ['SIGNATURE_PARAM_SIGNED', (s) => (!s.keepSignature && [...s.query, ...s.form].some(isSignaturePair) ? [{ ...s, keepSignature: true }] : [])],
  [
    'PARAMS_REORDERED',
    (s) => {
      if (s.query.length + s.form.length === 0) return [];
      const out: Shape[] = [{ ...s, query: sortPairs(s.query), form: sortPairs(s.form) }];
      const both = s.kind === 'form' && s.signQuery && s.signBody && queryText(s) !== '' && bodyText(s) !== '';
      // All pairs sorted as one list (joined with `&`), or the body before the query string.
      if (both && s.join === '') out.push({ ...s, query: sortPairs([...s.query, ...s.form]), form: [] });
      if (both && !s.bodyFirst) out.push({ ...s, bodyFirst: true });
      return out;
    },
  ],
  ['SIGNED_BEFORE_ENCODING', (s, ctx) => (s.query.length + s.form.length > 0 ? [recode(s, NO_ENC, '0', ctx)] : [])],
  ['ENCODING_MISMATCH', (s, ctx) => (s.query.length + s.form.length > 0 ? [recode(s, BROWSER_ENC, '1', ctx), recode(s, WIDE_ENC, '2', ctx)] : [])],
  [
    'JSON_RESERIALISED',
    (s) => {
      if (s.kind !== 'json' || !s.signBody) return [];
      try {
        const v: unknown = JSON.parse(s.text);
        return [{ ...s, text: JSON.stringify(v) }, { ...s, text: JSON.stringify(v, null, 2) }];
      } catch {
        return []; // not JSON: nothing to re-serialise
      }
    },
  ],
  ['OTHER_TIMESTAMP', (s, ctx) => (ctx.req.otherTimestamps ?? []).map((ts) => ({ ...s, query: replaceTimestamp(s.query, ts), form: replaceTimestamp(s.form, ts) }))],
];

/**
 * Pairs of mistakes (§5.3), the primary one first: it is applied first and its code is
 * the diagnosis' `code`. Every two distinct transformations, minus those that contradict
 * or void each other.
 */
const PAIR_ORDER: readonly DoctorCode[] = [
  'OTHER_TIMESTAMP',
  'SIGNATURE_PARAM_SIGNED',
  'SIGNED_BEFORE_ENCODING',
  'ENCODING_MISMATCH',
  'JSON_RESERIALISED',
  'PARAMS_REORDERED',
  'SEPARATOR_INSERTED',
  'BODY_NOT_SIGNED',
  'QUERY_NOT_SIGNED',
];
const EXCLUDED_PAIRS: readonly string[] = [
  'SIGNED_BEFORE_ENCODING+ENCODING_MISMATCH',
  'JSON_RESERIALISED+BODY_NOT_SIGNED',
  'SEPARATOR_INSERTED+BODY_NOT_SIGNED',
  'SEPARATOR_INSERTED+QUERY_NOT_SIGNED',
  'BODY_NOT_SIGNED+QUERY_NOT_SIGNED',
];
const PAIRS: ReadonlyArray<readonly [DoctorCode, DoctorCode]> = PAIR_ORDER.flatMap((a, i) =>
  PAIR_ORDER.slice(i + 1)
    .filter((b) => !EXCLUDED_PAIRS.includes(`${a}+${b}`))
    .map((b) => [a, b] as const),
);

const TRANSFORMATION = new Map<DoctorCode, Transformation>(TRANSFORMATIONS);

/** One candidate: the code of the (primary) mistake, the string, and the second mistake of a pair. */
export type Candidate = [code: DoctorCode, text: string, also?: DoctorCode[]];

/**
 * The candidate strings, lazily: every single mistake first (so a single mistake is always
 * named as itself), then every pair of `PAIRS`; duplicates and the server's own string
 * are left out, then (without hints) the timestamps near the one sent. Bounded: fixed lists,
 * times the `otherTimestamps` given.
 */
function* candidateStrings(req: DoctorRequest): Generator<Candidate> {
  const ctx: Ctx = { req, recoded: new Map() };
  const base = shapeOf(req);
  const server = render(base);
  const seen = new Set<string>([server]);
  // The shapes of each single mistake that change the string, kept for the pairs.
  const singles = new Map<DoctorCode, Shape[]>();
  for (const [code, t] of TRANSFORMATIONS) {
    const shapes: Shape[] = [];
    for (const s of t(base, ctx)) {
      const text = render(s);
      if (text === server) continue;
      shapes.push(s);
      if (!seen.has(text)) {
        seen.add(text);
        yield [code, text];
      }
    }
    singles.set(code, shapes);
  }
  for (const [a, b] of PAIRS) {
    const second = TRANSFORMATION.get(b);
    if (second === undefined) continue;
    for (const s1 of singles.get(a) ?? []) {
      for (const s2 of second(s1, ctx)) {
        const text = render(s2);
        if (!seen.has(text)) {
          seen.add(text);
          yield [a, text, [b]];
        }
      }
    }
  }
  // Last, a guess: without a hint, the timestamps near the one sent (bounded: 41 strings).
  if (req.otherTimestamps === undefined) {
    const sent = [...base.query, ...base.form].find((p) => p.startsWith('timestamp='))?.slice('timestamp='.length) ?? '';
    for (const ts of nearTimestamps(sent)) {
      const text = render({ ...base, query: replaceTimestamp(base.query, ts), form: replaceTimestamp(base.form, ts) });
      if (!seen.has(text)) {
        seen.add(text);
        yield ['OTHER_TIMESTAMP', text];
      }
    }
  }
}

/** How far apart a client's two readings of its clock are looked for, ms (OTHER_TIMESTAMP without a hint). */
export const NEAR_TIMESTAMP_MS = 20;

/** Timestamps a client may have signed instead of the one it sent: read again a few ms apart, or in seconds. */
function nearTimestamps(sent: string): string[] {
  if (!/^\d{13}$/.test(sent)) return [];
  const t = Number(sent);
  const out: string[] = [];
  for (let d = 1; d <= NEAR_TIMESTAMP_MS; d++) out.push(String(t - d), String(t + d));
  out.push(String(Math.floor(t / 1000)));
  return out;
}

/** The fixed candidate strings (§5.3), single mistakes first, then pairs (with `also`). */
export function candidates(req: DoctorRequest): Candidate[] {
  return [...candidateStrings(req)];
}

const EXCERPT = 16;

/** First differing index of two strings and marked excerpts, or undefined when equal. */
export function firstDifference(server: string, client: string): FirstDifference | undefined {
  let i = 0;
  while (i < server.length && i < client.length && server[i] === client[i]) i++;
  if (i === server.length && i === client.length) return undefined;
  const mark = (s: string): string => `${s.slice(Math.max(0, i - EXCERPT), i)}[>${s.slice(i, i + 1)}<]${s.slice(i + 1, i + 1 + EXCERPT)}`;
  return { index: i, server: mark(server), client: mark(client) };
}

function sentSignature(req: DoctorRequest): string | undefined {
  if (req.signature !== undefined) return req.signature;
  const all = [...parsePairs(req.query), ...(req.bodyKind === 'form' ? parsePairs(req.body) : [])];
  return all.find(([k]) => k === 'signature')?.[1];
}

/**
 * Diagnose a request: `null` when the signature is correct (a good request is never
 * diagnosed), otherwise the first candidate that matches (single mistakes before pairs),
 * or UNKNOWN. Never holds the secret.
 */
export function diagnose(req: DoctorRequest, secret: string, hmac: HmacHex): Diagnosis | null {
  const q = withoutSignature(req.query);
  const serverSigned = q + signedBody(req.body, req.bodyKind);
  const sig = (sentSignature(req) ?? '').toLowerCase();
  if (sig !== '' && hmac(secret, serverSigned) === sig) return null;
  for (const [code, s, also] of candidateStrings(req)) {
    if (hmac(secret, s) === sig) {
      const d: Diagnosis =
        also === undefined
          ? { code, sentence: DOCTOR_SENTENCES[code], serverSigned, clientSigned: s }
          : { code, also, sentence: [code, ...also].map((c, i) => (i === 0 ? '' : 'Also: ') + DOCTOR_SENTENCES[c]).join(' '), serverSigned, clientSigned: s };
      const fd = firstDifference(serverSigned, s);
      if (fd !== undefined) d.firstDifference = fd;
      return d;
    }
  }
  return { code: 'UNKNOWN', sentence: DOCTOR_SENTENCES.UNKNOWN, serverSigned };
}

/** HMAC-SHA256 hex computed asynchronously (e.g. Web Crypto in a browser). */
export type HmacAsync = HmacHexAsync;

/**
 * `diagnose` with an asynchronous HMAC: the bounded set of strings (server's string and
 * every candidate) is signed first, then the same search runs over those results.
 */
export async function diagnoseAsync(req: DoctorRequest, secret: string, hmac: HmacHexAsync): Promise<Diagnosis | null> {
  const messages = [withoutSignature(req.query) + signedBody(req.body, req.bodyKind), ...candidates(req).map(([, s]) => s)];
  const macs = new Map<string, string>();
  await Promise.all(messages.map(async (m) => macs.set(m, await hmac(secret, m))));
  return diagnose(req, secret, (_s, m) => macs.get(m) ?? '');
}
