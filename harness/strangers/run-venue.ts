/**
 * One run of the kit (core profile unless told) against a stranger venue started for it (harness/strangers/venue.ts).
 */
import { runAgreeing } from '../agreeing-run.js';
import { resolveDescription, type TargetDescription } from '../../conformance/target/description.js';
import type { RunReport, Strictness } from '../../conformance/types.js';
import { startVenue, type VenueChoices, type VenueFaults, type VenueReaders } from './venue.js';

export interface VenueRun {
  report: RunReport;
  /** Orders the venue placed. */
  placed: number;
}

/** Run the checks whose IDs start with `only` (all when empty) against a venue with these choices and faults. */
export async function runVenue(
  choices: VenueChoices,
  faults: VenueFaults = {},
  opts: {
    only?: string[];
    seed?: number;
    runs?: number;
    description?: TargetDescription;
    readers?: Partial<VenueReaders>;
    profile?: Strictness;
  } = {},
): Promise<VenueRun> {
  const venue = await startVenue(choices, faults, opts.readers);
  const profile = resolveDescription({
    ...(choices.noBatch ? { endpoints: { batch: { offered: false } } } : {}),
    ...opts.description,
  });
  try {
    const report = await runAgreeing({
      target: {
        baseUrl: venue.url,
        apiKey: venue.apiKey,
        secret: venue.secret,
        symbol: profile.symbol,
        otherSymbol: profile.otherSymbol,
        profile,
      },
      profile: opts.profile ?? 'core',
      seed: opts.seed ?? 7,
      runs: opts.runs ?? 30,
      rate: 0,
      timeoutMs: 3000,
      only: opts.only ?? [],
      maxOrders: Infinity,
      concurrency: 8,
    });
    return { report, placed: venue.placed() };
  } finally {
    await venue.close();
  }
}

/** The MUST checks that failed. */
export const mustFailures = (r: RunReport): string[] =>
  r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST').map((c) => c.id);

/** The status of one check. */
export const statusOf = (r: RunReport, id: string): string | undefined => r.checks.find((c) => c.id === id)?.status;
