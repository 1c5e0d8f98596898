/**
 * The load report: one shape whether the numbers come from the local engine or from an
 * Artillery run (`artillery run --output`), one verdict (any correctness count above 0,
 * or nothing accepted, fails the run), one console rendering. JSON carries at least
 * `requestsPerSecond`, `badSignatures`, `misalignedEntries` and the per-route counts, and a
 * per-second series (requests, outcomes, p50/p99) for plotting latency over time.
 */
import { SpotcheckError } from '../../src/core/errors.js';
import { LOAD_ROUTES, type LoadRoute } from './mix.js';
import { FAILURE_KINDS, failuresOf, totalOf, type Failure, type RouteTally } from './verdict.js';
import { FAIL_COUNTERS, latencyName, talliesFromCounters } from './counters.js';
import { quantile, round, type EngineResult, type SeriesPoint } from './engine.js';
import type { Discovery } from './discover.js';
import { wrapWords } from '../report/words.js';

/** Latency figures, ms. */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/** One route's counts and latency. */
export interface RouteReport extends RouteTally {
  latencyMs: LatencySummary;
}

/** The load report. */
export interface LoadReport {
  kind: 'spotcheck-load';
  /** Where the numbers come from. */
  source: 'engine' | 'artillery';
  target?: string;
  settings?: Record<string, unknown>;
  passed: boolean;
  /** Every correctness count above 0, per route. */
  failures: Failure[];
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  accepted: number;
  ordersPlaced: number;
  ordersPerSecond: number;
  badSignatures: number;
  misalignedEntries: number;
  refusedValid: number;
  http5xx: number;
  shed: { '429': number; '503': number };
  transportErrors: number;
  timeWindow: RouteTally['timeWindow'];
  latencyMs: LatencySummary;
  routes: Partial<Record<LoadRoute, RouteReport>>;
  series: SeriesPoint[];
  /** Open model: waits of arrivals for a free connection (before signing), ms. */
  arrivalWaitMs?: LatencySummary & { dropped: number };
  discovery?: Omit<Discovery, 'fingerprints'> & { fingerprints: Discovery['fingerprints'] };
  stopped?: string;
}

const nn = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : round(x));

/** Latency summary of an ascending list. */
export function summarize(sorted: readonly number[]): LatencySummary {
  return {
    count: sorted.length,
    p50: nn(quantile(sorted, 0.5)),
    p95: nn(quantile(sorted, 0.95)),
    p99: nn(quantile(sorted, 0.99)),
    max: nn(sorted[sorted.length - 1]),
  };
}

function assemble(
  source: LoadReport['source'],
  tallies: Partial<Record<LoadRoute, RouteTally>>,
  latency: (r: LoadRoute) => LatencySummary,
  overall: LatencySummary,
  durationSeconds: number,
  series: SeriesPoint[],
): LoadReport {
  const total = totalOf(tallies);
  const failures = failuresOf(tallies);
  const routes: Partial<Record<LoadRoute, RouteReport>> = {};
  for (const r of LOAD_ROUTES) {
    const t = tallies[r];
    if (t !== undefined) routes[r] = { ...t, latencyMs: latency(r) };
  }
  const per = (n: number): number => (durationSeconds > 0 ? round(n / durationSeconds) : 0);
  return {
    kind: 'spotcheck-load',
    source,
    passed: failures.length === 0 && total.accepted > 0,
    failures,
    durationSeconds: round(durationSeconds),
    requests: total.requests,
    requestsPerSecond: per(total.requests),
    accepted: total.accepted,
    ordersPlaced: total.ordersPlaced,
    ordersPerSecond: per(total.ordersPlaced),
    badSignatures: total.badSignatures,
    misalignedEntries: total.results.misalignedEntries,
    refusedValid: total.refusedValid,
    http5xx: total.http5xx,
    shed: { '429': total.shed429, '503': total.shed503 },
    transportErrors: total.transportErrors,
    timeWindow: total.timeWindow,
    latencyMs: overall,
    routes,
    series,
  };
}

/** The report of a local engine run. */
export function engineReport(r: EngineResult, discovery?: Discovery): LoadReport {
  const all = Object.values(r.latencies)
    .flat()
    .sort((a, b) => a - b);
  const rep = assemble(
    'engine',
    r.tallies,
    (route) => summarize(r.latencies[route] ?? []),
    summarize(all),
    r.durationMs / 1000,
    r.series,
  );
  if (r.arrivalWaits.length > 0 || r.arrivalsDropped > 0)
    rep.arrivalWaitMs = { ...summarize(r.arrivalWaits), dropped: r.arrivalsDropped };
  if (discovery !== undefined) rep.discovery = discovery;
  if (r.stopped !== undefined) rep.stopped = r.stopped;
  return rep;
}

