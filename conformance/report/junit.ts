/**
 * JUnit XML: one testcase per check, grouped in a testsuite per family, for CI
 * gates (design notes: `--junit FILE`).
 */
import type { CheckReport, RunReport } from '../judgement/types.js';
import { cellsLine } from './console.js';
import { stopCase } from './stopped.js';

/** Escape text for XML attribute and element content; drops characters XML 1.0 forbids. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A check's route cells as the testcase's output (the coverage matrix cells). */
function cellsOut(c: CheckReport): string {
  return `      <system-out>${xmlEscape(`Routes: ${cellsLine(c.cells ?? [])}`)}</system-out>`;
}

/** Why a run is partial (stopped early, or cut by its deadline), or undefined for a run that ran to its end. */
export function partialReason(r: RunReport): string | undefined {
  const s = r.stopped;
  if (s !== undefined && s.reason !== 'fail-fast')
    return s.reason === 'interrupted'
      ? `stopped by ${s.signal ?? 'SIGINT'}: ${s.notRun} checks not run`
      : s.reason === 'target-down'
        ? `the target stopped answering: ${s.notRun} checks not run (${s.message ?? ''})`
        : `${s.reason}: ${s.message ?? ''}`;
  if (r.deadline?.reached === true)
    return `${r.deadline.default === true ? 'the default deadline' : '--max-time'} (${Math.round(r.deadline.maxTimeMs / 1000)} s) was reached: ${r.deadline.checksNotRun.length} checks not run or cut short`;
  return undefined;
}

/** The suite properties of a partial run: a CI dashboard reads that it is one, and why. */
function partialProperties(r: RunReport): string[] {
  const why = partialReason(r);
  if (why === undefined) return [];
  return [
    '    <properties>',
    '      <property name="spotcheck.partial" value="true"/>',
    `      <property name="spotcheck.stopped" value="${xmlEscape(r.stopped?.reason ?? 'deadline')}"/>`,
    ...(r.stopped?.signal === undefined
      ? []
      : [`      <property name="spotcheck.signal" value="${xmlEscape(r.stopped.signal)}"/>`]),
    `      <property name="spotcheck.reason" value="${xmlEscape(why)}"/>`,
    '    </properties>',
  ];
}

/** Render a report as JUnit XML. */
export function renderJunit(r: RunReport): string {
  const fams = [...new Set(r.checks.map((c) => c.family))];
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // A run stopped before its checks (unreachable, discovery found nothing accepted): one failed case says why.
  const stop = r.stopped === undefined || r.checks.length > 0 ? undefined : stopCase(r.stopped);
  if (stop !== undefined) {
    const msg = xmlEscape(stop.message);
    lines.push(
      `<testsuites name="spotcheck" tests="1" failures="1" skipped="0" time="${(r.durationMs / 1000).toFixed(3)}">`,
      `  <testsuite name="discovery" tests="1" failures="1" skipped="0" time="${(r.durationMs / 1000).toFixed(3)}">`,
      `    <testcase classname="spotcheck.discovery" name="${stop.name}" time="${(r.durationMs / 1000).toFixed(3)}">`,
      `      <failure message="${xmlEscape(stop.message.split('\n')[0] ?? '')}" type="DISCOVERY">${msg}</failure>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
    );
    return `${lines.join('\n')}\n`;
  }
  // A baselined failure is a skipped testcase (accepted for now); a stale baseline entry a failed one.
  const failing = (c: CheckReport) =>
    (c.status === 'fail' && c.baseline === undefined) || c.baseline?.state === 'stale';
  const skipping = (c: CheckReport) =>
    c.status === 'skip' || c.status === 'inconclusive' || c.baseline?.state === 'expected-failure';
  // a partial run is never green: one failed case says it did not run to its end, and why
  const partial = partialReason(r);
  const extra = partial === undefined ? 0 : 1;
  lines.push(
    `<testsuites name="spotcheck" tests="${r.checks.length + extra}" failures="${r.checks.filter(failing).length + extra}" skipped="${r.checks.filter(skipping).length}" time="${(r.durationMs / 1000).toFixed(3)}">`,
  );
  if (partial !== undefined)
    lines.push(
      `  <testsuite name="run" tests="1" failures="1" skipped="0" time="${(r.durationMs / 1000).toFixed(3)}">`,
      ...partialProperties(r),
      `    <testcase classname="spotcheck.run" name="the run ran to its end" time="${(r.durationMs / 1000).toFixed(3)}">`,
      `      <failure message="${xmlEscape(`PARTIAL: ${partial}`)}" type="PARTIAL">${xmlEscape(`${partial}\nThe checks not run are skipped testcases, each with its reason.`)}</failure>`,
      '    </testcase>',
      '  </testsuite>',
    );
  for (const fam of fams) {
    const list = r.checks.filter((c) => c.family === fam);
    const failures = list.filter(failing).length;
    const skipped = list.filter(skipping).length;
    const time = list.reduce((t, c) => t + c.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${fam}" tests="${list.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">`,
      ...partialProperties(r),
    );
    for (const c of list) {
      const open = `    <testcase classname="spotcheck.${fam}" name="${xmlEscape(`${c.id} [${c.level}] ${c.title}`)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
      if (c.baseline?.state === 'stale') {
        const msg = `stale baseline entry: ${c.id} passes now; remove it from the baseline file (listed because: ${c.baseline.reason})`;
        lines.push(
          `${open}>`,
          `      <failure message="${xmlEscape(msg)}" type="STALE-BASELINE">${xmlEscape(msg)}</failure>`,
          '    </testcase>',
        );
      } else if (c.baseline?.state === 'expected-failure') {
        lines.push(
          `${open}>`,
          `      <skipped message="${xmlEscape(`BASELINED (known failure): ${c.baseline.reason}`)}"/>`,
          `      <system-out>${xmlEscape(`Actual: ${c.actual ?? ''}`)}</system-out>`,
          '    </testcase>',
        );
      } else if (c.status === 'pass') {
        lines.push(
          c.cells === undefined ? `${open}/>` : `${open}>`,
          ...(c.cells === undefined ? [] : [cellsOut(c), '    </testcase>']),
        );
      } else if (c.status === 'skip' || c.status === 'inconclusive') {
        const why = c.status === 'inconclusive' ? `INCONCLUSIVE: ${c.reason ?? ''}` : (c.reason ?? '');
        lines.push(
          `${open}>`,
          `      <skipped message="${xmlEscape(why)}"/>`,
          ...(c.cells === undefined ? [] : [cellsOut(c)]),
          '    </testcase>',
        );
      } else if (c.status === 'info') {
        lines.push(
          `${open}>`,
          `      <system-out>${xmlEscape(`INFO: ${c.observed ?? ''}`)}</system-out>`,
          '    </testcase>',
        );
      } else {
        const body = [
          `Requirement (§${c.section}): ${c.requirement}`,
          `Expected: ${c.expected ?? ''}`,
          `Actual: ${c.actual ?? ''}`,
          ...(c.failures === undefined || c.failures.length < 2
            ? []
            : [
                `Every failing form (${c.failures.length}):`,
                ...c.failures.map((x) => `  ${x.forms.join(' + ')} on ${x.route}: ${x.actual}`),
              ]),
          ...(c.cells === undefined ? [] : [`Routes: ${cellsLine(c.cells)}`]),
          ...(c.replay === undefined ? [] : [`Replay: ${c.replay}`]),
          c.reproduce ?? '',
        ].join('\n');
        lines.push(
          `${open}>`,
          `      <failure message="${xmlEscape(`${c.level}: expected ${c.expected ?? ''}`)}" type="${c.level}">${xmlEscape(body)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
