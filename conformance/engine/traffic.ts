/**
 * What a run's requests looked like, for the reports: the time-window probes as sent
 * (§5.4: each timestamp against the server clock estimate, and the answer) and the
 * latency and answers of every request.
 */
import type { Exchange } from './transport.js';
import { routeKey } from './requests.js';

/** One time-window probe (§5.4): where its timestamp stood against the server clock estimate, and what the server did. */
export interface TimeProbe {
  /** `timestamp` minus the estimated server time when the request was built, ms (negative: older than the server's now). */
  offsetMs: number;
  /** The recvWindow sent, ms; absent when none was (the seed's default 5000 applies). */
  recvWindow?: number;
  /** The route (`batch/json`, `v1/query`, ...). */
  route?: string;
  /** The answer: `accepted`, `rejected`, or what else came (`rate-limited`, `server-error`, `no-answer`, `bad-response`). */
  verdict: string;
}

/** Latency of the run's requests, ms, and how many answers of each kind came. */
export interface TrafficReport {
  /** Requests with a measured round trip. */
  timed: number;
  p50?: number;
  p90?: number;
  p99?: number;
  max?: number;
  /** Round trips per bucket: `upToMs` is the bucket's upper bound (inclusive), null for the last, unbounded one. */
  histogram: Array<{ upToMs: number | null; count: number }>;
  /** Answers by kind (`accepted`, `rejected`, `rate-limited`, `server-error`, `no-answer`, `bad-response`). */
  answers: Record<string, number>;
}

/** Upper bounds of the latency histogram's buckets, ms (roughly 1-2-5 per decade). */
export const LATENCY_BUCKETS: readonly number[] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

function param(text: string, name: string): string | undefined {
  return new RegExp(`(?:^|&)${name}=([^&]*)`).exec(text)?.[1];
}

/** The time probe an exchange makes, or undefined when it carried no numeric timestamp or was never sent. */
export function timeProbeOf(e: Exchange, clockOffsetMs: number): TimeProbe | undefined {
  if (e.timestampShiftMs === undefined || e.observation.verdict === 'not-sent') return undefined;
  const rw =
    param(e.request.query, 'recvWindow') ??
    (e.request.body.trimStart().startsWith('[') ? undefined : param(e.request.body, 'recvWindow'));
  const probe: TimeProbe = { offsetMs: Math.round(e.timestampShiftMs - clockOffsetMs), verdict: e.observation.verdict };
  if (rw !== undefined && /^\d+$/.test(rw)) probe.recvWindow = Number(rw);
  if (e.route !== undefined) probe.route = routeKey(e.route);
  return probe;
}

/** The value below which `q` of the sorted samples lie (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Summarise round trips (ms) and answer kinds. */
export function summariseTraffic(
  latencies: readonly number[],
  answers: Readonly<Record<string, number>>,
): TrafficReport {
  const sorted = [...latencies].sort((a, b) => a - b);
  const histogram: TrafficReport['histogram'] = [
    ...LATENCY_BUCKETS.map((upToMs) => ({ upToMs, count: 0 })),
    { upToMs: null, count: 0 },
  ];
  for (const ms of sorted) {
    const bucket = histogram.find((b) => b.upToMs === null || ms <= b.upToMs);
    if (bucket !== undefined) bucket.count++;
  }
  const round = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 10) / 10);
  const out: TrafficReport = { timed: sorted.length, histogram, answers: { ...answers } };
  const stats = {
    p50: round(quantile(sorted, 0.5)),
    p90: round(quantile(sorted, 0.9)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1]),
  };
  for (const [k, v] of Object.entries(stats)) if (v !== undefined) Object.assign(out, { [k]: v });
  return out;
}
