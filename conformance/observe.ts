/**
 * Reading a response the way the design notes define it: a rejection is HTTP 4xx,
 * or HTTP 200 with a non-zero top-level `code` (both styles exist in the wild).
 */
import type { RawResponse } from '../src/client/http.js';
import { parseJsonLossless } from '../src/core/json.js';

/** `rate-limited`: HTTP 429, or 503 with Retry-After: no verdict on any rule (issue 9), only a reason to wait and resend. */
export type Verdict = 'accepted' | 'rejected' | 'server-error' | 'bad-response' | 'no-answer' | 'rate-limited' | 'not-sent';

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
  elapsedMs?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body read again without rounding 64-bit integers (LONG ids as JSON numbers stay distinct). */
function losslessJson(res: RawResponse): unknown {
  if (res.json === undefined) return undefined;
  try {
    return parseJsonLossless(res.text);
  } catch {
    return res.json;
  }
}

/** Classify one response. */
export function classify(res: RawResponse): Observation {
  const base: Observation = { verdict: 'bad-response', status: res.status, json: losslessJson(res), text: res.text, elapsedMs: res.elapsedMs };
  if (isRecord(base.json)) {
    base.code = base.json.code;
    base.msg = base.json.msg;
  }
  if (res.status === 429 || (res.status === 503 && res.headers['retry-after'] !== undefined)) return { ...base, verdict: 'rate-limited' };
  if (res.status >= 500) return { ...base, verdict: 'server-error' };
  if (res.status >= 400) return { ...base, verdict: 'rejected' };
  if (res.status >= 200 && res.status < 300) {
    if (!isRecord(base.json)) return base;
    const code = base.json.code;
    if (code !== undefined && code !== 0 && code !== '0') return { ...base, verdict: 'rejected' };
    return { ...base, verdict: 'accepted' };
  }
  return base;
}

/** Short human description of an observation, for Expected/Actual lines. */
export function describe(o: Observation): string {
  if (o.verdict === 'no-answer') return `no answer (${o.error ?? 'unknown error'})`;
  if (o.verdict === 'not-sent') return `not sent: ${o.error ?? 'unknown reason'}`;
  if (o.verdict === 'rate-limited') return `rate limited: HTTP ${o.status ?? '?'} ${(o.text ?? '').slice(0, 120)}`.trim();
  const body = o.text === undefined ? '' : o.text.length > 160 ? `${o.text.slice(0, 160)}…` : o.text;
  return `HTTP ${o.status ?? '?'} ${body}`.trim();
}

/** The top-level `result` array of a batch response body (§2.2), when there is one. */
export function entriesOf(json: unknown): unknown[] | undefined {
  return isRecord(json) && Array.isArray(json.result) ? json.result : undefined;
}

/** The `result` entries of an observed batch answer. */
export function resultEntries(o: Observation): unknown[] | undefined {
  return entriesOf(o.json);
}

export { isRecord };
