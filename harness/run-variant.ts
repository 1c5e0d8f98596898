/**
 * One core-profile run against a variant server started for it, with the target description
 * the test declares: the set-up the harness's verdict tests share (the server's seed, the run's
 * seed and cases, and the check families the test reads are theirs).
 */
import { DEFAULT_TIMEOUT_MS } from '../conformance/engine/transport.js';
import { runAgreeing } from './agreeing-run.js';
import { resolveDescription, type TargetDescription } from '../conformance/target/description.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { startVariant, type RunningVariant, type VariantOptions } from './variants.js';

export interface VariantRun {
  /** The variant server's own seed. */
  serverSeed: number;
  /** The run's seed and cases per property. */
  seed: number;
  runs: number;
  /** Check ID prefixes to run (empty: every check). */
  only: string[];
  /** The secret the run signs with (default: the demo key's). */
  secret?: string;
}

/** The run's report and the variant it was earned against (closed; its counters stay readable). */
export async function runVariantServed(
  options: VariantOptions,
  description: TargetDescription,
  run: VariantRun,
): Promise<{ report: RunReport; variant: RunningVariant }> {
  const variant = await startVariant(options, run.serverSeed);
  const profile = resolveDescription(description);
  try {
    const report = await runAgreeing({
      target: {
        baseUrl: variant.url,
        apiKey: DEMO_API_KEY,
        secret: run.secret ?? DEMO_SECRET,
        symbol: profile.symbol,
        otherSymbol: profile.otherSymbol,
        profile,
      },
      profile: 'core',
      seed: run.seed,
      runs: run.runs,
      rate: 0,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      only: run.only,
      maxOrders: Infinity,
    });
    return { report, variant };
  } finally {
    await variant.close();
  }
}

export async function runVariant(
  options: VariantOptions,
  description: TargetDescription,
  run: VariantRun,
): Promise<RunReport> {
  return (await runVariantServed(options, description, run)).report;
}

/** The IDs of a report's checks with this status, sorted. */
export const idsWith = (r: RunReport, status: string): string[] =>
  r.checks
    .filter((c) => c.status === status)
    .map((c) => c.id)
    .sort();

/** The variant each report of `checkVariant` was earned against (its counters stay readable after it closed). */
export const servedBy = new WeakMap<RunReport, RunningVariant>();

/**
 * The variant tests' run: server seed 7, run seed 11 and 4 cases per property (they test how
 * verdicts are earned, not the depth of the properties), every check unless the test names the
 * families its assertions read.
 */
export async function checkVariant(
  opts: VariantOptions,
  description: TargetDescription = {},
  run: Partial<Pick<VariantRun, 'secret' | 'runs' | 'only'>> = {},
): Promise<RunReport> {
  const { report, variant } = await runVariantServed(opts, description, {
    serverSeed: 7,
    seed: 11,
    runs: 4,
    only: [],
    ...run,
  });
  servedBy.set(report, variant);
  return report;
}

/** A report's check by ID. */
export const byId = (r: RunReport, id: string) => r.checks.find((c) => c.id === id);
