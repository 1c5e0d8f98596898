/**
 * The grading front: an HTTP server that records every request byte for byte, grades the
 * signed ones (./session.ts), plays a scenario's cue when asked, and forwards everything
 * else unchanged to the server behind it: the embedded reference server (on the session's
 * clock) or the user's own (`--upstream`). Loopback by default.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpotcheckError } from '../../src/core/errors.js';
import { endpointAt, SEED_WIRE, type WireProfile } from '../../src/core/wire.js';
import { sendRaw } from '../../src/client/http.js';
import { closeGracefully, startServer, type RunningServer } from '../../src/server/server.js';
import type { RecordedRequest } from './rules.js';
import { GradeSession, placedBy, type Answer, type GradedRequest } from './session.js';

/** Largest body the front reads, bytes (the reference server's own limit is 64 KiB, D-BODY-LIMIT). */
const MAX_BODY = 1024 * 1024;
/** Headers that belong to one connection, not to the request (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'expect',
  'upgrade',
]);
/** Response headers the front rewrites itself. */
const REWRITTEN = new Set([...HOP_BY_HOP, 'content-encoding']);

/** Options of {@link startGrade}. */
export interface GradeOptions {
  port?: number;
  host?: string;
  apiKey: string;
  secret: string;
  /** The user's server; undefined: the embedded reference server. */
  upstream?: string;
  /** The largest recvWindow the target declares, ms (CLIENT-RECVWINDOW). */
  recvWindowCap?: number;
  /** The wire graded and served (API-key header name, endpoint paths; a target description): default the seed's. */
  wire?: WireProfile;
  /** The embedded reference server explains signature rejections (`serve --explain`); default off. */
  explain?: boolean;
  /** How long the slow-answer scenario holds its answer when the client stays, ms (default 30 s). */
  holdMs?: number;
  /** Each graded request, as it is graded (the console's live line). */
  onGraded?: (g: GradedRequest) => void;
}

/** A running grading front. */
export interface RunningGrade {
  url: string;
  port: number;
  /** Where requests are forwarded. */
  upstream: string;
  session: GradeSession;
  /** Requests to paths that are not the wire's endpoints (forwarded, not graded). */
  ungraded: () => number;
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The body as text, or why there is none to grade: past {@link MAX_BODY}, or the client went away mid-body. */
function readBody(req: IncomingMessage): Promise<string | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? 'too-large' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve('aborted'));
    req.on('aborted', () => resolve('aborted'));
  });
}

function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.sendDate = false;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

const codeOf = (json: unknown): number | undefined => {
  const c = typeof json === 'object' && json !== null ? (json as { code?: unknown }).code : undefined;
  return typeof c === 'number' ? c : typeof c === 'string' && /^-?\d+$/.test(c) ? Number(c) : undefined;
};

/** Start the front (and, without `upstream`, the embedded reference server behind it). */
export async function startGrade(opts: GradeOptions): Promise<RunningGrade> {
  const wire = opts.wire ?? SEED_WIRE;
  const session = new GradeSession({
    apiKey: opts.apiKey,
    secret: opts.secret,
    wire,
    ...(opts.recvWindowCap !== undefined ? { recvWindowCap: opts.recvWindowCap } : {}),
  });
  const holdMs = opts.holdMs ?? 30_000;
  let embedded: RunningServer | undefined;
  if (opts.upstream === undefined)
    embedded = await startServer({
      credentials: [{ apiKey: opts.apiKey, secret: opts.secret, permissions: ['TRADE', 'USER_DATA'] }],
      clock: session.clock,
      wire,
      ...(opts.explain === true ? { explain: true } : {}),
    });
  const upstream = opts.upstream ?? (embedded as RunningServer).url;
  let seq = 0;
  let ungraded = 0;

  const forward = async (r: RecordedRequest, res: ServerResponse): Promise<Answer> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
    try {
      const up = await sendRaw(
        upstream,
        { method: r.method, path: r.path, query: r.query, body: r.body, headers },
        { timeoutMs: 30_000 },
      );
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(up.headers))
        if (v !== undefined && !REWRITTEN.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
      if (res.headersSent || res.destroyed) return { status: up.status, by: 'server', placed: [], clientClosed: true };
      res.sendDate = false;
      res.writeHead(up.status, { ...out, 'content-length': Buffer.byteLength(up.text) });
      res.end(up.text);
      const code = codeOf(up.json);
      return {
        status: up.status,
        by: 'server',
        placed: placedBy(up.status, up.json),
        ...(code !== undefined ? { code } : {}),
      };
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      writeJson(
        res,
        502,
        { code: -1000, msg: `spotcheck grade: the server behind the front did not answer: ${msg}` },
        {},
      );
      return { status: 502, by: 'server', placed: [] };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const query = q === -1 ? '' : target.slice(q + 1);
    const body = await readBody(req);
    if (body === 'aborted') return;
    if (body === 'too-large') {
      writeJson(res, 413, { code: -1000, msg: `The body is larger than ${MAX_BODY} bytes` }, {});
      return;
    }
    const r: RecordedRequest = {
      seq: 0,
      receivedAt: session.clock(),
      method: req.method ?? 'GET',
      path,
      query,
      body,
      headers: headersOf(req),
    };
    if (endpointAt(path, wire) === undefined) {
      ungraded++;
      await forward(r, res);
      return;
    }
    r.seq = ++seq;
    const { graded, plan } = session.receive(r);
    opts.onGraded?.(graded);
    let answer: Answer;
    if (plan.kind === 'answer') {
      writeJson(res, plan.status, plan.body, { date: httpDate(session.clock()), ...plan.headers });
      answer = { status: plan.status, by: 'scenario', placed: plan.placed ?? [] };
      const code = codeOf(plan.body);
      if (code !== undefined) answer.code = code;
    } else if (plan.kind === 'hold') {
      const t0 = Date.now();
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), holdMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      const heldMs = Date.now() - t0;
      if (closed) answer = { by: 'scenario', placed: [], heldMs, clientClosed: true };
      else {
        writeJson(
          res,
          503,
          { code: -1000, msg: `No answer within ${holdMs} ms (scenario slow-answer); nothing was placed` },
          { date: httpDate(session.clock()) },
        );
        answer = { status: 503, code: -1000, by: 'scenario', placed: [], heldMs };
      }
    } else answer = await forward(r, res);
    session.answered(r.seq, answer);
  };

  const server = createServer({ requireHostHeader: false }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) writeJson(res, 500, { code: -1000, msg: 'spotcheck grade: internal error' }, {});
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: Error & { code?: string }) =>
      reject(
        new SpotcheckError(
          'ERR_SERVER_START',
          `could not listen on ${host}:${opts.port ?? 0}: ${err.code ?? err.message}`,
          {
            code: err.code,
          },
        ),
      ),
    );
    server.listen({ port: opts.port ?? 0, host }, () => resolve());
  }).catch(async (err: unknown) => {
    await embedded?.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    upstream,
    session,
    ungraded: () => ungraded,
    close: () =>
      (closing ??= (async () => {
        await closeGracefully(server);
        await embedded?.close();
      })()),
  };
}