interface ArtillerySummary {
  count?: number;
  p50?: number;
  median?: number;
  p95?: number;
  p99?: number;
  max?: number;
}
interface ArtilleryPeriod {
  counters?: Record<string, number>;
  summaries?: Record<string, ArtillerySummary>;
  period?: number | string;
  firstMetricAt?: number;
  lastMetricAt?: number;
  firstCounterAt?: number;
  lastCounterAt?: number;
}

const fromSummary = (s: ArtillerySummary | undefined): LatencySummary => ({
  count: s?.count ?? 0,
  p50: nn(s?.p50 ?? s?.median),
  p95: nn(s?.p95),
  p99: nn(s?.p99),
  max: nn(s?.max),
});

/**
 * The report of an Artillery run from its `--output` JSON, read from the counters the
 * generated processor emits.
 * @throws SpotcheckError `ERR_USAGE` when the file is not an Artillery report of a spotcheck project.
 */
export function artilleryReport(json: unknown): LoadReport {
  const agg = (json as { aggregate?: ArtilleryPeriod } | null)?.aggregate;
  const counters = agg?.counters;
  if (agg === undefined || counters === undefined || typeof counters !== 'object') {
    throw new SpotcheckError(
      'ERR_USAGE',
      'not an Artillery JSON report (no aggregate.counters): write one with `artillery run --output FILE`',
    );
  }
  if (
    !FAIL_COUNTERS.some((c) => c in counters) &&
    !Object.keys(counters).some((c) => LOAD_ROUTES.some((r) => c.startsWith(`spotcheck.${r}.`)))
  ) {
    throw new SpotcheckError(
      'ERR_USAGE',
      'this Artillery report has no spotcheck counters: was it run with the project `spotcheck load init` wrote?',
    );
  }
  const tallies = talliesFromCounters(counters);
  const first = agg.firstCounterAt ?? agg.firstMetricAt;
  const last = agg.lastCounterAt ?? agg.lastMetricAt;
  const duration = first !== undefined && last !== undefined && last > first ? (last - first) / 1000 : 0;
  const intermediate = ((json as { intermediate?: ArtilleryPeriod[] }).intermediate ?? []).filter(
    (p) => p.counters !== undefined,
  );
  const t0 = Math.min(...intermediate.map((p) => Number(p.period)).filter((x) => Number.isFinite(x)));
  const series: SeriesPoint[] = intermediate.map((p) => {
    const c = p.counters ?? {};
    const sum = (pred: (k: string) => boolean): number =>
      Object.entries(c)
        .filter(([k]) => pred(k))
        .reduce((s, [, v]) => s + v, 0);
    const rt = p.summaries?.['http.response_time'];
    return {
      t: Number.isFinite(t0) ? round((Number(p.period) - t0) / 1000) : 0,
      requests: c['http.requests'] ?? 0,
      accepted: sum((k) => /^spotcheck\..*\.accepted$/.test(k)),
      failures: sum((k) => k.startsWith('spotcheck.fail.')),
      shed: sum((k) => /\.shed(429|503)$/.test(k)),
      errors: sum((k) => k.endsWith('.transportErrors')),
      refused: sum((k) => /\.timeWindow\.(clientQueue|networkServer)$/.test(k)),
      p50: nn(rt?.p50 ?? rt?.median) ?? NaN,
      p99: nn(rt?.p99) ?? NaN,
    };
  });
  return assemble(
    'artillery',
    tallies,
    (r) => fromSummary(agg.summaries?.[latencyName(r)]),
    fromSummary(agg.summaries?.['http.response_time']),
    duration,
    series,
  );
}

/** Read a report file: the engine's JSON report or Artillery's `--output` JSON. */
export function reportFromJson(json: unknown): LoadReport {
  if (typeof json === 'object' && json !== null && (json as { kind?: unknown }).kind === 'spotcheck-load') {
    const r = json as LoadReport;
    // Judged again from its counts, not from its own `passed`.
    const failures = failuresOf(r.routes);
    return { ...r, failures, passed: failures.length === 0 && totalOf(r.routes).accepted > 0 };
  }
  return artilleryReport(json);
}

const ms = (x: number | null): string => (x === null ? '-' : `${x} ms`);

/** A number rounded up to two significant digits (a figure to pass on the command line). */
function roundUp(n: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, n))) - 1);
  return Math.ceil(n / unit) * unit;
}

/**
 * When the order cap (`--max-orders`) ended the load before its `--duration`: the sentence saying
 * so, how much of the duration ran, and what to change for the whole of it (a higher cap at this
 * pace, or fewer orders a batch request when batches are in the mix). Undefined otherwise.
 */
