/**
 * Benchmark of a full default verdict over a network: the same run against the
 * embedded reference server directly on loopback and through a loopback proxy adding
 * 50-150 ms round trips, with the defaults the CLI uses for a remote target, beside the
 * old one-at-a-time defaults (cut at a deadline and projected). Prints requests, wall
 * time and ratios; medians over rounds.
 */
import { startServer } from '../../src/server/server.js';
import { startLatencyProxy } from '../testing/latency-proxy.js';
import { DEFAULT_RUNS, LOOPBACK_CONCURRENCY, REMOTE_CONCURRENCY, REMOTE_RATE } from '../../conformance/cli/run.js';
import { mutants } from '../mutants.js';
import { routeMutants } from '../route-mutants.js';
import { startVariant } from '../variants.js';
import type { RunOptions } from '../../conformance/engine/runner.js';
import { runAgainstServer, runAgainstUrl } from '../selftest.js';
import type { RunReport } from '../../conformance/judgement/types.js';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Run the full default verdict against a fresh reference server, directly or through a latency proxy. */
export async function verdict(
  o: { rtt?: [number, number] } & Partial<RunOptions>,
): Promise<{ ms: number; report: RunReport }> {
  const { rtt, ...run } = o;
  const server = await startServer({ port: 0 });
  const proxy =
    rtt === undefined
      ? undefined
      : await startLatencyProxy({ targetPort: server.port, minRttMs: rtt[0], maxRttMs: rtt[1] });
  try {
    const t0 = performance.now();
    const report = await runAgainstUrl(proxy?.url ?? server.url, { runs: DEFAULT_RUNS, timeoutMs: 10_000, ...run });
    return { ms: performance.now() - t0, report };
  } finally {
    await proxy?.close();
    await server.close();
  }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The targets of a full default verdict: through a 50-150 ms round-trip link at the remote defaults, and on loopback. */
export const REMOTE_TARGET_MS = 30_000;
export const LOOPBACK_TARGET_MS = 5_000;
/** A run through the 50-150 ms proxy at concurrency 16 with no rate cap. */
export const UNCAPPED_TARGET_MS = 20_000;

const against = (ms: number, target: number): string => `target < ${s(target)}: ${ms < target ? 'met' : 'MISSED'}`;

/** Print the network figures. */
export async function benchNetwork(rounds = 3, rtt: [number, number] = [50, 150]): Promise<void> {
  const local: number[] = [];
  const remote: number[] = [];
  const uncapped: number[] = [];
  const reqs: number[] = [];
  let failures = 0;
  for (let i = 0; i < rounds; i++) {
    const a = await verdict({ seed: 2000 + i, concurrency: LOOPBACK_CONCURRENCY });
    const b = await verdict({ seed: 2000 + i, rtt, concurrency: REMOTE_CONCURRENCY, rate: REMOTE_RATE });
    // the same run through the proxy with no rate cap: what the round trips alone cost
    const c = await verdict({ seed: 2000 + i, rtt, concurrency: REMOTE_CONCURRENCY });
    local.push(a.ms);
    remote.push(b.ms);
    uncapped.push(c.ms);
    reqs.push(b.report.requests);
    failures +=
      a.report.summary.failed +
      b.report.summary.failed +
      b.report.summary.inconclusive +
      c.report.summary.failed +
      c.report.summary.inconclusive;
    console.log(
      `round ${i + 1}: loopback ${s(a.ms)} (${a.report.requests} requests), through the proxy ${s(b.ms)} (${b.report.requests} requests, ${b.report.summary.passed} passed, ${b.report.summary.failed} failed)`,
    );
  }
  // The old defaults (one request at a time, 20 per second) cut at a deadline, then projected to the same request count.
  const cutAt = 20_000;
  const old = await verdict({ seed: 2000, rtt, concurrency: 1, rate: 20, maxTimeMs: cutAt });
  const perReq = cutAt / Math.max(1, old.report.requests);
  const n = median(reqs);
  console.log(
    `\n== full default verdict (${DEFAULT_RUNS} cases per property) through a ${rtt[0]}-${rtt[1]} ms round-trip proxy`,
  );
  console.log(`rounds ${rounds}; failures or inconclusive checks in the runs: ${failures}`);
  console.log(`requests        median ${n}`);
  console.log(
    `loopback        median ${s(median(local))}  (concurrency ${LOOPBACK_CONCURRENCY}, no rate limit; ${against(median(local), LOOPBACK_TARGET_MS)})`,
  );
  console.log(
    `through proxy   median ${s(median(remote))}  (concurrency ${REMOTE_CONCURRENCY}, at most ${REMOTE_RATE}/s; ${against(median(remote), REMOTE_TARGET_MS)})`,
  );
  console.log(
    `no rate cap     median ${s(median(uncapped))}  (concurrency ${REMOTE_CONCURRENCY}, through the same proxy; ${against(median(uncapped), UNCAPPED_TARGET_MS)})`,
  );
  console.log(
    `rate floor      ${s((n / REMOTE_RATE) * 1000)}  (${n} requests at ${REMOTE_RATE}/s); the proxy run is ${s(median(remote) - (n / REMOTE_RATE) * 1000)} above it`,
  );
  console.log(`ratio           proxy / loopback ${(median(remote) / median(local)).toFixed(1)}x`);
  console.log(
    `old defaults    ${old.report.requests} requests in ${s(cutAt)} (one at a time, 20/s): ${perReq.toFixed(0)} ms each, ~${s(perReq * n)} projected for ${n} requests; new defaults ${((perReq * n) / median(remote)).toFixed(1)}x faster`,
  );
}

/** The mutant self-test at a case count: mutants caught by a MUST check of their family, and requests sent. */
export async function detection(
  runs: number,
  concurrency: number,
  seed = 7,
): Promise<{ caught: number; total: number; requests: number; missed: string[] }> {
  let caught = 0;
  let requests = 0;
  const missed: string[] = [];
  const all = [
    ...mutants.map((m) => ({ name: m.name, family: m.family, options: m.options, start: undefined })),
    ...routeMutants.map((m) => ({ name: m.name, family: m.family, options: undefined, start: m.options })),
  ];
  for (const m of all) {
    const run = { seed, runs, concurrency, timeoutMs: 10_000 };
    let report: RunReport;
    if (m.start === undefined) report = await runAgainstServer(m.options ?? {}, run);
    else {
      const variant = await startVariant(m.start, 3);
      try {
        report = await runAgainstUrl(variant.url, run);
      } finally {
        await variant.close();
      }
    }
    requests += report.requests;
    if (report.checks.some((c) => c.status === 'fail' && c.level === 'MUST' && c.family === m.family)) caught++;
    else missed.push(m.name);
  }
  return { caught, total: all.length, requests, missed };
}

/** Print the mutant self-test at the old and the new default case counts. */
export async function benchDetection(oldRuns = 100, newRuns = DEFAULT_RUNS): Promise<void> {
  const t0 = performance.now();
  const a = await detection(oldRuns, 1);
  const t1 = performance.now();
  const b = await detection(newRuns, LOOPBACK_CONCURRENCY);
  const t2 = performance.now();
  console.log(`\n== mutant self-test (${a.total} mutant servers, full runs, seed 7)`);
  console.log(
    `old defaults    ${oldRuns} cases, one at a time: caught ${a.caught}/${a.total}, ${a.requests} requests, ${s(t1 - t0)}${a.missed.length ? `; missed: ${a.missed.join('; ')}` : ''}`,
  );
  console.log(
    `new defaults    ${newRuns} cases, concurrency ${LOOPBACK_CONCURRENCY}: caught ${b.caught}/${b.total}, ${b.requests} requests, ${s(t2 - t1)}${b.missed.length ? `; missed: ${b.missed.join('; ')}` : ''}`,
  );
  console.log(`ratio           requests new / old ${(b.requests / a.requests).toFixed(2)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? 'all';
  if (what === 'all' || what === 'network') await benchNetwork(Number(process.argv[3] ?? 3));
  if (what === 'all' || what === 'mutants') await benchDetection();
}
