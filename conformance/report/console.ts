/**
 * Console output of a run: an h2spec-like tree grouped by family, a Failures
 * section (Requirement / Expected / Actual / reproduction), and the summary line.
 */
import { NO_TRADE_SECRET_VAR } from './curl.js';
import type { CheckReport, RunReport } from '../judgement/types.js';
import type { RouteCell } from '../judgement/verdict.js';
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

/** Where the tree's short lines are written whole; said once under the tree. */
export const TREE_NOTE =
  "each check's title: spotcheck run --list; whole observations and answers: --report-json, --report-html";

/** The longest console line of a check, its mark and indent included (its route cells wrap at 100 columns). */
export const CHECK_LINE_MAX = 300;

/** What an undecided or skipped check's line keeps of its title (whole words). */
const TITLE_MAX = 110;

/**
 * A server's answer body inside an observation, `(HTTP 200 {"code":0,...})` or cut short
 * `(HTTP 200 {"code":0,"transactTime"…)`: from the body's first bracket to the `}` or `]` (or
 * the `…` of a cut answer) closing the parenthesis before a `;`, `,`, a space or the end.
 */
const ANSWER_BODY = /\(HTTP (\d{3}) [{[][\s\S]*?(?:…|[}\]])\)(?=[;,\s]|$)/g;

/** `text` without its parenthesised explanations (balanced, at any depth), those holding `HTTP ddd` kept; an unbalanced one is kept. */
function withoutAsides(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '(' && !/^\(HTTP \d{3}/.test(text.slice(i))) {
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      if (j < text.length) {
        out = out.replace(/ $/, '');
        i = j + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** `text` split at its top-level `; ` (outside parentheses and brackets). */
function topItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === ';' && text[i + 1] === ' ' && depth === 0) {
      items.push(text.slice(from, i));
      from = i + 2;
    }
  }
  items.push(text.slice(from));
  return items.filter((s) => s.trim() !== '');
}

/**
 * An observation in at most `max` characters for one console line: what the server did and
 * on which route, the answers' bodies left to the JSON and HTML reports (`HTTP 400` kept); when
 * that is still too long, the parenthesised explanations go too, then whole items (`; `-separated)
 * from the end, the line saying how many more the reports hold.
 */
export function shortObservation(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(ANSWER_BODY, '(HTTP $1)');
  if (flat.length <= max) return flat;
  const plain = withoutAsides(flat);
  if (plain.length <= max) return plain;
  const items = topItems(plain);
  const kept: string[] = [];
  for (const [i, item] of items.entries()) {
    const more = items.length - i - 1;
    const tail = more === 0 ? '' : `; … ${more} more in the reports`;
    const line = [...kept, item].join('; ') + tail;
    if (line.length > max) break;
    kept.push(item);
  }
  if (kept.length === 0) return clipWords(plain, max);
  const more = items.length - kept.length;
  return more === 0 ? kept.join('; ') : `${kept.join('; ')}; … ${more} more in the reports`;
}

/**
 * One check's console line, at most CHECK_LINE_MAX characters: its mark, ID, level and seed
 * section, then what a reader needs of it: nothing more for a pass (its title is in `run --list`
 * and the reports), what the server did for an INFO, the title and the reason for a skip, an
 * inconclusive check or a failure (a failure's whole text follows under Failures).
 */
export function checkLine(x: CheckReport, color: boolean): string {
  const listed =
    x.baseline === undefined
      ? ''
      : x.baseline.state === 'stale'
        ? ' (STALE baseline entry: passes now)'
        : ' (baselined)';
  const head = `  ${mark(x, color)} ${x.id} [${x.level}, §${x.section}]`;
  // the mark's color codes take no column
  const width = head.length - (color ? 9 : 0) + listed.length;
  const room = Math.max(40, CHECK_LINE_MAX - width);
  switch (x.status) {
    case 'pass':
      return `${head}${listed}`;
    case 'info':
      return `${head} ${shortObservation(x.observed ?? clipWords(x.title, TITLE_MAX), room - 1)}${listed}`;
    case 'fail':
      return `${head} ${clipWords(x.title, room - 1)}${listed}`;
    case 'skip':
    case 'inconclusive': {
      const title = clipWords(x.title, Math.min(TITLE_MAX, room - 40));
      const label = x.status === 'skip' ? 'skipped' : 'inconclusive';
      return `${head} ${title} (${label}: ${clipWords(x.reason ?? '', room - title.length - label.length - 6)})${listed}`;
    }
  }
}

/** Render the whole report for a terminal. */
/** Failing forms of one check the console lists (the JSON report has them all). */
const FAILING_FORMS_SHOWN = 12;

/** The causes of a check never started because the run stopped (conformance/judgement/decide.ts notRun). */
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
      out.push(checkLine(x, style.color));
      // the routes, when they did not all pass (a pass means every offered route was decided)
      if (x.cells?.some((c) => c.verdict !== 'pass')) out.push(...cellsLines(x.cells, '      '));
    }
  }
  out.push(`  (${TREE_NOTE})`);
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
      if (f.failures !== undefined && f.failures.length > 1) {
        out.push(`   Every failing form (${f.failures.length}):`);
        for (const x of f.failures.slice(0, FAILING_FORMS_SHOWN))
          out.push(
            `     - ${x.forms.join(' + ')} on ${x.route}: ${x.actual.length > 160 ? `${x.actual.slice(0, 159)}…` : x.actual}`,
          );
        if (f.failures.length > FAILING_FORMS_SHOWN)
          out.push(`     … ${f.failures.length - FAILING_FORMS_SHOWN} more in the JSON report (failures)`);
      }
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
