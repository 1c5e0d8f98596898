/**
 * A run whose every output is held to the one decision (design notes, "Evidence first, verdict
 * last"): the NDJSON stream's evidence and verdict events, JUnit, HTML and the console all agree
 * with the report on every check, and --fail-fast's decision is the one the report keeps. The
 * harness's self-test runs (mutants, variants, stranger venues) go through it, so any output that
 * drifts from decide() fails the suite that met it.
 */
import { runConformance, type RunOptions } from '../conformance/engine/runner.js';
import { partialReason, renderJunit } from '../conformance/report/junit.js';
import { renderHtml } from '../conformance/report/html.js';
import { renderConsole } from '../conformance/report/console.js';
import type { EvidenceEvent } from '../conformance/report/files.js';
import type { CheckReport, RunReport } from '../conformance/judgement/types.js';

/** What disagrees between the report and the other outputs of one run (empty: they agree). */
export function disagreements(
  report: RunReport,
  streamed: readonly CheckReport[],
  evidence: readonly EvidenceEvent[],
): string[] {
  const out: string[] = [];
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  if (streamed.length !== report.checks.length)
    out.push(`stream: ${streamed.length} verdicts for ${report.checks.length} checks`);
  for (const s of streamed) {
    const c = byId.get(s.id);
    if (c === undefined) out.push(`stream: ${s.id} is not in the report`);
    else if (c.status !== s.status || c.cause !== s.cause)
      out.push(`stream: ${s.id} ${s.status} but report ${c.status}`);
  }
  const ran = new Set(evidence.map((e) => e.id));
  for (const c of report.checks)
    if (c.status !== 'skip' && !ran.has(c.id) && c.cause !== 'deadline')
      out.push(`stream: no evidence event for ${c.id}`);
  const junit = renderJunit(report);
  const failures = (junit.match(/<failure /g) ?? []).length;
  const failed = report.checks.filter(
    (c) => (c.status === 'fail' && c.baseline === undefined) || c.baseline?.state === 'stale',
  ).length;
  // a run stopped before any check is one failed case; a partial run (stopped, or cut by its deadline)
  // adds one failed case saying it did not run to its end
  const expected =
    report.stopped !== undefined && report.checks.length === 0
      ? 1
      : failed + (partialReason(report) === undefined ? 0 : 1);
  if (failures !== expected)
    out.push(`junit: ${failures} failures for ${failed} failed checks${expected > failed ? ' and a partial run' : ''}`);
  const html = renderHtml(report);
  for (const c of report.checks) if (!html.includes(c.id)) out.push(`html: ${c.id} missing`);
  const text = renderConsole(report, { color: false });
  const summary = `${report.summary.passed} passed, ${report.summary.failed} failed`;
  if (!text.includes(summary)) out.push(`console: no "${summary}"`);
  return out;
}

/** runConformance, with every output checked against the report; throws naming what disagrees. */
export async function runAgreeing(opts: RunOptions): Promise<RunReport> {
  const streamed: CheckReport[] = [];
  const evidence: EvidenceEvent[] = [];
  const report = await runConformance({
    ...opts,
    onEvidence: (e) => {
      evidence.push(e);
      opts.onEvidence?.(e);
    },
    onCheck: (c) => {
      streamed.push(c);
      opts.onCheck?.(c);
    },
  });
  const wrong = disagreements(report, streamed, evidence);
  if (wrong.length > 0) throw new Error(`the run's outputs disagree with its decisions:\n${wrong.join('\n')}`);
  return report;
}
