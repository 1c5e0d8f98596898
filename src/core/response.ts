/**
 * The one response classifier, used by the client and the runner alike. A rejection
 * is observable, not guessed (design notes; D-ERROR-SHAPE): HTTP 4xx, or HTTP 2xx with
 * a non-zero top-level `code` (§7 item 1: `0` is success). How a `code` that is not a
 * JSON integer is read is D-CODE-READING in spec/decisions.md.
 */

import { parseJsonLossless } from './json.js';

/**
 * What an answer means. `rate-limited`: HTTP 429, or 503 with Retry-After: no verdict on
 * any rule, only a reason to wait and resend. `not-sent`: the runner held the
 * request back (a route the target does not offer, a spent order budget).
 */
export type Verdict =
  | 'accepted'
  | 'rejected'
  | 'server-error'
  | 'bad-response'
  | 'no-answer'
  | 'rate-limited'
  | 'not-sent';

/** The parts of an HTTP answer the classifier reads (a `RawResponse` has them). */
export interface ResponseLike {
  status: number;
  /** Parsed JSON body, undefined when the body is not JSON. */
  json?: unknown;
  /** Body text. */
  text: string;
  elapsedMs?: number;
  /** Response headers, lower-case names (Retry-After is read). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Set when the body was longer than the reader's cap and reading stopped there. */
  truncated?: BodyCut;
  /** Set when the body's Content-Encoding could not be decoded: why. */
  undecodable?: string;
}

/** A response body cut at the reader's cap: what was kept and what the server announced. */
export interface BodyCut {
  /** Bytes kept (the cap). */
  keptBytes: number;
  /** Bytes received before reading stopped (at least one more than kept). */
  receivedBytes: number;
  /** The Content-Length the server announced, when it sent one. */
  declaredBytes?: number;
}

/** A classified answer. */
export interface Observation {
  verdict: Verdict;
  status?: number;
  /** Top-level `code` when the body is a JSON object that has one. */
  code?: unknown;
  msg?: unknown;
  json?: unknown;
  text?: string;
  /** For `no-answer`: timeout or network error text. */
  error?: string;
  /** For `no-answer`: whether the target stayed silent (timeout) or the connection failed. */
  errorCode?: 'ERR_TIMEOUT' | 'ERR_NETWORK';
  /** For `no-answer`: when the request was given up (epoch ms): a target silent since before then answered nothing after it. */
  endedAt?: number;
  elapsedMs?: number;
  /** The body was longer than the reader's cap: it was cut and the connection dropped; a cut 2xx is never `accepted`. */
  truncated?: BodyCut;
  /** The body's Content-Encoding could not be decoded (why): the answer is unreadable, never a refusal. */
  undecodable?: string;
}

/** A JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The numeric value of a top-level `code` (D-CODE-READING): a JSON number, or a string
 * holding a JSON number (`"0"`, `"-1022"`, `"0.0"`), read by value; anything else (`""`,
 * `null`, `true`, text) is no code at all and gives `undefined`.
 */
export function codeValue(code: unknown): number | undefined {
  if (typeof code === 'number') return Number.isFinite(code) ? code : undefined;
  if (typeof code === 'string' && NUMBER_TEXT.test(code)) return Number(code);
  return undefined;
}

/**
 * Classify one answer: 5xx `server-error`; 4xx `rejected`; 2xx with a JSON object body
 * `accepted` when `code` is absent or zero, `rejected` when it is non-zero, and
 * `bad-response` when `code` is present but unreadable (D-CODE-READING); anything else
 * (a 2xx that is not a JSON object, 1xx, 3xx) `bad-response`.
 */
export function classify(res: ResponseLike): Observation {
  const json = lossless(res);
  const base: Observation = { verdict: 'bad-response', status: res.status, json, text: res.text };
  if (res.elapsedMs !== undefined) base.elapsedMs = res.elapsedMs;
  if (res.truncated !== undefined) base.truncated = res.truncated;
  if (res.undecodable !== undefined) base.undecodable = res.undecodable;
  if (isRecord(json)) {
    base.code = json.code;
    base.msg = json.msg;
  }
  return {
    ...base,
    verdict: answerVerdict(res.status, res.headers?.['retry-after'] !== undefined, json, res.truncated !== undefined),
  };
}

