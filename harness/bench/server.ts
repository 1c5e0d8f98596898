/**
 * Server benchmark: batch-order requests per second and p50/p99 latency of the
 * reference server under concurrent load from a second process on loopback, beside
 * a bare `http.createServer` answering a fixed JSON body of the same size in the same
 * run (alternating rounds, medians, ratio); then resident memory across a long run
 * of accepted orders (the store is bounded, D-ORDER-STORE).
 *
 * The load runs in a child process (this module, forked with SPOTCHECK_BENCH_LOAD_CHILD=1):
 * a small undici loop signing each 20-order batch with the kit's client builder.
 * Environment: SPOTCHECK_BENCH_SERVER_ROUNDS (default 3), SPOTCHECK_BENCH_SOAK_S
 * (default 60; 0 skips the memory run).
 */
import { fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { batchOrdersRequest } from '../../src/client/requests.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer } from '../../src/server/server.js';
import type { BatchOrderItem } from '../../src/core/types.js';
import { median, table } from './measure.js';

const CHILD_ENV = 'SPOTCHECK_BENCH_LOAD_CHILD';

/** What the load child is asked to do. */
export interface LoadSpec {
  /** Base URL of the server under load. */
  url: string;
  /** Concurrent requests (one connection each). */
  connections: number;
  /** Unmeasured warm-up, ms. */
  warmupMs: number;
  /** Measured time, ms. */
  durationMs: number;
  /** Orders per batch. */
  batchSize: number;
}

/** What one load run measured. */
export interface LoadResult {
  /** Requests completed in the measured time. */
  requests: number;
  /** Answers that were not HTTP 200 with code 0 for the call and for every entry, or failed to arrive. */
  failures: number;
  /** Requests per second over the measured time. */
  rate: number;
  /** Median latency, ms. */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
}

/** Options of {@link benchServer}. */
export interface ServerBenchOptions {
  /** Alternating rounds per target (default 3, or SPOTCHECK_BENCH_SERVER_ROUNDS). */
  rounds: number;
  /** Measured seconds per round (default 4). */
  roundSeconds: number;
  /** Seconds of the memory run (default 60, or SPOTCHECK_BENCH_SOAK_S; 0 skips it). */
  soakSeconds: number;
  /** Concurrent connections of the load (default 16). */
  connections: number;
}

/** `q`-quantile (0..1) of an ascending list, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** A batch of `n` valid LIMIT orders of one symbol, without client ids (the server generates them: no duplicates). */
export function loadBatch(n: number): BatchOrderItem[] {
  return Array.from({ length: n }, (_, i) => ({
    symbol: 'BTCUSDT',
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    type: 'LIMIT',
    quantity: '0.01',
    price: (42000 + i).toFixed(2),
    timeInForce: 'GTC',
  }));
}

function accepted(status: number, text: string): boolean {
  if (status !== 200) return false;
  try {
    const body = JSON.parse(text) as { code?: unknown; result?: Array<{ code?: unknown }> };
    return body.code === 0 && Array.isArray(body.result) && body.result.every((e) => e.code === 0);
  } catch {
    return false;
  }
}

/**
 * Run the load loop in this process: `connections` workers, each sending freshly
 * signed batches back to back (demo credentials), for warm-up plus measured time.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(spec.url, { connections: spec.connections, pipelining: 1 });
  const orders = loadBatch(spec.batchSize);
  const latencies: number[] = [];
  let failures = 0;
  const start = performance.now();
  const measureFrom = start + spec.warmupMs;
  const end = measureFrom + spec.durationMs;
  const worker = async (): Promise<void> => {
    for (let t0 = performance.now(); t0 < end; t0 = performance.now()) {
      const { request } = batchOrdersRequest(orders, {
        apiKey: DEMO_API_KEY,
        secret: DEMO_SECRET,
        timestamp: Date.now(),
      });
      let ok = false;
      try {
        const res = await pool.request({
          method: 'POST',
          path: `${request.path}?${request.query}`,
          headers: request.headers,
          body: request.body,
        });
        ok = accepted(res.statusCode, await res.body.text());
      } catch {
        ok = false;
      }
      const t1 = performance.now();
      if (t0 >= measureFrom && t1 <= end) {
        latencies.push(t1 - t0);
        if (!ok) failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    rate: latencies.length / (spec.durationMs / 1000),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

/** A load result with the CPU time this (the server's) process spent per request meanwhile, µs. */
interface MeasuredLoad extends LoadResult {
  serverCpuUs: number;
}

/** Run `runLoad` in a child process and add the CPU this process (the servers) used per request. */
async function measuredLoad(spec: LoadSpec): Promise<MeasuredLoad> {
  const cpu0 = process.cpuUsage();
  const r = await loadInChild(spec);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (spec.warmupMs + spec.durationMs) / 1000;
  return { ...r, serverCpuUs: (cpu.user + cpu.system) / (r.rate * seconds) };
}

/** Run `runLoad` in a child process (this module forked) and resolve with its result. */
function loadInChild(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, [CHILD_ENV]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: LoadResult | undefined;
    child.once('message', (m) => {
      result = m as LoadResult;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      result !== undefined
        ? resolve(result)
        : reject(new Error(`load child exited with ${String(code)} and no result`)),
    );
    child.send(spec);
  });
}

