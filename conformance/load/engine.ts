/**
 * The single-machine load engine: undici connections to one target, requests of a route
 * mix built and signed when a connection can take them (so the signed timestamp is the
 * send time, §5.4), every answer counted by the load verdict. Closed model (each
 * connection sends again when answered) or open model (`rate` arrivals per second; an
 * arrival that finds every connection busy waits unsigned, and the wait is reported).
 */
import { Client } from 'undici';
import type { WireRequest } from '../../src/core/request.js';
import { answerVerdict, isRecord, type Observation } from '../../src/core/response.js';
import { createOrderBudget, type OrderBudget } from '../engine/budget.js';
import { readAnswer } from './answer.js';
import {
  buildLoadRequest,
  clientIdSource,
  ordersPerRequest,
  type LoadBuildOptions,
  type LoadRequest,
} from './build.js';
import { routeDealer, type LoadRoute, type MixEntry } from './mix.js';
import { countAnswer, emptyTally, type Fingerprints, type Outcome, type RouteTally } from './verdict.js';

/** Options of {@link runLoad}. */
export interface EngineOptions {
  baseUrl: string;
  build: LoadBuildOptions;
  mix: readonly MixEntry[];
  durationMs: number;
  connections: number;
  /** Arrivals per second (open model); absent: closed model. */
  rate?: number;
  /** Stop sending before placed plus in-flight orders would pass this. */
  maxOrders: number;
  /** The order budget, shared with discovery (default: a fresh one of `maxOrders`): each request reserves its orders before it is sent. */
  budget?: OrderBudget;
  timeoutMs: number;
  fingerprints: Fingerprints;
  /** Prefix of every client id of this run. */
  idPrefix: string;
  /** Called about once a second. */
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
}

/** A progress snapshot. */
export interface Progress {
  elapsedMs: number;
  requests: number;
  accepted: number;
  failures: number;
  ordersPlaced: number;
  /** Requests answered in the last second. */
  lastSecond: number;
}

/** One second of the run. */
export interface SeriesPoint {
  /** Seconds since the start (the bucket's start). */
  t: number;
  requests: number;
  accepted: number;
  failures: number;
  shed: number;
  errors: number;
  refused: number;
  p50: number;
  p99: number;
}

/** What a run measured. */
export interface EngineResult {
  tallies: Partial<Record<LoadRoute, RouteTally>>;
  /** Latency of each answered request per route, ms, ascending. */
  latencies: Partial<Record<LoadRoute, number[]>>;
  series: SeriesPoint[];
  durationMs: number;
  /** Open model: how long arrivals waited for a free connection before being signed, ms, ascending. */
  arrivalWaits: number[];
  /** Open model: arrivals dropped because the wait queue was full (the target could not keep up). */
  arrivalsDropped: number;
  stopped?: 'max-orders' | 'interrupted';
}

/** Result of sending one request. */
export interface Answer {
  status: number | undefined;
  body: string | undefined;
  error: string | undefined;
  /** Wall clock when the request went on a connection, ms. */
  writtenAt: number | undefined;
  /** Wall clock at the answer's end (or the error), ms. */
  receivedAt: number;
  /** Monotonic latency from going on a connection to the answer's end, ms. */
  latencyMs: number;
  /** The answer carried Retry-After (a 503 with it is rate limiting, without it a server error). */
  retryAfter?: boolean;
}

/**
 * The answer as conformance/engine/budget.ts reads it, classified by the core's one classifier
 * (src/core/response.ts answerVerdict) from what the load verdict read (`json`, the pruned body):
 * no answer, a 5xx or an unreadable 2xx may have placed everything; a 4xx, a non-zero code or
 * rate limiting placed nothing.
 */
export function budgetObservation(a: Pick<Answer, 'status' | 'error' | 'retryAfter'>, json: unknown): Observation {
  const status = a.status;
  if (status === undefined || a.error !== undefined) return { verdict: 'no-answer' };
  return { verdict: answerVerdict(status, a.retryAfter === true, json), status, ...(isRecord(json) ? { json } : {}) };
}

/** Anything undici can dispatch through (a Client of one connection, a Pool). */
export type Dispatcher = Pick<Client, 'dispatch'>;

