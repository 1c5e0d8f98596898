/**
 * Vitest global set-up: with SPOTCHECK_CPU_BURN=N, N CPU-burning processes run beside the whole
 * suite (`npm run test:burn`: the mutant, route-mutant, edge-mutant, variant and stranger suites
 * under load must give the same verdicts, load does not change a verdict). Without it, nothing is started.
 */
import { burnersWanted, startBurn } from './cpu-burn.js';

export default function setup(): () => void {
  const n = burnersWanted();
  if (n === 0) return () => undefined;
  process.stderr.write(`SPOTCHECK_CPU_BURN=${n}: ${n} CPU-burning processes run beside the suite\n`);
  return startBurn(n);
}