/** A bare node:http server answering every request with one fixed JSON body (after reading the request). */
async function startBare(body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(v) && v >= 0 ? v : fallback;
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const ms = (x: number): string => x.toFixed(2);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');

/** Run the server benchmark and print its figures. */
export async function benchServer(
  out: (s: string) => void = (s) => process.stdout.write(s),
  options: Partial<ServerBenchOptions> = {},
): Promise<void> {
  const opts: ServerBenchOptions = {
    rounds: options.rounds ?? envNumber('SPOTCHECK_BENCH_SERVER_ROUNDS', 3),
    roundSeconds: options.roundSeconds ?? 4,
    soakSeconds: options.soakSeconds ?? envNumber('SPOTCHECK_BENCH_SOAK_S', 60),
    connections: options.connections ?? 16,
  };
  const batchSize = 20;
  const reference = await startServer({});
  // The bare server answers what the reference answers to the same batch, so both move the same bytes.
  const sample = batchOrdersRequest(loadBatch(batchSize), {
    apiKey: DEMO_API_KEY,
    secret: DEMO_SECRET,
    timestamp: Date.now(),
  }).request;
  const sampleAnswer = await fetch(`${reference.url}${sample.path}?${sample.query}`, {
    method: 'POST',
    headers: sample.headers,
    body: sample.body,
  });
  const fixedBody = await sampleAnswer.text();
  const bare = await startBare(fixedBody);
  try {
    const spec = (url: string, seconds: number): LoadSpec => ({
      url,
      connections: opts.connections,
      warmupMs: 1000,
      durationMs: seconds * 1000,
      batchSize,
    });
    const runs = { bare: [] as MeasuredLoad[], reference: [] as MeasuredLoad[] };
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? (['bare', 'reference'] as const) : (['reference', 'bare'] as const);
      for (const target of order)
        runs[target].push(await measuredLoad(spec(target === 'bare' ? bare.url : reference.url, opts.roundSeconds)));
    }
    const summary = (rs: MeasuredLoad[]) => ({
      rate: median(rs.map((r) => r.rate)),
      cpu: median(rs.map((r) => r.serverCpuUs)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      failures: rs.reduce((n, r) => n + r.failures, 0),
    });
    const b = summary(runs.bare);
    const r = summary(runs.reference);
    out(
      `${batchSize}-order batches, ${opts.connections} connections from a child process on loopback, ` +
        `${opts.rounds} alternating rounds of ${opts.roundSeconds} s (medians)\n`,
    );
    out(
      `${table([
        ['target', 'req/s', 'orders/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'failed'],
        ['bare http.createServer (fixed body)', int(b.rate), '-', ms(b.p50), ms(b.p99), int(b.cpu), String(b.failures)],
        [
          'reference server',
          int(r.rate),
          int(r.rate * batchSize),
          ms(r.p50),
          ms(r.p99),
          int(r.cpu),
          String(r.failures),
        ],
      ])}\n`,
    );
    out(
      `ratio reference/bare: ${(r.rate / b.rate).toFixed(2)}x requests per second (target >= 0.5x); server CPU per request ${(r.cpu / b.cpu).toFixed(2)}x\n`,
    );
    out(
      `machine load average during the run: ${loadavg()[0]?.toFixed(2) ?? '?'} on ${availableParallelism()} cores (others' work skews the rates; CPU per request much less)\n`,
    );

    if (opts.soakSeconds > 0) {
      const rss: number[] = [];
      const before = reference.orders.count();
      const timer = setInterval(() => rss.push(process.memoryUsage().rss), 1000);
      const soak = await loadInChild({ ...spec(reference.url, opts.soakSeconds), warmupMs: 0 });
      clearInterval(timer);
      const window = Math.max(1, Math.min(10, Math.floor(rss.length / 3)));
      const first = median(rss.slice(0, window));
      const last = median(rss.slice(-window));
      out(
        `\nmemory: ${opts.soakSeconds} s of accepted orders (${int(reference.orders.count() - before)} placed, ${soak.failures} failed requests; store keeps the newest ${int(reference.orders.list().length)})\n` +
          `rss median of the first ${window} s ${mib(first)} MiB, of the last ${window} s ${mib(last)} MiB: ` +
          `${((last / first - 1) * 100).toFixed(1)}% (target within 10%); min ${mib(Math.min(...rss))}, max ${mib(Math.max(...rss))} MiB\n`,
      );
    }
  } finally {
    await bare.close();
    await reference.close();
  }
}

if (process.env[CHILD_ENV] === '1' && typeof process.send === 'function') {
  process.once('message', (spec: LoadSpec) => {
    void runLoad(spec).then((result) => process.send?.(result, () => process.disconnect()));
  });
}
