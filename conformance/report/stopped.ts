/**
 * The report of a run that ended before any check could (the target did not answer,
 * discovery found nothing accepted, Ctrl-C during discovery): the same files as any run,
 * with `stopped` saying why, so a CI job always has a report to upload and show.
 */
import { kitVersion } from '../../src/paths.js';
import type { CheckDefinition, DiscoveryReport, Strictness, RunReport } from '../judgement/types.js';
import type { RunFacts } from '../judgement/decide.js';
import { createRecordBook } from './run-report.js';

/** Why a run stopped before its checks: see `RunReport.stopped`. */
export type EarlyStop = 'interrupted' | 'discovery' | 'unreachable' | 'error';

/** What an early report needs. */
export interface EarlyStopInfo {
  target: string;
  profile: Strictness;
  seed: number;
  runs: number;
  startedAt: number;
  /** Checks selected; none of them ran. */
  selected: number;
  reason: EarlyStop;
  /** What stopped it, as told to the user (never a credential). */
  message?: string;
  discovery?: DiscoveryReport;
  replayArgs?: readonly string[];
  /** The checks selected: a run stopped by a signal lists each as skipped, with why. */
  checks?: readonly CheckDefinition[];
  /** The signal that stopped it (SIGINT, SIGTERM, SIGHUP). */
  signal?: string;
}

/** What decide() is told of a run that never got to its checks: nothing learnt (a check not run needs no more). */
function nothingLearnt(profile: Strictness): RunFacts {
  return {
    knowledge: { routes: {}, missing: [] },
    profile,
    absent: new Set(),
    controlFailed: new Set(),
    lastAnswered: new Map(),
    budgetLabel: '',
    deadlineLabel: '',
  };
}

/** A valid, schema-conforming report of a run that ran no check. */
export function earlyReport(i: EarlyStopInfo): RunReport {
  // the checks of a run a signal stopped: each skipped, decided as every check is (conformance/judgement/decide.ts)
  const listed = i.reason === 'interrupted' ? (i.checks ?? []) : [];
  const book = createRecordBook(listed, { baseUrl: i.target, seed: i.seed });
  for (const k of listed.keys())
    book.notRun(
      k,
      `not run: the run was stopped (${i.signal ?? 'SIGINT'}) before its first check ended`,
      'interrupted',
    );
  const skipped = book.decideAll(nothingLearnt(i.profile));
  return {
    tool: { name: 'spotcheck', version: kitVersion() ?? '0.0.0' },
    target: i.target,
    profile: i.profile,
    seed: i.seed,
    runs: i.runs,
    startedAt: new Date(i.startedAt).toISOString(),
    durationMs: Math.max(0, Date.now() - i.startedAt),
    requests: 0,
    clock: { method: 'none', note: 'not measured: the run stopped before its checks' },
    summary: { passed: 0, failed: 0, info: 0, skipped: skipped.length, inconclusive: 0, mustFailures: 0 },
    ...(i.discovery === undefined ? {} : { discovery: i.discovery }),
    ...(i.replayArgs === undefined ? {} : { replayArgs: [...i.replayArgs] }),
    stopped: {
      reason: i.reason,
      notRun: i.selected,
      ...(i.message === undefined ? {} : { message: i.message }),
      ...(i.signal === undefined ? {} : { signal: i.signal }),
    },
    checks: skipped,
  };
}

/** The one case a CI viewer shows for a run stopped before its checks: failed, unless the user interrupted it. */
export function stopCase(
  stopped: NonNullable<RunReport['stopped']>,
): { name: string; failed: boolean; message: string } | undefined {
  switch (stopped.reason) {
    case 'discovery':
      return { name: 'discovery', failed: true, message: stopped.message ?? 'no valid request was accepted anywhere' };
    case 'unreachable':
      return { name: 'discovery', failed: true, message: `the target could not be reached: ${stopped.message ?? ''}` };
    case 'error':
      return { name: 'discovery', failed: true, message: `the run stopped on an error: ${stopped.message ?? ''}` };
    default:
      return undefined;
  }
}
