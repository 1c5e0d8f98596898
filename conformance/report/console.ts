/**
 * Console output of a run: an h2spec-like tree grouped by family, a Failures
 * section (Requirement / Expected / Actual / reproduction), and the summary line.
 */
import { NO_TRADE_SECRET_VAR } from '../curl.js';
import type { CheckReport, RunReport } from '../types.js';
import { RULE_FAMILIES } from '../../src/core/rule-id.js';


/** The rule catalog page, relative to the docs site root (built by `npm run docs`). */
export const RULES_PAGE = 'documents/Rule_catalog.html';

export interface ConsoleStyle {
  color: boolean;
  /** URL of the rule catalog page of the docs site; each rule's anchor is its ID. Default: the page's path in the site. */
  rulesUrl?: string;
}

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

function mark(c: CheckReport, color: boolean): string {
  switch (c.status) {
    case 'pass':
      return paint(color, '32', '✔');
    case 'fail':
      return paint(color, '31', '✖');
    case 'info':
      return paint(color, '36', 'i');
    case 'skip':
      return paint(color, '33', '-');
    case 'inconclusive':
      return paint(color, '35', '?');
  }
}

function indent(s: string, n: number): string {
  const pad = ' '.repeat(n);
  return s
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

/** The summary line, e.g. `66 passed, 1 failed, 10 info, 0 skipped` (`, N inconclusive` added when there are any). */
export function summaryLine(r: RunReport): string {
  const s = r.summary;
  const inconclusive = s.inconclusive > 0 ? `, ${s.inconclusive} inconclusive` : '';
  const baselined = s.baselined !== undefined && s.baselined > 0 ? `, ${s.baselined} baselined` : '';
  const stale = s.stale !== undefined && s.stale > 0 ? `, ${s.stale} stale baseline` : '';
  return `${s.passed} passed, ${s.failed} failed, ${s.info} info, ${s.skipped} skipped${inconclusive}${baselined}${stale}`;
}

/** What discovery found: routes with their positive controls, the rejection fingerprints, deviations, rate limits. */
export function discoveryLines(r: RunReport): string[] {
  const out: string[] = [];
  const d = r.discovery;
  if (d !== undefined) {
    const by = (state: string) => d.controls.filter((c) => c.state === state).map((c) => c.route);
    out.push(`discovery: accepting ${by('accepted').join(', ') || 'nothing'}`);
    for (const state of ['signature-ok', 'refused', 'not-offered'] as const) {
      const list = d.controls.filter((c) => c.state === state);
      if (list.length === 0) continue;
      const label = state === 'signature-ok' ? 'signature accepted, order refused' : state === 'refused' ? 'no positive control' : 'not offered';
      out.push(`  ${label}: ${list.map((c) => `${c.route} (${c.observed.slice(0, 80)})`).join('; ')}`);
    }
    const f = d.fingerprints;
    out.push(`  fingerprints: bad signature ${f.signature ?? '?'}; unknown key ${f.unknownKey ?? '?'}; stale timestamp ${f.stale ?? '?'}`);
  }
  if (r.deviations !== undefined && r.deviations.length > 0) out.push(`target deviations: ${r.deviations.join('; ')}`);
  if (r.exhausted !== undefined) out.push(`account: ${r.exhausted}`);
  const rl = r.rateLimits;
  if (rl !== undefined && rl.responses > 0) out.push(`rate limited ${rl.responses} times: ${rl.retried} resent after waiting ${rl.waitedMs} ms, ${rl.gaveUp} gave up (inconclusive)`);
  return out;
}

/** Render the whole report for a terminal. */
export function renderConsole(r: RunReport, style: ConsoleStyle): string {
  const out: string[] = [];
  out.push(`spotcheck ${r.tool.version}: ${r.target}  profile=${r.profile}  seed=${r.seed}  runs=${r.runs}`);
  const c = r.clock;
  out.push(
    c.offsetMs === undefined
      ? `server clock: not measured (${c.note ?? 'unknown'}); time checks skipped`
      : `server clock: offset ${c.offsetMs} ms ± ${c.uncertaintyMs ?? '?'} ms (${c.method})`,
  );
  out.push(...discoveryLines(r), '');
  for (const fam of RULE_FAMILIES) {
    const list = r.checks.filter((x) => x.family === fam);
    if (list.length === 0) continue;
    out.push(paint(style.color, '1', fam));
    for (const x of list) {
      const note =
        x.status === 'info' ? `: ${x.observed ?? ''}` : x.status === 'skip' ? ` (skipped: ${x.reason ?? ''})` : x.status === 'inconclusive' ? ` (inconclusive: ${x.reason ?? ''})` : '';
      const listed = x.baseline === undefined ? '' : x.baseline.state === 'stale' ? ' (STALE baseline entry: passes now)' : ' (baselined)';
      out.push(`  ${mark(x, style.color)} ${x.id} [${x.level}, §${x.section}] ${x.title}${note}${listed}`);
    }
  }
  const failures = r.checks.filter((x) => x.status === 'fail');
  if (failures.length > 0) {
    out.push('', paint(style.color, '1;31', 'Failures:'));
    failures.forEach((f, i) => {
      const listed = f.baseline === undefined ? '' : `  (baselined: ${f.baseline.reason})`;
      out.push('', `${i + 1}) ${f.id} [${f.level}, §${f.section}] ${f.title}${listed}`);
      out.push(`   Requirement: ${f.requirement}`);
      if (f.expected !== undefined) out.push(`   Expected: ${f.expected}`);
      if (f.actual !== undefined) out.push(`   Actual:   ${f.actual}`);
      if (f.counterexample !== undefined) out.push(`   Counterexample (after ${f.runs ?? '?'} runs, shrunk): ${f.counterexample.slice(0, 400)}`);
      out.push(`   Rule: ${style.rulesUrl ?? RULES_PAGE}#${f.ruleId}`);
      out.push(`   Replay: ${f.replay ?? `spotcheck replay --seed ${r.seed} --only ${f.id}`}`);
      if (f.reproduce !== undefined) {
        const vars = f.reproduce.includes(`$${NO_TRADE_SECRET_VAR}`) ? `SPOTCHECK_SECRET and ${NO_TRADE_SECRET_VAR}` : 'SPOTCHECK_SECRET';
        out.push(`   Reproduce with (export ${vars} first):`, indent(f.reproduce, 5));
      }
    });
  }
  const stale = r.checks.filter((x) => x.baseline?.state === 'stale');
  if (stale.length > 0) {
    out.push('', paint(style.color, '1;31', 'Stale baseline entries (these checks pass now: remove them from the baseline file):'));
    for (const x of stale) out.push(`  ${x.id}  (listed because: ${x.baseline?.reason ?? ''})`);
  }
  out.push('', `${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s; seed ${r.seed}`);
  out.push(summaryLine(r));
  return `${out.join('\n')}\n`;
}
