/**
 * One raw HTTP exchange over undici: send exactly the bytes given, report exactly
 * what came back. Never throws for an HTTP status; network faults and timeouts
 * become typed errors (`ERR_NETWORK`, `ERR_TIMEOUT`).
 */
import { subscribe } from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { SpotcheckError } from '../core/errors.js';
import type { WireRequest } from '../core/request.js';
import type { BodyCut } from '../core/response.js';

/** One request exactly as it goes on the wire (the core builder's {@link WireRequest}), optionally sent chunked. */
export interface RawRequest extends WireRequest {
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length (a freedom HTTP/1.1 grants a client). */
  chunked?: boolean;
}

/** What came back, whatever the status. */
export interface RawResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** Body text as received (cut at `maxBodyBytes`). */
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  /** Wall time from send to the last body byte, ms. */
  elapsedMs: number;
  /** Epoch ms when the request was sent and when the answer was complete (for clock estimation). */
  sentAt: number;
  /** Epoch ms when the answer was complete. */
  receivedAt: number;
  /** Set when the body was longer than `maxBodyBytes`: reading stopped at the cap and the connection was dropped. */
  truncated?: BodyCut;
  /** Set when the body's Content-Encoding could not be decoded (RFC 9110 §8.4): why; `text` is then empty. */
  undecodable?: string;
  /** The HTTP version that carried the exchange: `h2` (negotiated by TLS ALPN) or `http/1.1`. */
  protocol?: HttpProtocol;
}

/** HTTP versions an exchange can go over. */
export type HttpProtocol = 'http/1.1' | 'h2';

/**
 * Rides along one request as undici's `opaque`: the protocol of the connection its headers
 * went out on, read from undici's `undici:client:sendHeaders` diagnostics channel (which
 * names the request and the socket; a TLS socket says what ALPN chose).
 */
class ProtocolTrace {
  protocol?: HttpProtocol;
}

let tracing = false;
/** Subscribe once to undici's sendHeaders channel; it marks each traced request with its protocol. */
function traceProtocols(): void {
  if (tracing) return;
  tracing = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket?: { alpnProtocol?: string | false | null } };
    // undici keeps a request's handler (for request(): the one holding `opaque`) under Symbol('handler')
    const key = Object.getOwnPropertySymbols(request).find((s) => s.description === 'handler');
    const handler = key === undefined ? undefined : (request as Record<symbol, { opaque?: unknown } | undefined>)[key];
    if (handler?.opaque instanceof ProtocolTrace)
      handler.opaque.protocol = socket?.alpnProtocol === 'h2' ? 'h2' : 'http/1.1';
  });
}

/** What the kit tells a server it can read (RFC 9110 §12.5.3): every coding it decodes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The request's headers with `Accept-Encoding` added unless the request sets one itself. */
function withAcceptEncoding(headers: Record<string, string>): Record<string, string> {
  return Object.keys(headers).some((k) => k.toLowerCase() === 'accept-encoding')
    ? headers
    : { ...headers, 'accept-encoding': ACCEPT_ENCODING };
}

/**
 * Undo the Content-Encoding of a body (RFC 9110 §8.4: codings listed in the order applied,
 * undone last first): gzip, deflate (zlib or raw), br, identity. The decoded text is held
 * to `max` bytes like the raw one.
 */
export function decodeBody(
  raw: Buffer,
  contentEncoding: string | string[] | undefined,
  max: number,
): { bytes: Buffer } | { error: string } | { tooLarge: true } {
  const value = Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '');
  const codings = value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let bytes = raw;
  const opts = { maxOutputLength: Math.max(1, max) };
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes, opts);
      else if (coding === 'br') bytes = brotliDecompressSync(bytes, opts);
      else if (coding === 'deflate') {
        // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send raw deflate
        try {
          bytes = inflateSync(bytes, opts);
        } catch (err) {
          if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw err;
          bytes = inflateRawSync(bytes, opts);
        }
      } else
        return { error: `Content-Encoding ${coding} is not one the kit can read (it asked for ${ACCEPT_ENCODING})` };
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { tooLarge: true };
      return { error: `the ${coding} body could not be decoded: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  return { bytes };
}

/** Options of `sendRaw`. */
export interface SendOptions {
  /** undici dispatcher (pool, agent, mock); default the global one. */
  dispatcher?: Dispatcher;
  /**
   * Deadline for the whole exchange, ms (default 10000): headers AND the last body
   * byte must arrive within it, so a server trickling one byte a second still ends.
   */
  timeoutMs?: number;
  /** Largest body read, bytes (default 1 MiB): past it reading stops and the connection is dropped (`truncated`). */
  maxBodyBytes?: number;
  /** Abort the exchange (the caller gave up on it): it ends with `ERR_NETWORK`, details code `CANCELLED`. */
  signal?: AbortSignal;
}

/** Join a base URL and a path + raw query without re-encoding anything. */
export function requestUrl(baseUrl: string, path: string, query: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${path}${query === '' ? '' : `?${query}`}`;
}

