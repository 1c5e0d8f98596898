/**
 * Full default verdicts of the reference server through the 50-150 ms latency proxy, N
 * rounds at one concurrency: how many pass (no failed and no inconclusive check), and
 * which checks failed in the others. `node latency-runs.js ROUNDS CONCURRENCY [SEED0]`.
 */
import { DEFAULT_RUNS, REMOTE_RATE } from '../conformance/cli/run.js';
import { verdict } from './bench/network.js';

const rounds = Number(process.argv[2] ?? 20);
const concurrency = Number(process.argv[3] ?? 16);
const seed0 = Number(process.argv[4] ?? 5000);
let passed = 0;
const times: number[] = [];
for (let i = 0; i < rounds; i++) {
  const { ms, report } = await verdict({
    seed: seed0 + i,
    rtt: [50, 150],
    concurrency,
    ...(concurrency > 2 ? { rate: REMOTE_RATE } : {}),
  });
  const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'inconclusive');
  if (bad.length === 0) passed++;
  times.push(ms);
  console.log(
    `round ${i + 1}/${rounds} seed ${seed0 + i} concurrency ${concurrency}: ${bad.length === 0 ? 'PASS' : 'FAIL'} in ${(ms / 1000).toFixed(1)} s, ${report.requests} requests, ` +
      `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.inconclusive} inconclusive` +
      (bad.length
        ? `: ${bad.map((c) => `${c.id} ${c.status} (${(c.actual ?? c.reason ?? '').slice(0, 160)})`).join('; ')}`
        : ''),
  );
}
times.sort((a, b) => a - b);
console.log(
  `\n${passed} of ${rounds} full default runs (${DEFAULT_RUNS} cases) passed through the 50-150 ms proxy at concurrency ${concurrency}; median ${(((times[Math.floor((rounds - 1) / 2)] ?? 0) + (times[Math.floor(rounds / 2)] ?? 0)) / 2000).toFixed(1)} s`,
);
