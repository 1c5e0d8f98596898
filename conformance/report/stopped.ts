/**
 * The report of a run that ended before any check could (the target did not answer,
 * discovery found nothing accepted, Ctrl-C during discovery): the same files as any run,
 * with `stopped` saying why, so a CI job always has a report to upload and show.
 */
import { readKitJson } from '../../src/paths.js';
import type { DiscoveryReport, Strictness, RunReport } from '../types.js';

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
}

function kitVersion(): string {
  try {
    return readKitJson<{ version: string }>('package.json').version;
  } catch {
    return '0.0.0';
  }
}

/** A valid, schema-conforming report of a run that ran no check. */
export function earlyReport(i: EarlyStopInfo): RunReport {
  return {
    tool: { name: 'spotcheck', version: kitVersion() },
    target: i.target,
    profile: i.profile,
    seed: i.seed,
    runs: i.runs,
    startedAt: new Date(i.startedAt).toISOString(),
    durationMs: Math.max(0, Date.now() - i.startedAt),
    requests: 0,
    clock: { method: 'none', note: 'not measured: the run stopped before its checks' },
    summary: { passed: 0, failed: 0, info: 0, skipped: 0, inconclusive: 0, mustFailures: 0 },
    ...(i.discovery === undefined ? {} : { discovery: i.discovery }),
    ...(i.replayArgs === undefined ? {} : { replayArgs: [...i.replayArgs] }),
    stopped: { reason: i.reason, notRun: i.selected, ...(i.message === undefined ? {} : { message: i.message }) },
    checks: [],
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
