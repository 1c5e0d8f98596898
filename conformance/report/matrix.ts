/**
 * The implementations matrix (`spotcheck matrix`): several targets' runs side by side,
 * rules x targets, each cell the rule's status on that target (the worst of its route
 * cells) linking to the rule in that target's HTML report. Written as DIR/matrix.json
 * and DIR/matrix.html beside each target's own reports.
 */
import { rules } from '../../src/rules.js';
import type { RunReport } from '../judgement/types.js';
import { reportCells, ruleStatus, type CellStatus } from './cells.js';
import { cellLegend, CELL_LOOK, page, ruleAnchor, verdictOf } from './html.js';
import { esc } from './plots.js';

/** One target's run as the matrix sees it. */
export interface MatrixTarget {
  name: string;
  /** The URL the run checked. */
  target?: string;
  /** The run's exit code (as `spotcheck run` would give it). */
  exitCode: number;
  /** Why there is no report (a usage error, an unreachable target). */
  error?: string;
  /** File names in the output folder. */
  html?: string;
  json?: string;
  verdict?: string;
  summary?: RunReport['summary'];
}

/** What `DIR/matrix.json` holds. */
export interface MatrixData {
  tool: { name: 'spotcheck'; version: string };
  generatedAt: string;
  targets: MatrixTarget[];
  rules: Array<{ id: string; level: string; family: string }>;
  /** One per target x rule: the rule's status there, and the check a link points at. */
  cells: Array<{ target: string; rule: string; status: CellStatus; check?: string }>;
}

/** A target's run, or why it has none. */
export interface MatrixEntry {
  name: string;
  exitCode: number;
  report?: RunReport;
  error?: string;
  html?: string;
  json?: string;
}

/** Build the matrix from the targets' runs; rules in catalog order, only those some run judged or covers. */
export function buildMatrix(entries: readonly MatrixEntry[], version: string, now: Date = new Date()): MatrixData {
  const seen = new Set<string>();
  for (const e of entries) for (const c of e.report?.checks ?? []) seen.add(c.ruleId);
  const catalog = [...rules().keys()];
  const ids = [...catalog.filter((id) => seen.has(id)), ...[...seen].filter((id) => !catalog.includes(id)).sort()];
  const cells: MatrixData['cells'] = [];
  for (const e of entries) {
    if (e.report === undefined) continue;
    const rc = reportCells(e.report).cells;
    for (const id of ids) {
      const status = ruleStatus(rc, id, e.report.checks);
      const first = e.report.checks.find((c) => c.ruleId === id);
      cells.push({ target: e.name, rule: id, status, ...(first === undefined ? {} : { check: first.id }) });
    }
  }
  return {
    tool: { name: 'spotcheck', version },
    generatedAt: now.toISOString(),
    targets: entries.map((e) => ({
      name: e.name,
      exitCode: e.exitCode,
      ...(e.report === undefined
        ? {}
        : { target: e.report.target, verdict: verdictOf(e.report).text, summary: e.report.summary }),
      ...(e.error === undefined ? {} : { error: e.error }),
      ...(e.html === undefined ? {} : { html: e.html }),
      ...(e.json === undefined ? {} : { json: e.json }),
    })),
    rules: ids.map((id) => {
      const r = rules().get(id);
      return { id, level: r?.level ?? '?', family: r?.family ?? id.split('-')[0] ?? '?' };
    }),
    cells,
  };
}

/** Render the matrix page: a summary row per target, then rules x targets. */
export function renderMatrixHtml(m: MatrixData): string {
  const at = new Map(m.cells.map((c) => [`${c.target}\n${c.rule}`, c]));
  const targetHead = m.targets
    .map(
      (t) =>
        `<th class="target">${t.html === undefined ? esc(t.name) : `<a href="${esc(t.html)}">${esc(t.name)}</a>`}</th>`,
    )
    .join('');
  const summaryRows = m.targets.map((t) => {
    const s = t.summary;
    const cls = t.exitCode === 0 ? 's-pass' : t.exitCode === 1 ? 's-fail' : 's-skip';
    const links = [
      t.html === undefined ? '' : `<a href="${esc(t.html)}">HTML report</a>`,
      t.json === undefined ? '' : `<a href="${esc(t.json)}">JSON</a>`,
    ]
      .filter((x) => x !== '')
      .join(' · ');
    return `<tr id="target-${esc(t.name)}"><th>${esc(t.name)}</th><td><code>${esc(t.target ?? '')}</code></td><td><span class="status ${cls}">exit ${t.exitCode}</span> ${esc(t.verdict ?? t.error ?? '')}</td><td class="num">${s?.passed ?? '–'}</td><td class="num">${s?.failed ?? '–'}</td><td class="num">${s?.inconclusive ?? '–'}</td><td class="num">${s?.info ?? '–'}</td><td>${links}</td></tr>`;
  });
  let family = '';
  const rows = m.rules.map((r) => {
    const head =
      r.family !== family ? `<tr class="family"><th colspan="${m.targets.length + 2}">${esc(r.family)}</th></tr>` : '';
    family = r.family;
    const tds = m.targets.map((t) => {
      const c = at.get(`${t.name}\n${r.id}`);
      if (c === undefined)
        return `<td class="s-not-run" data-status="not-run" title="${esc(`${t.name}: no report`)}"><span>${CELL_LOOK['not-run'].mark}</span></td>`;
      const look = CELL_LOOK[c.status];
      const title = `${r.id} on ${t.name}: ${look.words}`;
      const inner =
        c.check !== undefined && t.html !== undefined
          ? `<a href="${esc(`${t.html}#${ruleAnchor(r.id)}`)}">${look.mark}</a>`
          : `<span>${look.mark}</span>`;
      return `<td class="s-${c.status}" data-status="${c.status}" title="${esc(title)}">${inner}</td>`;
    });
    return `${head}<tr><th class="rule">${esc(r.id)}</th><td class="level">${esc(r.level)}</td>${tds.join('')}</tr>`;
  });
  const failing = m.targets.filter((t) => t.exitCode !== 0).length;
  const body = `<header><h1>spotcheck implementations matrix</h1>
<p class="meta">${m.targets.length} targets, ${m.rules.length} rules · ${esc(m.generatedAt)} · spotcheck ${esc(m.tool.version)}</p></header>
<main>
<section id="targets"><div class="verdict ${failing === 0 ? 'pass' : 'fail'}">${failing === 0 ? 'Every target passed' : `${failing} of ${m.targets.length} targets did not pass`}</div>
<table><tr><th>target</th><th>URL</th><th>result</th><th>passed</th><th>failed</th><th>inconclusive</th><th>info</th><th>reports</th></tr>${summaryRows.join('')}</table></section>
<section id="matrix"><h2>Rules x targets</h2>
<p>Each cell is the rule's status on that target: the worst of its route cells (a rule failing on one route fails). A cell links to the rule in that target's report.</p>
${cellLegend(['pass', 'fail', 'inconclusive', 'unanswered', 'info', 'skip', 'not-offered', 'explained', 'not-run'])}
<table class="grid matrix"><tr><th></th><th>level</th>${targetHead}</tr>${rows.join('')}</table></section>
</main>
<footer>Written by spotcheck ${esc(m.tool.version)}. Self-contained: no script, nothing fetched; each target's report sits beside this page.</footer>`;
  return page('spotcheck implementations matrix', body);
}
