/**
 * Console output of a run: an h2spec-like tree grouped by family, a Failures
 * section (Requirement / Expected / Actual / reproduction), and the summary line.
 */
import { NO_TRADE_SECRET_VAR } from '../curl.js';
import type { CheckReport, RunReport } from '../types.js';
import type { RouteCell } from '../verdict.js';
import { RULE_FAMILIES } from '../../src/core/rule-id.js';
import { clipWords, packItems, wrapWords } from './words.js';
import { protocolLine, type ReportWithProtocols } from './protocols.js';

/** The rule catalog page, relative to the docs site root (built by `npm run docs`). */
export const RULES_PAGE = 'documents/Rule_catalog.html';

export interface ConsoleStyle {
  color: boolean;
  /** URL of the rule catalog page of the docs site; each rule's anchor is its ID. Default: the page's path in the site. */
  rulesUrl?: string;
  /** The whole `Rule:` line after the label, per rule ID (overrides `rulesUrl`): where the rule can be read and what that place is. */
  ruleLink?: (ruleId: string) => string;
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

const CELL_MARK: Record<RouteCell['verdict'], string> = {
  pass: '✔',
  fail: '✖',
  inconclusive: '?',
  unanswered: '…',
  'not-offered': '-',
};

/** One route's verdict, and the reason of an undecided one (whole words, at most 100 characters). */
function cellItem(c: RouteCell): string {
  return `${c.route} ${CELL_MARK[c.verdict]}${c.verdict === 'inconclusive' || c.verdict === 'unanswered' ? ` (${clipWords(c.reason ?? c.verdict, 100)})` : ''}`;
}

/** A check's cells on one line, e.g. `batch/json ✔  v1/query ✖  v1/body ? (no positive control ...)`: each route's verdict, the reason of an undecided one. */
export function cellsLine(cells: readonly RouteCell[]): string {
  return cells.map(cellItem).join('  ');
}

/** The same, wrapped for the console: lines of at most 100 characters, broken between routes or words. */
export function cellsLines(cells: readonly RouteCell[], indent: string): string[] {
  return packItems(cells.map(cellItem), 100, indent);
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

/** The route cells line, e.g. `route cells: 317 passed, 0 failed, 0 inconclusive, 0 unanswered, 0 not offered`; undefined without cells. */
export function cellsSummaryLine(r: RunReport): string | undefined {
  const c = r.summary.cells;
  return c === undefined
    ? undefined
    : `route cells: ${c.pass} passed, ${c.fail} failed, ${c.inconclusive} inconclusive, ${c.unanswered} unanswered, ${c.notOffered} not offered`;
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
      const label =
        state === 'signature-ok'
          ? 'signature accepted, order refused'
          : state === 'refused'
            ? 'no positive control'
            : 'not offered';
      out.push(
        ...wrapWords(
          `  ${label}: ${list.map((c) => `${c.route} (${clipWords(c.observed, 80)})`).join('; ')}`,
          100,
          '    ',
        ),
      );
    }
    const f = d.fingerprints;
    out.push(
      `  fingerprints: bad signature ${f.signature ?? '?'}; unknown key ${f.unknownKey ?? '?'}; stale timestamp ${f.stale ?? '?'}${f.missing === undefined ? '' : `; missing signature, key, timestamp ${f.missing.join(', ')}`}`,
    );
    for (const l of d.learned ?? [])
      out.push(
        `  learnt mid-run: valid orders on ${l.route} meet ${clipWords(l.refusal, 100)} (a business refusal: never a rule's rejection)`,
      );
  }
  const u = r.unanswered;
  if (u !== undefined && u.count > 0) {
    out.push(
      `no answer to ${u.count} requests${u.shortenedToMs === undefined ? '' : `; the wait was shortened from ${u.timeoutMs} ms to ${u.shortenedToMs} ms after repeated silence (4x the slowest answer measured)`}:`,
    );
    for (const p of u.probes.slice(0, 5)) out.push(`  ${clipWords(p, 160)}`);
    if (u.count > 5) out.push(`  ... (${u.count - 5} more in the JSON report's unanswered.probes, up to 20)`);
  }
  if (r.deviations !== undefined && r.deviations.length > 0) out.push(`target deviations: ${r.deviations.join('; ')}`);
  if (r.exhausted !== undefined) out.push(`account: ${r.exhausted}`);
  const rl = r.rateLimits;
  if (rl !== undefined && rl.responses > 0)
    out.push(
      `rate limited ${rl.responses} times: ${rl.retried} resent after waiting ${rl.waitedMs} ms, ${rl.gaveUp} gave up (inconclusive)`,
    );
  return out;
}

