/**
 * The signature doctor (§5.3): given a request the server rejected and the secret, try a
 * fixed, bounded set of known client mistakes and name the one whose string signs to the
 * signature that was sent. Browser-safe: no node imports; HMAC is injected.
 *
 * Detectable: the mistakes below, each one transformation of what the server received.
 * Not detectable: a wrong secret, a timestamp value the client used but never sent
 * (unless the caller passes it in `otherTimestamps`), several mistakes combined -> UNKNOWN.
 */
import { withoutSignature, rawPairs, parsePairs, encodeComponent } from '../signing/query.js';
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

/** Why a signature did not verify (never holds the secret). */
export interface Diagnosis {
  /** Stable code of the mistake, `UNKNOWN` when no candidate matches. */
  code: DoctorCode;
  /** One sentence for people, citing the seed. */
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

function joinPairs(pairs: ReadonlyArray<readonly [string, string]>, enc: (s: string) => string): string {
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

const BROWSER_ENC = (s: string): string => encodeURIComponent(s);
const WIDE_ENC = (s: string): string => encodeComponent(s).replace(/[/:]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function sortedRaw(raw: string): string {
  return [...rawPairs(raw)].sort((a, b) => {
    const ka = a.split('=')[0] ?? '';
    const kb = b.split('=')[0] ?? '';
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  }).join('&');
}

function replaceTimestamp(raw: string, value: string): string {
  return rawPairs(raw).map((p) => (p.startsWith('timestamp=') ? `timestamp=${value}` : p)).join('&');
}

/** The fixed candidate strings, each with the code of the mistake it stands for (bounded: at most ~12 + timestamps). */
export function candidates(req: DoctorRequest): Array<[DoctorCode, string]> {
  const q = withoutSignature(req.query);
  const b = signedBody(req.body, req.bodyKind);
  const out: Array<[DoctorCode, string]> = [];
  const add = (code: DoctorCode, s: string): void => {
    if (!out.some(([, t]) => t === s)) out.push([code, s]);
  };
  if (b !== '') add('BODY_NOT_SIGNED', q);
  if (q !== '' && b !== '') add('QUERY_NOT_SIGNED', b);
  if (q !== '' && b !== '') add('SEPARATOR_INSERTED', `${q}&${b}`);
  if (req.query !== q || (req.bodyKind === 'form' && req.body !== b)) {
    // The client cannot have signed its own signature: it signed an empty placeholder pair.
    const blank = (raw: string): string => rawPairs(raw).map((p) => (p.startsWith('signature=') ? 'signature=' : p)).join('&');
    add('SIGNATURE_PARAM_SIGNED', blank(req.query) + (req.bodyKind === 'form' ? blank(req.body) : req.body));
  }
  const form = req.bodyKind === 'form' ? [q, b].filter((s) => s !== '').join('&') : q;
  const tail = req.bodyKind === 'json' ? b : '';
  if (form !== '') {
    add('PARAMS_REORDERED', (req.bodyKind === 'form' ? sortedRaw(q) + sortedRaw(b) : sortedRaw(q)) + tail);
    add('PARAMS_REORDERED', sortedRaw(form) + tail);
    if (req.bodyKind === 'form' && q !== '' && b !== '') add('PARAMS_REORDERED', b + q);
    // Re-encode query and form body each on its own, so the join stays as sent (one mistake at a time).
    const parts = req.bodyKind === 'form' ? [q, b] : [q];
    const recode = (enc: (s: string) => string): string => parts.map((part) => joinPairs(parsePairs(part), enc)).join('') + tail;
    add('SIGNED_BEFORE_ENCODING', recode((s) => s));
    add('ENCODING_MISMATCH', recode(BROWSER_ENC));
    add('ENCODING_MISMATCH', recode(WIDE_ENC));
  }
  if (req.bodyKind === 'json') {
    try {
      const v: unknown = JSON.parse(req.body);
      add('JSON_RESERIALISED', q + JSON.stringify(v));
      add('JSON_RESERIALISED', q + JSON.stringify(v, null, 2));
    } catch {
      /* not JSON: nothing to re-serialise */
    }
  }
  for (const ts of req.otherTimestamps ?? []) add('OTHER_TIMESTAMP', replaceTimestamp(q, ts) + (req.bodyKind === 'form' ? replaceTimestamp(b, ts) : b));
  return out;
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
 * diagnosed), otherwise the first candidate that matches, or UNKNOWN. Never holds the secret.
 */
export function diagnose(req: DoctorRequest, secret: string, hmac: HmacHex): Diagnosis | null {
  const q = withoutSignature(req.query);
  const serverSigned = q + signedBody(req.body, req.bodyKind);
  const sig = (sentSignature(req) ?? '').toLowerCase();
  if (sig !== '' && hmac(secret, serverSigned) === sig) return null;
  for (const [code, s] of candidates(req)) {
    if (s !== serverSigned && hmac(secret, s) === sig) {
      const d: Diagnosis = { code, sentence: DOCTOR_SENTENCES[code], serverSigned, clientSigned: s };
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
