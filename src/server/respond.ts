/**
 * Writing responses: the error style (D-ERROR-SHAPE), the policy's last word, JSON
 * encoding, and a `Date` header from the injected clock.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Clock } from '../core/time.js';
import type { Rejection } from '../core/codes.js';
import type { Endpoint, OutgoingResponse, ServerPolicy } from './policy.js';

/**
 * How rejections are written: `http-status` (default, D-ERROR-SHAPE) answers the
 * rejection's 4xx; `code-only` answers HTTP 200 with the same `{code, msg}` body
 * (the other style the core profile accepts).
 */
export type ErrorStyle = 'http-status' | 'code-only';

/** A response decided by a handler, before styling and finalizing. */
export interface Reply {
  /** HTTP status under the `http-status` style. */
  status: number;
  /** JSON body. */
  body: unknown;
  /** Set when the whole call was refused. */
  rejection?: Rejection;
  /** Extra headers (e.g. `Allow`). */
  headers?: Record<string, string>;
}

/** The reply refusing a whole call: `{code, msg}` under the rejection's status. */
export function rejectionReply(r: Rejection, headers?: Record<string, string>): Reply {
  const body =
    r.diagnosis === undefined ? { code: r.code, msg: r.msg } : { code: r.code, msg: r.msg, diagnosis: r.diagnosis };
  return { status: r.status, body, rejection: r, ...(headers ? { headers } : {}) };
}

/** What writing needs to know. */
export interface RespondDeps {
  /** Supplies `finalizeResponse`. */
  policy: ServerPolicy;
  /** How rejections are written. */
  errorStyle: ErrorStyle;
  /** Source of the `Date` header. */
  clock: Clock;
}

/** Apply the error style, then the policy's `finalizeResponse`; a string body stays raw text. */
export function finalReply(
  reply: Reply,
  endpoint: Endpoint,
  deps: RespondDeps,
): { out: OutgoingResponse; payload: string } {
  const styled: OutgoingResponse = {
    status: deps.errorStyle === 'code-only' && reply.rejection !== undefined ? 200 : reply.status,
    body: reply.body,
  };
  const out = deps.policy.finalizeResponse(
    styled,
    reply.rejection ? { endpoint, rejection: reply.rejection.kind } : { endpoint },
  );
  const payload = typeof out.body === 'string' ? out.body : (JSON.stringify(out.body) ?? '');
  return { out, payload };
}

let dateSecond = NaN;
let dateText = '';

/** The HTTP `Date` value for a clock reading, computed once per second. */
function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(ms).toUTCString();
  }
  return dateText;
}

/** Write a reply on a response that has not started yet. */
export function writeReply(res: ServerResponse, reply: Reply, endpoint: Endpoint, deps: RespondDeps): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const { out, payload } = finalReply(reply, endpoint, deps);
  res.sendDate = false;
  res.writeHead(out.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    date: httpDate(deps.clock()),
    ...reply.headers,
  });
  res.end(payload);
}

/** A complete raw HTTP/1.1 response ending its connection: for a socket whose request could not be parsed, or whose last answer is written past Node's response queue. */
export function rawReply(reply: Reply, deps: RespondDeps, endpoint: Endpoint = 'none'): string {
  const { out, payload } = finalReply(reply, endpoint, deps);
  const reason = STATUS_CODES[out.status] ?? 'Unknown';
  const extra = Object.entries(reply.headers ?? {})
    .filter(([k]) => !/^(content-type|content-length|date|connection)$/i.test(k))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${out.status} ${reason}\r\n` +
    `Content-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
    `Date: ${httpDate(deps.clock())}\r\n${extra}` +
    `Connection: close\r\n\r\n${payload}`
  );
}