export function cutShort(r: LoadReport): string | undefined {
  if (r.stopped !== 'max-orders') return undefined;
  const s = r.settings ?? {};
  const asked = typeof s.durationSeconds === 'number' ? s.durationSeconds : undefined;
  const cap = typeof s.maxOrders === 'number' ? s.maxOrders : undefined;
  const batchSize = typeof s.batchSize === 'number' ? s.batchSize : undefined;
  const batches = typeof s.mix === 'string' ? /(^|,)batch=/.test(s.mix) : r.routes.batch !== undefined;
  const ran = `${r.durationSeconds} s${asked === undefined ? '' : ` of the ${asked} s asked`}`;
  const pace = r.durationSeconds > 0 ? r.ordersPlaced / r.durationSeconds : 0;
  const need = asked !== undefined && pace > 0 ? roundUp(pace * asked + (r.discovery?.ordersPlaced ?? 0)) : undefined;
  const raise = `raise --max-orders${need === undefined ? '' : ` (about ${need} at this pace)`}`;
  const lower = batches
    ? ` or lower --batch-size${batchSize === undefined ? '' : ` (${batchSize} orders a batch request now)`}`
    : '';
  return (
    `--max-orders${cap === undefined ? '' : ` ${cap}`} was reached after ${ran}: the load stopped early, and the verdict covers only that much. ` +
    `For the whole duration ${raise}${lower}.`
  );
}

/** The console rendering. */
export function renderLoad(r: LoadReport): string {
  const lines: string[] = [];
  lines.push(
    `spotcheck load (${r.source === 'engine' ? 'local engine' : 'Artillery report'})${r.target === undefined ? '' : ` against ${r.target}`}`,
  );
  lines.push(
    `${r.requests} requests in ${r.durationSeconds} s: ${r.requestsPerSecond} req/s; ${r.accepted} accepted; ${r.ordersPlaced} orders placed (${r.ordersPerSecond}/s); ` +
      `latency p50 ${ms(r.latencyMs.p50)}, p95 ${ms(r.latencyMs.p95)}, p99 ${ms(r.latencyMs.p99)}`,
  );
  lines.push('');
  lines.push('route        requests  accepted  refused  shed  5xx  orders   p50       p99       entries/misaligned');
  for (const route of LOAD_ROUTES) {
    const t = r.routes[route];
    if (t === undefined) continue;
    const refused = Object.values(t.refused).reduce((s, n) => s + n, 0) - t.http5xx;
    lines.push(
      [
        route.padEnd(12),
        String(t.requests).padStart(8),
        String(t.accepted).padStart(9),
        String(refused).padStart(8),
        String(t.shed429 + t.shed503).padStart(5),
        String(t.http5xx).padStart(4),
        String(t.ordersPlaced).padStart(7),
        ms(t.latencyMs.p50).padStart(9),
        ms(t.latencyMs.p99).padStart(9),
        `  ${t.results.entries}/${t.results.misalignedEntries}`,
      ].join(' '),
    );
    const codes = Object.entries(t.refused);
    if (codes.length > 0)
      lines.push(`             refused by HTTP status x code: ${codes.map(([k, n]) => `${k}: ${n}`).join(', ')}`);
  }
  lines.push('');
  lines.push(
    `bad signatures: ${r.badSignatures}   misaligned entries: ${r.misalignedEntries}   valid requests refused: ${r.refusedValid}   5xx: ${r.http5xx}`,
  );
  lines.push(
    `time-window refusals: ${r.timeWindow.clientQueue} stale in the client queue, ${r.timeWindow.networkServer} went stale in the network or server, ${r.timeWindow.inWindow} inside the window`,
  );
  lines.push(
    `load shedding (not a failure): 429 x ${r.shed['429']}, 503 x ${r.shed['503']}; no answer: ${r.transportErrors}`,
  );
  if (r.arrivalWaitMs !== undefined) {
    lines.push(
      `open model: arrivals waited for a free connection (unsigned) p50 ${ms(r.arrivalWaitMs.p50)}, p99 ${ms(r.arrivalWaitMs.p99)}; ${r.arrivalWaitMs.dropped} dropped (the target could not keep up)`,
    );
  }
  for (const n of r.discovery?.notes ?? []) lines.push(`note: ${n}`);
  if (r.stopped === 'interrupted') lines.push('stopped early: interrupted');
  lines.push('');
  const short = cutShort(r);
  if (r.passed)
    lines.push(
      short === undefined
        ? 'PASS: no correctness failure under load'
        : `PASS, CUT SHORT: no correctness failure in the ${r.durationSeconds} s of load that ran`,
    );
  else {
    lines.push('FAIL:');
    for (const f of r.failures) lines.push(`  ${f.route}: ${f.count} ${FAILURE_KINDS[f.kind]}`);
    if (r.accepted === 0) lines.push('  no request was accepted');
  }
  if (short !== undefined) lines.push(...wrapWords(short, 100, ''));
  return `${lines.join('\n')}\n`;
}
