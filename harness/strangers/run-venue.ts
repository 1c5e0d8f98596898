/**
 * One run of the kit (core profile unless told) against a stranger venue started for it (harness/strangers/venue.ts).
 */
import { runAgreeing } from '../agreeing-run.js';
import { resolveDescription, type TargetDescription } from '../../conformance/target/description.js';
import { DEFAULT_TIMEOUT_MS } from '../../conformance/engine/transport.js';
import type { RunReport, Strictness } from '../../conformance/judgement/types.js';
import { startVenue, type VenueChoices, type VenueFaults, type VenueReaders } from './venue.js';

export interface VenueRun {
  report: RunReport;
  /** Orders the venue placed. */
  placed: number;
}

/** What a run against a stranger venue may set. */
export interface VenueRunOptions {
  only?: string[];
  seed?: number;
  runs?: number;
  description?: TargetDescription;
  /** core (default) or reference. */
  profile?: Strictness;
}

/** Run the checks whose IDs start with `only` (all when empty) against a venue with these choices and faults. */
export async function runVenue(
  choices: VenueChoices,
  faults: VenueFaults = {},
  opts: VenueRunOptions & { readers?: Partial<VenueReaders> } = {},
): Promise<VenueRun> {
  const venue = await startVenue(choices, faults, opts.readers);
  try {
    const description = {
      ...(choices.noBatch ? { endpoints: { batch: { offered: false } } } : {}),
      ...opts.description,
    };
    return { report: await runAgainstVenue(venue, { ...opts, description }), placed: venue.placed() };
  } finally {
    await venue.close();
  }
}

/** One run of the kit (core profile unless told) against a venue already listening (any stranger venue). */
export function runAgainstVenue(
  venue: { url: string; apiKey: string; secret: string },
  opts: VenueRunOptions = {},
): Promise<RunReport> {
  const profile = resolveDescription(opts.description ?? {});
  return runAgreeing({
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
    // the kit's own wait: a loaded machine's slow answer is not a hang (the transport shortens it after repeated silence)
    timeoutMs: DEFAULT_TIMEOUT_MS,
    only: opts.only ?? [],
    maxOrders: Infinity,
    concurrency: 8,
  });
}

/** The MUST checks that failed. */
export const mustFailures = (r: RunReport): string[] =>
  r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST').map((c) => c.id);

/** The status of one check. */
export const statusOf = (r: RunReport, id: string): string | undefined => r.checks.find((c) => c.id === id)?.status;

/** The checks sending the domain catalogue or the credential confusion probes that passed. */
export const domainPasses = (r: RunReport): number =>
  r.checks.filter((c) => /\.(domain|confusion)$/.test(c.id) && c.status === 'pass').length;
