/**
 * Benchmark of a full default conformance run against the embedded reference server
 * (the default case count per property): run time, requests sent, requests per second,
 * side by side with a baseline that sends the same number of pre-built signed batch
 * requests through the same transport (no generation, no checks), to show the
 * runner's own cost. Prints medians over several rounds.
 */
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer } from '../../src/server/server.js';
import { runAgainstServer } from '../selftest.js';
import { DEFAULT_RUNS, LOOPBACK_CONCURRENCY } from '../../conformance/cli/run.js';
import { createRequestFactory } from '../../conformance/engine/requests.js';
import { createTransport } from '../../conformance/engine/transport.js';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Send `n` signed one-order batches back to back through the runner's transport; ms. */
async function baseline(n: number): Promise<number> {
  const server = await startServer({ port: 0 });
  try {
    const t = createTransport({ baseUrl: server.url, rate: 0, timeoutMs: 5000 });
    const f = createRequestFactory({ apiKey: DEMO_API_KEY, secret: DEMO_SECRET, serverNow: Date.now });
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const b = f.batch([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1', newClientOrderId: `bench-${i}` },
      ]);
      await t.send(b.request, b.facts);
    }
    return performance.now() - t0;
  } finally {
    await server.close();
  }
}

/** Print the runner figures. */
export async function benchRunner(rounds = 3): Promise<void> {
  const runMs: number[] = [];
  const reqs: number[] = [];
  const baseMs: number[] = [];
  let failed = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const r = await runAgainstServer({}, { seed: 1000 + i, runs: DEFAULT_RUNS, concurrency: LOOPBACK_CONCURRENCY });
    runMs.push(performance.now() - t0);
    reqs.push(r.requests);
    failed += r.summary.failed;
    baseMs.push(await baseline(r.requests));
  }
  const run = median(runMs);
  const n = median(reqs);
  const base = median(baseMs);
  console.log(
    `== conformance runner: full default run (${DEFAULT_RUNS} cases per property, concurrency ${LOOPBACK_CONCURRENCY}) against the embedded server`,
  );
  console.log(`rounds ${rounds}; failures in the runs: ${failed}`);
  console.log(
    `run time        median ${(run / 1000).toFixed(2)} s  (all: ${runMs.map((x) => (x / 1000).toFixed(2)).join(', ')} s; target < 20 s)`,
  );
  console.log(`requests        median ${n}`);
  console.log(
    `requests/s      runner ${(n / (run / 1000)).toFixed(0)}  vs  baseline (same count of pre-built signed batches, same transport) ${(n / (base / 1000)).toFixed(0)}`,
  );
  console.log(`ratio           runner / baseline throughput ${(base / run).toFixed(2)}x`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchRunner(Number(process.argv[2] ?? 3));
}