/** Render the whole report for a terminal. */
/** The causes of a check never started because the run stopped (conformance/decide.ts notRun). */
const STOPPED_CAUSES: ReadonlySet<string> = new Set(['target-down', 'interrupted', 'fail-fast']);

export function renderConsole(r: RunReport, style: ConsoleStyle): string {
  const out: string[] = [];
  out.push(`spotcheck ${r.tool.version}: ${r.target}  profile=${r.profile}  seed=${r.seed}  runs=${r.runs}`);
  const c = r.clock;
  out.push(
    c.offsetMs === undefined
      ? `server clock: not measured (${c.note ?? 'unknown'}); time checks skipped`
      : `server clock: offset ${c.offsetMs} ms ± ${c.uncertaintyMs ?? '?'} ms (${c.method})`,
  );
  const protocols = (r as ReportWithProtocols).protocols;
  if (protocols !== undefined) out.push(protocolLine(protocols));
  out.push(...discoveryLines(r), '');
  // checks the run never started (it stopped): one line, not one each
  const notRun = r.checks.filter((x) => x.status === 'skip' && x.cause !== undefined && STOPPED_CAUSES.has(x.cause));
  for (const fam of RULE_FAMILIES) {
    const list = r.checks.filter((x) => x.family === fam && !notRun.includes(x));
    if (list.length === 0) continue;
    out.push(paint(style.color, '1', fam));
    for (const x of list) {
      const note =
        x.status === 'info'
          ? `: ${x.observed ?? ''}`
          : x.status === 'skip'
            ? ` (skipped: ${x.reason ?? ''})`
            : x.status === 'inconclusive'
              ? ` (inconclusive: ${x.reason ?? ''})`
              : '';
      const listed =
        x.baseline === undefined
          ? ''
          : x.baseline.state === 'stale'
            ? ' (STALE baseline entry: passes now)'
            : ' (baselined)';
      out.push(`  ${mark(x, style.color)} ${x.id} [${x.level}, §${x.section}] ${x.title}${note}${listed}`);
      // the routes, when they did not all pass (a pass means every offered route was decided)
      if (x.cells?.some((c) => c.verdict !== 'pass')) out.push(...cellsLines(x.cells, '      '));
    }
  }
  if (notRun.length > 0)
    out.push(
      '',
      `Not run (${notRun.length}, status skip): ${notRun[0]?.reason ?? ''}: ${notRun
        .slice(0, 12)
        .map((x) => x.id)
        .join(', ')}${notRun.length > 12 ? `, … (${notRun.length - 12} more in the JSON report)` : ''}`,
    );
  const failures = r.checks.filter((x) => x.status === 'fail');
  if (failures.length > 0) {
    out.push('', paint(style.color, '1;31', 'Failures:'));
    failures.forEach((f, i) => {
      const listed = f.baseline === undefined ? '' : `  (baselined: ${f.baseline.reason})`;
      out.push('', `${i + 1}) ${f.id} [${f.level}, §${f.section}] ${f.title}${listed}`);
      out.push(`   Requirement: ${f.requirement}`);
      if (f.expected !== undefined) out.push(`   Expected: ${f.expected}`);
      if (f.actual !== undefined) out.push(`   Actual:   ${f.actual}`);
      if (f.counterexample !== undefined)
        out.push(`   Counterexample (after ${f.runs ?? '?'} runs, shrunk): ${f.counterexample.slice(0, 400)}`);
      out.push(`   Rule: ${style.ruleLink?.(f.ruleId) ?? `${style.rulesUrl ?? RULES_PAGE}#${f.ruleId}`}`);
      out.push(`   Replay: ${f.replay ?? `spotcheck replay --seed ${r.seed} --only ${f.id}`}`);
      if (f.reproduce !== undefined) {
        const vars = f.reproduce.includes(`$${NO_TRADE_SECRET_VAR}`)
          ? `SPOTCHECK_SECRET and ${NO_TRADE_SECRET_VAR}`
          : 'SPOTCHECK_SECRET';
        out.push(`   Reproduce with (export ${vars} first):`, indent(f.reproduce, 5));
      }
    });
  }
  const stale = r.checks.filter((x) => x.baseline?.state === 'stale');
  if (stale.length > 0) {
    out.push(
      '',
      paint(style.color, '1;31', 'Stale baseline entries (these checks pass now: remove them from the baseline file):'),
    );
    for (const x of stale) out.push(`  ${x.id}  (listed because: ${x.baseline?.reason ?? ''})`);
  }
  out.push('', `${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s; seed ${r.seed}`);
  const cells = cellsSummaryLine(r);
  if (cells !== undefined) out.push(cells);
  out.push(summaryLine(r));
  return `${out.join('\n')}\n`;
}