/** Collects one answer: a handler object rather than closures, one per request. */
class AnswerHandler {
  status: number | undefined;
  writtenAt: number | undefined;
  t0 = performance.now();
  chunks: Buffer[] = [];
  constructor(private readonly resolve: (a: Answer) => void) {}
  onRequestStart(): void {
    this.writtenAt = Date.now();
    this.t0 = performance.now();
  }
  retryAfter = false;
  onResponseStart(_c: unknown, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.retryAfter = headers['retry-after'] !== undefined;
  }
  onResponseData(_c: unknown, chunk: Buffer): void {
    this.chunks.push(chunk);
  }
  onResponseEnd(): void {
    const body =
      this.chunks.length === 1
        ? (this.chunks[0] as Buffer).toString('utf8')
        : Buffer.concat(this.chunks).toString('utf8');
    this.resolve({
      status: this.status,
      body,
      retryAfter: this.retryAfter,
      error: this.status === undefined ? 'no status' : undefined,
      writtenAt: this.writtenAt,
      receivedAt: Date.now(),
      latencyMs: performance.now() - this.t0,
    });
  }
  onResponseError(_c: unknown, err: Error): void {
    this.resolve({
      status: undefined,
      body: undefined,
      error: err.message,
      writtenAt: this.writtenAt,
      receivedAt: Date.now(),
      latencyMs: performance.now() - this.t0,
    });
  }
}