/**
 * The verdict of an answer from its HTTP status, whether it carried Retry-After, and its JSON
 * body (§7, D-CODE-READING): the one classifier of `run` and `load`. 429, or 503 with
 * Retry-After, is rate limiting; any other 5xx a server error; 4xx a rejection; 2xx accepted
 * when `code` is absent or zero, rejected when non-zero, a bad response when it is unreadable,
 * the body no JSON object or cut short; anything else a bad response.
 */
export function answerVerdict(status: number, retryAfter: boolean, json: unknown, truncated = false): Verdict {
  if (status === 429 || (status === 503 && retryAfter)) return 'rate-limited';
  if (status >= 500) return 'server-error';
  if (status >= 400) return 'rejected';
  if (status < 200 || status >= 300 || !isRecord(json) || truncated) return 'bad-response';
  if (!Object.hasOwn(json, 'code')) return 'accepted';
  const value = codeValue(json.code);
  if (value === undefined) return 'bad-response';
  return value === 0 ? 'accepted' : 'rejected';
}

/** The body read again without rounding 64-bit integers, so LONG ids sent as JSON numbers stay distinct (design notes, "Numbers on the wire"). */
function lossless(res: ResponseLike): unknown {
  if (res.json === undefined) return undefined;
  try {
    return parseJsonLossless(res.text);
  } catch {
    return res.json;
  }
}

/** Short human description of an observation, for Expected/Actual lines. */
export function describe(o: Observation): string {
  if (o.verdict === 'no-answer') return `no answer (${o.error ?? 'unknown error'})`;
  if (o.verdict === 'not-sent') return `not sent: ${o.error ?? 'unknown reason'}`;
  if (o.verdict === 'rate-limited')
    return `rate limited: HTTP ${o.status ?? '?'} ${(o.text ?? '').slice(0, 120)}`.trim();
  if (o.undecodable !== undefined)
    return `HTTP ${o.status ?? '?'} with a body that could not be read (${o.undecodable})`;
  const body = o.text === undefined ? '' : o.text.length > 160 ? `${o.text.slice(0, 160)}…` : o.text;
  // a 2xx that is not a JSON object answer: unreadable, never a refusal
  const unreadable =
    o.verdict === 'bad-response' && o.status !== undefined && o.status >= 200 && o.status < 300
      ? ' (a 2xx answer that is not a readable JSON object)'
      : '';
  return `HTTP ${o.status ?? '?'} ${body}${unreadable}`.trim();
}

/** The top-level `result` array of a batch response body (§2.2), when there is one. */
export function entriesOf(json: unknown): unknown[] | undefined {
  return isRecord(json) && Array.isArray(json.result) ? json.result : undefined;
}

/** Whether a batch `result` entry reports a placed order: by its code, 0 (§2.2, §7 item 2); a failed entry may still echo an `order`. */
export function entryPlaced(e: unknown): boolean {
  return isRecord(e) && codeValue(e.code) === 0;
}

/** Whether a batch `result` entry reports a failed order: it carries a code, and that code does not read as 0 ({@link entryPlaced}; `"0"` is placed). */
export function entryFailed(e: unknown): boolean {
  return isRecord(e) && e.code !== undefined && !entryPlaced(e);
}

/**
 * Whether an answer shows an order placed: accepted, and for a batch a placed entry (by its
 * code, §7 item 2); an accepted answer with no `result` is a single order's. A batch answered
 * 200 whose every entry failed placed nothing.
 */
export function showsPlaced(o: Observation): boolean {
  if (o.verdict !== 'accepted') return false;
  const e = entriesOf(o.json);
  return e === undefined ? !isRecord(o.json) || !('result' in o.json) : e.some(entryPlaced);
}

/** The `result` entries of an observed batch answer. */
export function resultEntries(o: Observation): unknown[] | undefined {
  return entriesOf(o.json);
}