/** Send one request; resolve with what came back whatever the status, within `timeoutMs` in total. */
export async function sendRaw(baseUrl: string, req: RawRequest, opts: SendOptions = {}): Promise<RawResponse> {
  const timeoutMs = opts.timeoutMs ?? 10000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const url = requestUrl(baseUrl, req.path, req.query);
  traceProtocols();
  const trace = new ProtocolTrace();
  const sentAt = Date.now();
  const t0 = performance.now();
  // undici's headersTimeout/bodyTimeout bound only the wait for headers and the gaps between chunks; this bounds the whole exchange
  // (an EventEmitter is a signal undici takes: its 'abort' event aborts the request, and it costs a
  // fraction of an AbortController's signal, made for every request)
  const deadline = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.emit('abort');
  }, timeoutMs);
  let cancelled = false;
  if (opts.signal?.aborted === true) {
    clearTimeout(timer);
    throw new SpotcheckError('ERR_NETWORK', `cancelled: ${req.method} ${req.path} to ${baseUrl} was given up`, {
      code: 'CANCELLED',
    });
  }
  const onCancel = (): void => {
    cancelled = true;
    deadline.emit('abort');
  };
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  // Settled by the deadline even when the dispatcher never settles the request (an HTTP/2
  // session undici left broken ignores the abort): the run goes on, the exchange timed out.
  const cut = new Promise<never>((_, reject) => deadline.once('abort', () => reject(new Error('deadline'))));
  cut.catch(() => undefined); // a deadline past the race (while the body is read) is handled below, not here
  try {
    const sent = request(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: withAcceptEncoding(req.headers),
      ...(req.body === '' && req.method === 'GET'
        ? {}
        : { body: req.chunked ? Readable.from([Buffer.from(req.body, 'utf8')]) : req.body }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: deadline,
      opaque: trace,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
    sent.catch(() => undefined); // settled later, if ever, once the race below is decided
    const res = await Promise.race([sent, cut]);
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated: BodyCut | undefined;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      if (size + b.length > maxBody) {
        chunks.push(b.subarray(0, maxBody - size));
        const declared = Number(res.headers['content-length']);
        truncated = {
          keptBytes: maxBody,
          receivedBytes: size + b.length,
          ...(Number.isSafeInteger(declared) ? { declaredBytes: declared } : {}),
        };
        size = maxBody;
        break; // leaving the loop destroys the body: undici drops the connection instead of reading the rest
      }
      chunks.push(b);
      size += b.length;
    }
    let raw: Buffer = Buffer.concat(chunks);
    let undecodable: string | undefined;
    if (truncated === undefined && res.headers['content-encoding'] !== undefined) {
      const decoded = decodeBody(raw, res.headers['content-encoding'], maxBody);
      if ('bytes' in decoded) raw = decoded.bytes;
      else if ('error' in decoded) {
        undecodable = decoded.error;
        raw = Buffer.alloc(0);
      } else {
        truncated = { keptBytes: maxBody, receivedBytes: maxBody + 1 };
        raw = Buffer.alloc(0);
      }
    }
    const text = raw.toString('utf8');
    let json: unknown;
    try {
      json = text === '' || truncated !== undefined ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      json,
      elapsedMs: performance.now() - t0,
      sentAt,
      receivedAt: Date.now(),
      ...(truncated ? { truncated } : {}),
      ...(undecodable === undefined ? {} : { undecodable }),
      ...(trace.protocol === undefined ? {} : { protocol: trace.protocol }),
    };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (cancelled)
      throw new SpotcheckError(
        'ERR_NETWORK',
        `cancelled: ${req.method} ${req.path} to ${baseUrl} was given up`,
        { code: 'CANCELLED' },
        { cause: err },
      );
    if (timedOut || code.includes('TIMEOUT')) {
      throw new SpotcheckError(
        'ERR_TIMEOUT',
        `no complete answer from ${baseUrl} within ${timeoutMs} ms (${req.method} ${req.path})`,
        { code: code || 'DEADLINE' },
        { cause: err },
      );
    }
    const msg = err instanceof Error ? err.message : String(err);
    throw new SpotcheckError(
      'ERR_NETWORK',
      `could not reach ${baseUrl} (${req.method} ${req.path}): ${code || msg}`,
      { code },
      { cause: err },
    );
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
  }
}