/** Send one request through `d` and collect its answer (never rejects). */
export function dispatch(d: Dispatcher, prefix: string, req: WireRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const handler = new AnswerHandler(resolve);
    try {
      d.dispatch(
        {
          method: req.method as 'POST',
          path: `${prefix}${req.path}${req.query === '' ? '' : `?${req.query}`}`,
          headers: req.headers,
          body: req.body === '' ? null : req.body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        handler as unknown as Parameters<Client['dispatch']>[1],
      );
    } catch (err) {
      handler.onResponseError(undefined, err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** The origin and path prefix of a base URL, for the pool and each request path. */
export function splitBase(baseUrl: string): { origin: string; prefix: string } {
  const u = new URL(baseUrl);
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
}

/** Nearest-rank quantile of an ascending list (NaN when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

interface Bucket {
  requests: number;
  accepted: number;
  failures: number;
  shed: number;
  errors: number;
  refused: number;
  latencies: number[];
}

const newBucket = (): Bucket => ({
  requests: 0,
  accepted: 0,
  failures: 0,
  shed: 0,
  errors: 0,
  refused: 0,
  latencies: [],
});

/** Run the load; resolves when the duration is over and every request in flight has its answer. */
export async function runLoad(o: EngineOptions): Promise<EngineResult> {
  const { origin, prefix } = splitBase(o.baseUrl);
  // One client per connection: the closed model's worker i owns connection i, the open model takes a free one.
  const clients = Array.from({ length: o.connections }, () => new Client(origin, { pipelining: 1 }));
  const free = clients.map((_, i) => i);
  const deal = routeDealer(o.mix);
  const nextId = clientIdSource(`${o.idPrefix}l`);
  const tallies: Partial<Record<LoadRoute, RouteTally>> = {};
  const latencies: Partial<Record<LoadRoute, number[]>> = {};
  const buckets: Bucket[] = [];
  const arrivalWaits: number[] = [];
  let arrivalsDropped = 0;
  let stopped: EngineResult['stopped'];
  let requests = 0;
  let accepted = 0;
  let failures = 0;
  let placed = 0;
  const budget = o.budget ?? createOrderBudget(o.maxOrders);
  const start = performance.now();
  const end = start + o.durationMs;
  const over = (): boolean => stopped !== undefined || performance.now() >= end;
  o.signal?.addEventListener('abort', () => (stopped ??= 'interrupted'), { once: true });

  /** A request on its way: what the verdict needs once its answer is in. */
  interface Sent {
    route: LoadRoute;
    orders: number;
    lr: LoadRequest;
    answer: Promise<Answer>;
  }

  /** Build (sign now) and send one request of the next route; undefined when the order budget is spent. */
  const start1 = (client: Dispatcher): Sent | undefined => {
    const route = deal();
    const n = ordersPerRequest(route, o.build.batchSize);
    if (!budget.reserve(n)) {
      stopped ??= 'max-orders';
      return undefined;
    }
    const lr: LoadRequest = buildLoadRequest(o.build, route, Date.now(), nextId);
    return { route, orders: n, lr, answer: dispatch(client, prefix, lr.request, o.timeoutMs) };
  };

  /** Count one answered request (the verdict, the series); its reservation becomes what it may have placed. */
  const judge = (x: Sent, a: Answer, answeredAt: number): void => {
    const { route, lr } = x;
    const json = a.status === 429 || (a.status === 503 && a.retryAfter === true) ? undefined : readAnswer(a.body);
    budget.settle(x.orders, budgetObservation(a, json));
    const t = (tallies[route] ??= emptyTally());
    const before = t.ordersPlaced;
    const outcome: Outcome = countAnswer(
      t,
      {
        timestamp: lr.timestamp,
        recvWindow: lr.recvWindow,
        clientIds: lr.clientIds,
        writtenAt: a.writtenAt,
        receivedAt: a.receivedAt,
        batch: route === 'batch',
        status: a.status,
        body: a.body,
        error: a.error,
        retryAfter: a.retryAfter === true,
      },
      json,
      o.fingerprints,
    );
    placed += t.ordersPlaced - before;
    requests++;
    const sec = Math.max(0, Math.floor((answeredAt - start) / 1000));
    const b = (buckets[sec] ??= newBucket());
    b.requests++;
    if (outcome === 'accepted') accepted++;
    else if (outcome === 'failure') failures++;
    if (outcome === 'error') b.errors++;
    else {
      (latencies[route] ??= []).push(a.latencyMs);
      b.latencies.push(a.latencyMs);
      if (outcome === 'accepted') b.accepted++;
      else if (outcome === 'failure') b.failures++;
      else if (outcome === 'shed') b.shed++;
      else b.refused++;
    }
  };

  // Answers wait here to be judged after the requests that follow them are written: undici
  // writes a request on a reused connection in the check phase (setImmediate), so judging
  // in the next timers phase lets every connection's next request go out first.
  let unjudged: Array<{ x: Sent; a: Answer; at: number }> = [];
  let flushing: NodeJS.Timeout | undefined;
  let judgeError: unknown;
  const flush = (): void => {
    flushing = undefined;
    const batch = unjudged;
    unjudged = [];
    try {
      for (const u of batch) judge(u.x, u.a, u.at);
    } catch (err) {
      judgeError ??= err;
      stopped ??= 'interrupted';
    }
  };
  const judgeLater = (x: Sent, a: Answer): void => {
    unjudged.push({ x, a, at: performance.now() });
    flushing ??= setTimeout(flush, 0);
  };

  /** Send one request and judge its answer later; false when the order budget is spent. */
  const sendOne = async (client: Dispatcher): Promise<boolean> => {
    const x = start1(client);
    if (x === undefined) return false;
    judgeLater(x, await x.answer);
    return true;
  };

  let lastCount = 0;
  const progress = setInterval(() => {
    o.onProgress?.({
      elapsedMs: performance.now() - start,
      requests,
      accepted,
      failures,
      ordersPlaced: placed,
      lastSecond: requests - lastCount,
    });
    lastCount = requests;
  }, 1000);

  try {
    if (o.rate === undefined) {
      const worker = async (client: Client): Promise<void> => {
        while (!over() && (await sendOne(client)));
      };
      await Promise.all(clients.map(worker));
    } else {
      await openModel(o.rate);
    }
  } finally {
    clearInterval(progress);
    if (flushing !== undefined) clearTimeout(flushing);
    flush();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
  if (judgeError !== undefined) throw judgeError;

  /** Arrivals at `rate` per second; each waits (unsigned) for a free connection, the queue capped at one second of arrivals. */
  async function openModel(rate: number): Promise<void> {
    const waiting: number[] = [];
    const cap = Math.max(o.connections, Math.ceil(rate));
    let due = 0;
    const running = new Set<Promise<void>>();
    const launch = (): void => {
      while (free.length > 0 && waiting.length > 0 && !over()) {
        const arrived = waiting.shift() as number;
        arrivalWaits.push(performance.now() - arrived);
        const i = free.pop() as number;
        const p: Promise<void> = sendOne(clients[i] as Client).then(() => {
          free.push(i);
          running.delete(p);
          launch();
        });
        running.add(p);
      }
    };
    while (!over()) {
      const now = performance.now();
      const target = Math.floor(((now - start) / 1000) * rate) + 1;
      for (; due < target; due++) {
        if (waiting.length >= cap) arrivalsDropped++;
        else waiting.push(start + (due / rate) * 1000);
      }
      launch();
      const next = start + (due / rate) * 1000;
      await new Promise((r) => setTimeout(r, Math.max(1, Math.min(next - performance.now(), end - performance.now()))));
    }
    while (running.size > 0) await Promise.race(running);
  }

  for (const l of Object.values(latencies)) l.sort((a, b) => a - b);
  arrivalWaits.sort((a, b) => a - b);
  const series = Array.from({ length: buckets.length }, (_, t) => {
    const b = buckets[t] ?? newBucket();
    const l = b.latencies.sort((x, y) => x - y);
    const { latencies: _l, ...counts } = b;
    return { t, ...counts, p50: round(quantile(l, 0.5)), p99: round(quantile(l, 0.99)) };
  });
  return {
    tallies,
    latencies,
    series,
    durationMs: performance.now() - start,
    arrivalWaits,
    arrivalsDropped,
    ...(stopped === undefined ? {} : { stopped }),
  };
}

/** Round to 0.01 ms (NaN stays NaN, written as null in JSON). */
export function round(x: number): number {
  return Math.round(x * 100) / 100;
}
