/**
 * JUnit XML: one testcase per check, grouped in a testsuite per family, for CI
 * gates (design notes: `--junit FILE`).
 */
import type { CheckReport, RunReport } from '../types.js';
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
  lines.push(
    `<testsuites name="spotcheck" tests="${r.checks.length}" failures="${r.checks.filter(failing).length}" skipped="${r.checks.filter(skipping).length}" time="${(r.durationMs / 1000).toFixed(3)}">`,
  );
  for (const fam of fams) {
    const list = r.checks.filter((c) => c.family === fam);
    const failures = list.filter(failing).length;
    const skipped = list.filter(skipping).length;
    const time = list.reduce((t, c) => t + c.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${fam}" tests="${list.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">`,
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
