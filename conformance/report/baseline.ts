/**
 * A known-failures baseline for CI gates: a JSON file listing check IDs
 * expected to fail, each with a reason. A listed failure does not fail the run; a
 * listed check that passes does (the entry is stale and should go); the report says
 * which were baselined.
 */
import { readFileSync } from 'node:fs';
import { SpotcheckError } from '../../src/core/errors.js';
import type { CheckReport, RunReport } from '../judgement/types.js';

export interface BaselineEntry {
  /** A check ID as printed by `spotcheck run --list` (e.g. `SIG-CASE-INSENSITIVE`). */
  id: string;
  /** Why the failure is accepted for now (printed and reported). */
  reason: string;
}

/** Problems of a parsed baseline, as lines (empty: valid). `known` are the check IDs that exist. */
export function baselineIssues(value: unknown, known: ReadonlySet<string>): string[] {
  if (!Array.isArray(value)) return ['the file must hold a JSON array of {"id": "...", "reason": "..."}'];
  const issues: string[] = [];
  const seen = new Set<string>();
  value.forEach((e: unknown, i) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return void issues.push(`[${i}] is not an object`);
    const { id, reason, ...extra } = e as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') issues.push(`[${i}].id must be a check ID`);
    else if (!known.has(id)) issues.push(`[${i}].id '${id}' is no check (spotcheck run --list shows them)`);
    else if (seen.has(id)) issues.push(`[${i}].id '${id}' is listed twice`);
    else seen.add(id);
    if (typeof reason !== 'string' || reason.trim() === '')
      issues.push(`[${i}].reason must say why the failure is accepted`);
    for (const k of Object.keys(extra)) issues.push(`[${i}] has an unknown field '${k}'`);
  });
  return issues;
}

/** Read and check a baseline file (`--baseline FILE`); a usage error names every problem. */
export function loadBaseline(file: string, known: ReadonlySet<string>): BaselineEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why =
      err instanceof SyntaxError ? `not JSON (${err.message})` : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw new SpotcheckError('ERR_USAGE', `--baseline: cannot read ${file}: ${why}`);
  }
  const issues = baselineIssues(value, known);
  if (issues.length > 0) throw new SpotcheckError('ERR_USAGE', `--baseline: ${file}:\n  ${issues.join('\n  ')}`);
  return value as BaselineEntry[];
}

/**
 * The report with the baseline applied: listed failures marked `expected-failure`,
 * counted in `baselined` and left out of `failed` and `mustFailures`; listed checks that passed marked `stale`. Checks not run,
 * skipped, info or inconclusive are left alone (they prove nothing either way).
 */
export function applyBaseline(report: RunReport, entries: readonly BaselineEntry[]): RunReport {
  const checks = report.checks.map((c) => markCheck(c, entries));
  const baselined = checks.filter((c) => c.baseline?.state === 'expected-failure').length;
  const stale = checks.filter((c) => c.baseline?.state === 'stale').length;
  const mustFailures = checks.filter(
    (c) => c.status === 'fail' && c.level === 'MUST' && c.baseline === undefined,
  ).length;
  // a baselined failure is counted apart, never in `failed` (which would sit beside exit 0)
  const failed = checks.filter((c) => c.status === 'fail' && c.baseline === undefined).length;
  return { ...report, checks, summary: { ...report.summary, failed, mustFailures, baselined, stale } };
}

/** One check with its baseline state, if the baseline lists it and its status says something. */
export function markCheck(c: CheckReport, entries: readonly BaselineEntry[]): CheckReport {
  const reason = entries.find((e) => e.id === c.id)?.reason;
  if (reason === undefined) return c;
  if (c.status === 'fail') return { ...c, baseline: { state: 'expected-failure', reason } };
  if (c.status === 'pass') return { ...c, baseline: { state: 'stale', reason } };
  return c;
}

/** Whether a (baselined) report fails the gate: an unlisted MUST failure (or SHOULD with strict), or a stale entry. */
export function gateFails(report: RunReport, strict: boolean): boolean {
  const open = report.checks.filter((c) => c.status === 'fail' && c.baseline === undefined);
  return open.some((c) => c.level === 'MUST' || (strict && c.level === 'SHOULD')) || (report.summary.stale ?? 0) > 0;
}
