/**
 * Reading a response the way the design notes define it: a rejection is HTTP 4xx,
 * or HTTP 200 with a non-zero top-level `code` (both styles exist in the wild).
 */
import type { RawResponse } from '../src/client/http.js';

export type Verdict = 'accepted' | 'rejected' | 'server-error' | 'bad-response' | 'no-answer';

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

/** Classify one response. */
export function classify(res: RawResponse): Observation {
  const base: Observation = { verdict: 'bad-response', status: res.status, json: res.json, text: res.text, elapsedMs: res.elapsedMs };
  if (isRecord(res.json)) {
    base.code = res.json.code;
    base.msg = res.json.msg;
  }
  if (res.status >= 500) return { ...base, verdict: 'server-error' };
  if (res.status >= 400) return { ...base, verdict: 'rejected' };
  if (res.status >= 200 && res.status < 300) {
    if (!isRecord(res.json)) return base;
    const code = res.json.code;
    if (code !== undefined && code !== 0 && code !== '0') return { ...base, verdict: 'rejected' };
    return { ...base, verdict: 'accepted' };
  }
  return base;
}

/** Short human description of an observation, for Expected/Actual lines. */
export function describe(o: Observation): string {
  if (o.verdict === 'no-answer') return `no answer (${o.error ?? 'unknown error'})`;
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
