/**
 * The reference server: Node's own `http` server serving the three endpoints of
 * §4 with the library's signer, time window and validators.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SpotcheckError } from '../core/errors.js';
import { systemClock, type Clock } from '../core/time.js';
import { SEED_WIRE, type WireProfile } from '../core/wire.js';
import { endpointReply, tooLargeReply } from './answer.js';
import { DEFAULT_BODY_LIMIT, readBody } from './body.js';
import { ApiCode, reject } from '../core/codes.js';
import { checkCredentials, DEMO_CREDENTIALS } from './credentials.js';
import type { HandlerDeps, RequestInput } from './handler.js';
import { splitTarget } from './params.js';
import { resolvePolicy, type Credential, type Endpoint, type ServerPolicy } from './policy.js';
import { rawReply, rejectionReply, writeReply, type ErrorStyle, type Reply, type RespondDeps } from './respond.js';
import { route, routesOf, type Routes } from './router.js';
import { DEFAULT_STORE_CAPACITY, OrderStore, type OrderLog } from './store.js';

/** Default time a client has to send one whole request, ms. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** Options of `startServer`; every one has a default. */
export interface ServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1` (loopback). */
  host?: string;
  /** Accepted keys; default `DEMO_CREDENTIALS`. */
  credentials?: ReadonlyArray<Credential>;
  /** Server time source (§5.4); default the system clock. */
  clock?: Clock;
  /** How rejections are written (default `http-status`). */
  errorStyle?: ErrorStyle;
  /** The wire served: API-key header name, paths, each endpoint's permission (default the seed's, {@link SEED_WIRE}). */
  wire?: WireProfile;
  /** Rule seams to override (fault injection); production keeps the defaults. */
  policy?: Partial<ServerPolicy>;
  /** Largest body, bytes (default 64 KiB, D-BODY-LIMIT). */
  bodyLimit?: number;
  /** Orders kept in memory (default 10,000, D-ORDER-STORE). */
  storeCapacity?: number;
  /** Time a client has to send headers and body, ms (default 10 s). */
  requestTimeoutMs?: number;
  /**
   * Explain signature rejections (`serve --explain`): the rejection body carries the
   * signature doctor's `diagnosis` and `log` receives one JSON line per such rejection.
   * Default off: a production-like server explains nothing.
   */
  explain?: boolean;
  /** Where log lines go (one line each, no newline); default nowhere. Never given a secret. */
  log?: (line: string) => void;
  /**
   * Open connections served at once (default 1,000, D-CONNECTION-CAP). A request on a
   * connection beyond the cap gets 503 {code, msg} with Retry-After and the connection
   * is closed; past twice the cap new connections are dropped unread.
   */
  maxConnections?: number;
}

/** Default cap on open connections (D-CONNECTION-CAP). */
export const DEFAULT_MAX_CONNECTIONS = 1000;

/** Longest lingering close: how long a closing connection keeps draining the client's bytes so its answers are not reset away, ms. */
const CLOSE_GRACE_MS = 2000;

/** A started server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Interface listened on. */
  host: string;
  /** Port listened on (the chosen one when 0 was asked). */
  port: number;
  /** The orders placed so far. */
  orders: OrderLog;
  /** Stop accepting, let requests in flight finish (up to a second), then close every connection. */
  close(): Promise<void>;
}

interface Context extends HandlerDeps, RespondDeps {
  routes: Routes;
  bodyLimit: number;
  log: ((line: string) => void) | undefined;
  /** Sockets that got their last answer and are closing: they never get another (no late 408). */
  closing: WeakSet<Socket>;
  /** Sockets opened beyond the connection cap. */
  overCap: WeakSet<Socket>;
  /** Per connection: requests received whose answers are not yet written, and a final error answer waiting for them. */
  inFlight: WeakMap<Socket, InFlight>;
}

interface InFlight {
  pending: Set<IncomingMessage>;
  final?: string;
}

/** Whether a complete request of this connection still awaits its answer (an incomplete one is what failed). */
function awaitsAnswers(state: InFlight): boolean {
  for (const r of state.pending) if (r.complete) return true;
  return false;
}

/** Count a request as awaiting its answer on its connection until the response finishes or closes. */
function track(req: IncomingMessage, res: ServerResponse, ctx: Context): void {
  const socket = req.socket;
  let state = ctx.inFlight.get(socket);
  if (state === undefined) {
    state = { pending: new Set() };
    ctx.inFlight.set(socket, state);
  }
  const st = state;
  st.pending.add(req);
  const settle = (): void => {
    if (!st.pending.delete(req)) return;
    if (st.final !== undefined && !awaitsAnswers(st)) {
      const payload = st.final;
      delete st.final;
      sendFinal(socket, payload, ctx);
    }
  };
  res.once('finish', settle);
  res.once('close', settle);
}

/** The last answer of a connection, written after every answer before it, then a prompt close. */
function sendFinal(socket: Socket, payload: string, ctx: Context): void {
  try {
    if (socket.writable) socket.write(payload);
  } catch {
    // the client is gone; nothing to deliver
  }
  closeAfterReply(socket, ctx);
}

/**
 * End a connection after its last answer: send FIN at once, keep discarding what the
 * client still sends (closing with unread bytes would reset the connection and could
 * destroy the answer in flight), and destroy it after a short grace.
 */
function closeAfterReply(socket: Socket, ctx: Context): void {
  if (ctx.closing.has(socket) && socket.writableEnded) return;
  ctx.closing.add(socket);
  socket.resume();
  socket.end();
  // lingering close: done when the client closes its side, at the latest after the grace
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  socket.once('end', () => {
    clearTimeout(timer);
    socket.destroy();
  });
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Answer a request with a reply that ends the connection (413, 503 over the cap), after
 * every earlier pipelined answer. Written raw past Node's response queue: a response
 * marked `Connection: close` makes Node destroy the socket as soon as it is flushed, and
 * a socket destroyed with the client's bytes still unread is reset, which can wipe the
 * earlier answers from the client's receive buffer. The lingering close keeps them.
 */
function writeFinalReply(req: IncomingMessage, reply: Reply, endpoint: Endpoint, ctx: Context): void {
  // this request is answered here, not through its ServerResponse: it awaits nothing more
  ctx.inFlight.get(req.socket)?.pending.delete(req);
  finalAnswer(req.socket, rawReply(reply, ctx, endpoint), ctx);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (ctx.overCap.has(req.socket)) {
    const msg = 'Too many open connections; retry shortly (D-CONNECTION-CAP)';
    return writeFinalReply(
      req,
      rejectionReply(reject('overloaded', 503, ApiCode.REQUEST, msg), { 'retry-after': '1' }),
      'none',
      ctx,
    );
  }
  const { path, rawQuery } = splitTarget(req.url ?? '');
  const r = route(req.method, path, ctx.routes);
  if (!r.ok) return writeReply(res, r.reply, 'none', ctx);
  const body = await readBody(req, ctx.bodyLimit);
  if (body.kind === 'aborted') return;
  if (body.kind === 'too-large') {
    // one answer, then the connection ends: the rest of an oversized body is never read as a request
    return writeFinalReply(req, tooLargeReply(ctx.bodyLimit), r.endpoint, ctx);
  }
  // An order is placed only when its answer can still be delivered.
  if (res.destroyed || !req.socket.writable) return;
  const input: RequestInput = {
    rawQuery,
    body: body.text,
    contentType: header(req, 'content-type'),
    apiKeyHeader: header(req, ctx.wire.apiKeyHeader.toLowerCase()),
    path,
    ...(req.method !== undefined ? { method: req.method } : {}),
  };
  const reply = endpointReply(input, r.endpoint, ctx);
  const diagnosis = reply.rejection?.diagnosis;
  if (diagnosis !== undefined)
    ctx.log?.(JSON.stringify({ event: 'signature-rejected', method: req.method, path, diagnosis }));
  writeReply(res, reply, r.endpoint, ctx);
}

/** Last resort for a fault of the server itself: a 500 with `{code, msg}`, or a closed socket. */
function internalError(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    const payload = JSON.stringify({ code: ApiCode.REQUEST, msg: 'internal error' });
    res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  } catch {
    res.destroy();
  }
}

/** ROBUST-NO-5XX (§7): a request Node cannot parse (bad syntax, headers over 16 KiB, too slow) gets a 4xx `{code, msg}`. */
function onClientError(err: Error & { code?: string }, socket: Socket, ctx: Context): void {
  // A second error (the client's FIN after bad bytes) while earlier answers are still being written: keep waiting for them.
  if (ctx.inFlight.get(socket)?.final !== undefined) return;
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  const state = ctx.inFlight.get(socket);
  const answersDue = state !== undefined && awaitsAnswers(state);
  // a connection already ending after its last answer (413, 503, an earlier parse error): its lingering
  // close drains the rest; destroying it here would reset away answers the client has not read yet
  if (ctx.closing.has(socket) && err.code !== 'ECONNRESET') return;
  // an answer already half written cannot be followed by a raw one, unless it is a queued pipelined answer (finalAnswer waits for it)
  if (
    err.code === 'ECONNRESET' ||
    !socket.writable ||
    (pending?.headersSent === true && !answersDue) ||
    ctx.closing.has(socket)
  ) {
    socket.destroy();
    return;
  }
  const [status, kind, msg] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'http-parse', 'Request headers are too large (over 16 KiB)'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'timeout', 'The request was not received in time'] as const)
        : ([400, 'http-parse', 'The request is not valid HTTP/1.1'] as const);
  finalAnswer(socket, rawReply(rejectionReply(reject(kind, status, ApiCode.REQUEST, msg)), ctx), ctx);
}

/** End a connection with a raw answer; pipelined requests before it are answered first, in order (their orders are placed and reported). */
function finalAnswer(socket: Socket, payload: string, ctx: Context): void {
  const state = ctx.inFlight.get(socket);
  if (state !== undefined && awaitsAnswers(state)) {
    ctx.closing.add(socket);
    state.final = payload;
    return;
  }
  sendFinal(socket, payload, ctx);
}

/** Start the reference server; resolves once it answers on its port. */
export function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const credentials = options.credentials ?? DEMO_CREDENTIALS;
  checkCredentials(credentials);
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const requestTimeout = Math.max(1, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const accountIds = new Map(credentials.map((c, i) => [c.apiKey, String(1_000_000_001 + i)]));
  const wire = options.wire ?? SEED_WIRE;
  const ctx: Context = {
    wire,
    routes: routesOf(wire),
    policy: resolvePolicy(options.policy),
    credentials,
    clock,
    errorStyle: options.errorStyle ?? 'http-status',
    store: new OrderStore(
      options.storeCapacity ?? DEFAULT_STORE_CAPACITY,
      Math.max(1, Math.floor(systemClock())) * 1000,
    ),
    accountIdOf: (apiKey) => accountIds.get(apiKey) ?? '0',
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    explain: options.explain === true,
    log: options.log,
    closing: new WeakSet(),
    inFlight: new WeakMap(),
    overCap: new WeakSet(),
  };
  const maxConnections = Math.max(1, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);

  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 2))),
      // Node's own 400 for a missing Host has no {code, msg} body; the API needs no Host.
      requireHostHeader: false,
    },
    (req, res) => {
      track(req, res, ctx);
      handleRequest(req, res, ctx).catch(() => internalError(res));
    },
  );
  // D-CONNECTION-CAP: up to the cap served; beyond it one 503 and close; past twice the cap dropped unread (Node's own limit)
  let open = 0;
  server.maxConnections = 2 * maxConnections;
  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
    if (open > maxConnections) {
      ctx.overCap.add(socket);
      // an idle connection beyond the cap is not kept waiting for a request
      setTimeout(() => socket.destroy(), 2000).unref();
    }
  });
  // A client may half-close after sending pipelined requests: answer them all, then close (Node's default on a
  // client FIN ends the connection at once, dropping answers still being prepared).
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.keepAliveTimeout = 5000;
  server.timeout = requestTimeout + 5000;
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => onClientError(err, socket, ctx));
  // Requests Node would otherwise answer itself without a {code, msg} body.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    writeReply(
      res,
      rejectionReply(reject('http-parse', 417, ApiCode.REQUEST, 'Only "Expect: 100-continue" is supported')),
      'none',
      ctx,
    );
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    finalAnswer(
      socket,
      rawReply(rejectionReply(reject('method', 405, ApiCode.REQUEST, 'CONNECT is not supported')), ctx),
      ctx,
    );
  });

  return new Promise((resolve, rejectStart) => {
    const onError = (err: Error & { code?: string }): void => {
      rejectStart(
        new SpotcheckError(
          'ERR_SERVER_START',
          `could not listen on ${host}:${options.port ?? 0}: ${err.code ?? err.message}`,
          { code: err.code },
          { cause: err },
        ),
      );
    };
    server.once('error', onError);
    server.listen({ port: options.port ?? 0, host }, () => {
      server.off('error', onError);
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${urlHost}:${port}`,
        host,
        port,
        orders: { count: () => ctx.store.count(), list: () => ctx.store.list() },
        close: () => (closing ??= closeGracefully(server)),
      });
    });
  });
}

/** Stop listening, let requests in flight finish for up to a second, then close what is left; idle connections at once. */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    const force = setTimeout(() => server.closeAllConnections(), 1000);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      done();
    });
    server.closeIdleConnections();
  });
}
