/**
 * One core-profile run against a variant server started for it, with the target description
 * the test declares: the set-up the harness's verdict tests share (the server's seed, the run's
 * seed and cases, and the check families the test reads are theirs).
 */
import { runConformance } from '../conformance/runner.js';
import { resolveDescription, type TargetDescription } from '../conformance/target/description.js';
import type { RunReport } from '../conformance/types.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { startVariant, type VariantOptions } from './variants.js';

export interface VariantRun {
  /** The variant server's own seed. */
  serverSeed: number;
  /** The run's seed and cases per property. */
  seed: number;
  runs: number;
  /** Check ID prefixes to run. */
  only: string[];
}

export async function runVariant(
  options: VariantOptions,
  description: TargetDescription,
  run: VariantRun,
): Promise<RunReport> {
  const v = await startVariant(options, run.serverSeed);
  const profile = resolveDescription(description);
  try {
    return await runConformance({
      target: {
        baseUrl: v.url,
        apiKey: DEMO_API_KEY,
        secret: DEMO_SECRET,
        symbol: profile.symbol,
        otherSymbol: profile.otherSymbol,
        profile,
      },
      profile: 'core',
      seed: run.seed,
      runs: run.runs,
      rate: 0,
      timeoutMs: 5000,
      only: run.only,
      maxOrders: Infinity,
    });
  } finally {
    await v.close();
  }
}
