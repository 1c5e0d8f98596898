/**
 * `--report-html FILE`: the run as one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched): the verdict and summary, what discovery found, the rule x
 * route matrix as a coloured grid whose cells link to their check, every failure with
 * its seed sentence, Expected, Actual, counterexample, replay line and curl, the
 * time-window probes against the server clock (§5.4), and the requests' latency.
 */
import type { CheckReport, RunReport } from '../judgement/types.js';
import { ownCells, reportCells, type CellStatus, type ReportCells } from './cells.js';
import { esc, latencyHistogram, timePlot, type PlottedProbe } from './plots.js';
import { stopCase } from './stopped.js';
import { partialReason } from './junit.js';
import { protocolLine, type ReportWithProtocols } from './protocols.js';

/** The anchor of a check in the report (`#check-ID`). */
export const checkAnchor = (id: string): string => `check-${id}`;
/** The anchor of a rule in the report (`#rule-ID`): its first check. */
export const ruleAnchor = (id: string): string => `rule-${id}`;

/** How each cell status is drawn: a mark (never colour alone) and words. */
export const CELL_LOOK: Record<CellStatus, { mark: string; words: string }> = {
  pass: { mark: '✔', words: 'pass' },
  fail: { mark: '✖', words: 'fail' },
  inconclusive: { mark: '?', words: 'inconclusive' },
  unanswered: { mark: '…', words: 'no answer' },
  info: { mark: 'i', words: 'info (open point, not a verdict)' },
  skip: { mark: '–', words: 'skipped' },
  'not-offered': { mark: '∅', words: 'not offered by the target' },
  'not-applicable': { mark: '', words: 'not applicable' },
  explained: { mark: 'e', words: 'not observable (explained in spec/coverage.json)' },
  'not-run': { mark: '·', words: 'not run' },
};

/**
 * The page's style sheet (also used by the matrix page). It fits a 1280 px window: a table wider
 * than the page scrolls inside its own box, and long unbroken text (JSON answers, curl lines)
 * wraps in its cell instead of widening the page.
 */
export const STYLE = `
:root{--pass:#1b7a36;--pass-bg:#cdebd3;--fail:#b3261e;--fail-bg:#f8d0cc;--inc:#6a3d9a;--inc-bg:#e6d8f2;--info:#1f5f99;--info-bg:#d3e4f5;--skip:#7a5c00;--skip-bg:#f7ebc0;--na:#f4f4f4;--line:#d0d0d0;--ink:#1d1d1f;--muted:#5f6368}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);margin:0;background:#fff}
header,main,footer{max-width:1200px;margin:0 auto;padding:0 20px}
header{padding-top:18px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:6px 20px;z-index:2;display:flex;gap:14px;flex-wrap:wrap}
nav a{color:var(--info);text-decoration:none}nav a:hover{text-decoration:underline}
.meta{color:var(--muted);margin:0}
.verdict{display:inline-block;font-weight:700;font-size:18px;padding:6px 14px;border-radius:6px;margin:10px 0}
.verdict.pass{background:var(--pass-bg);color:var(--pass)}.verdict.fail{background:var(--fail-bg);color:var(--fail)}.verdict.partial{background:var(--skip-bg);color:var(--skip)}
.chips{display:flex;gap:8px;flex-wrap:wrap;margin:6px 0}
.chip{border-radius:12px;padding:2px 10px;font-weight:600}
table{border-collapse:collapse;margin:6px 0;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td:last-child,td .muted{overflow-wrap:anywhere}td:first-child:not(:last-child)>code:only-child{white-space:nowrap}
th{background:#fafafa}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.grid{font-size:12px}.grid th.rule{white-space:nowrap;font-weight:500;font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.grid th.route{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;padding:6px 2px;font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.grid td{padding:0;text-align:center;width:34px;height:22px}
.matrix td{width:90px}.matrix th.target{white-space:nowrap;padding:4px 8px}.matrix td.level{width:auto;font-size:11px;color:var(--muted);padding:0 6px}.matrix tr.family th{background:#eef2f7;text-align:left}
.grid td a,.grid td span{display:block;width:100%;height:100%;line-height:22px;text-decoration:none;color:inherit;font-weight:700}
.s-pass{background:var(--pass-bg);color:var(--pass)}.s-fail{background:var(--fail-bg);color:var(--fail)}.s-inconclusive{background:var(--inc-bg);color:var(--inc)}
.s-info{background:var(--info-bg);color:var(--info)}.s-unanswered{background:#ffe0b2;color:#8a4b00}.s-skip{background:var(--skip-bg);color:var(--skip)}
.s-not-offered{background:repeating-linear-gradient(45deg,#eee,#eee 4px,#ddd 4px,#ddd 8px);color:#555}
.s-not-applicable{background:var(--na)}.s-explained{background:#ececec;color:#777}.s-not-run{background:#fff;color:#999}
.legend{display:flex;gap:10px;flex-wrap:wrap;margin:6px 0;font-size:12px}.legend span{padding:1px 8px;border-radius:4px}
.failure{border:1px solid var(--fail);border-left:6px solid var(--fail);border-radius:6px;padding:8px 14px;margin:12px 0;background:#fffafa}
.failure h3{margin-top:4px}
blockquote{margin:6px 0;padding:4px 12px;border-left:4px solid var(--line);color:#333;background:#fafafa}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 12px;margin:6px 0}dt{font-weight:600}dd{margin:0;min-width:0;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;margin:4px 0}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.status{font-weight:700;border-radius:4px;padding:0 6px;white-space:nowrap}
tr:target,.failure:target,td:target{outline:3px solid #f0b400}
[id]{scroll-margin-top:48px}
#time-plot .grid{stroke:#e3e3e3;stroke-width:1}#time-plot .tick,#latency-plot .tick{font-size:11px;fill:#555}#time-plot .axis{font-size:12px;fill:#333}
#time-plot .label{font-size:12px;fill:#222}#time-plot .window{fill:#e4f4e7}#time-plot .band{fill:#8a8a8a;fill-opacity:.25}
#time-plot .seed-edge{stroke:#1d1d1f;stroke-width:2}#time-plot .measured-edge{stroke:#1f5f99;stroke-width:2;stroke-dasharray:5 3}
#time-plot .probe.accepted circle,#time-plot .accepted-mark{fill:var(--pass);stroke:#fff;stroke-width:1}
#time-plot .probe.refused path,#time-plot .refused-mark{stroke:var(--fail);stroke-width:2.2}
#time-plot .probe.other rect,#time-plot .other-mark{fill:#e07b00}#time-plot .legend text{font-size:12px;fill:#333}
#latency-plot rect{fill:#5b8fd1}#latency-plot .count{font-size:11px;fill:#222}#latency-plot .axis-line{stroke:#888}
.muted{color:var(--muted)}
footer{color:var(--muted);padding:24px 20px 40px}
`;

/** The page around a body: doctype, charset, title, inline style, no script. */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const STATUS_CLASS: Record<CheckReport['status'], string> = {
  pass: 's-pass',
  fail: 's-fail',
  info: 's-info',
  skip: 's-skip',
  inconclusive: 's-inconclusive',
};

/** The run's verdict in words: what the exit code says. */
export function verdictOf(r: RunReport): { cls: 'pass' | 'fail' | 'partial'; text: string } {
  const gate =
    r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST' && c.baseline?.state !== 'expected-failure')
      .length + (r.summary.stale ?? 0);
  if (gate > 0) {
    // a failing run that also ended early says both (the outage is ROBUST-NO-HANG's failure and the reason it stopped)
    const cut = r.stopped?.reason === 'fail-fast' ? undefined : partialReason(r);
    return {
      cls: 'fail',
      text: `FAIL: ${gate} MUST-level failure${gate === 1 ? '' : 's'}${cut === undefined ? '' : `; PARTIAL: ${cut}`}`,
    };
  }
  const early = r.stopped === undefined ? undefined : stopCase(r.stopped);
  if (early?.failed === true) return { cls: 'fail', text: `STOPPED before the checks: ${early.message}` };
  if (r.stopped?.reason === 'fail-fast')
    return { cls: 'partial', text: `PARTIAL: stopped at the first failure, ${r.stopped.notRun} checks not run` };
  const partial = partialReason(r);
  if (partial !== undefined) return { cls: 'partial', text: `PARTIAL: ${partial}` };
  return {
    cls: 'pass',
    text: r.summary.failed > 0 ? 'PASS at MUST level (SHOULD-level failures below)' : 'PASS: no MUST-level failure',
  };
}

function summarySection(r: RunReport): string {
  const v = verdictOf(r);
  const s = r.summary;
  const chip = (cls: string, n: number, what: string) => `<span class="chip ${cls}">${n} ${what}</span>`;
  return `<section id="summary">
<div class="verdict ${v.cls}">${esc(v.text)}</div>
<div class="chips">${chip('s-pass', s.passed, 'passed')}${chip('s-fail', s.failed, 'failed')}${chip('s-info', s.info, 'info')}${chip('s-skip', s.skipped, 'skipped')}${chip('s-inconclusive', s.inconclusive, 'inconclusive')}${s.baselined === undefined ? '' : chip('s-skip', s.baselined, 'baselined')}${s.stale === undefined ? '' : chip('s-fail', s.stale, 'stale baseline entries')}</div>
${s.cells === undefined ? '' : `<p class="meta">Route cells: ${s.cells.pass} pass, ${s.cells.fail} fail, ${s.cells.inconclusive} inconclusive, ${s.cells.unanswered} without an answer, ${s.cells.notOffered} not offered.</p>`}
<p class="meta">${r.checks.length} checks, ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s. Replay any check with <code>spotcheck replay --seed ${r.seed} --only ID${r.replayArgs === undefined ? '' : ` ${esc(r.replayArgs.join(' '))}`}</code>.</p>
</section>`;
}

function discoverySection(r: RunReport): string {
  const d = r.discovery;
  const c = r.clock;
  const rows = (d?.controls ?? []).map(
    (x) =>
      `<tr><td><code>${esc(x.route)}</code></td><td><span class="status ${x.state === 'accepted' ? 's-pass' : x.state === 'not-offered' ? 's-not-offered' : x.state === 'signature-ok' ? 's-skip' : 's-fail'}">${esc(x.state)}</span></td><td><code>${esc(x.observed)}</code></td></tr>`,
  );
  const fp = d?.fingerprints ?? {};
  const fps = (
    [
      ['bad signature', fp.signature],
      ['unknown API key', fp.unknownKey],
      ['stale timestamp', fp.stale],
    ] as const
  ).map(([k, val]) => `<tr><th>${k}</th><td><code>${esc(val ?? 'not learnt')}</code></td></tr>`);
  const clock =
    c.offsetMs === undefined
      ? `not measured (${esc(c.method)})${c.note === undefined ? '' : `: ${esc(c.note)}`}`
      : `server clock = local clock ${c.offsetMs >= 0 ? '+' : '−'} ${Math.abs(c.offsetMs)} ms, ± ${c.uncertaintyMs ?? '?'} ms (${esc(c.method)})${c.note === undefined ? '' : `; ${esc(c.note)}`}`;
  const rl = r.rateLimits;
  return `<section id="discovery"><h2>What discovery found</h2>
<h3>Routes: a valid order per endpoint and placement (positive controls)</h3>
${rows.length === 0 ? '<p class="muted">No discovery data in this report.</p>' : `<table><tr><th>route</th><th>control</th><th>answer</th></tr>${rows.join('')}</table>`}
<h3>Rejection fingerprints</h3><table>${fps.join('')}</table>
<h3>Clock</h3><p id="clock">${clock}</p>
${r.deviations !== undefined && r.deviations.length > 0 ? `<h3>Where the target differs from the seed</h3><ul>${r.deviations.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}
${rl !== undefined && rl.responses > 0 ? `<p>Rate limiting: ${rl.responses} answers 429/503, ${rl.retried} retried, ${rl.gaveUp} gave up, ${rl.waitedMs} ms waited.</p>` : ''}
</section>`;
}

/** The rule x route grid; `href` gives a cell's link (default: its check's anchor in this page). */
export function cellGrid(
  cells: ReportCells,
  href: (checkId: string) => string = (id) => `#${checkAnchor(id)}`,
): string {
  const at = new Map(cells.cells.map((c) => [`${c.rule} ${c.route}`, c]));
  const head = `<tr><th></th>${cells.routes.map((r) => `<th class="route">${esc(r)}</th>`).join('')}</tr>`;
  const rows = cells.rules.map((rule) => {
    const tds = cells.routes.map((route) => {
      const c = at.get(`${rule} ${route}`);
      const status: CellStatus = c?.status ?? 'not-applicable';
      const look = CELL_LOOK[status];
      const title = `${rule} on ${route}: ${look.words}${c?.note === undefined ? '' : ` (${c.note})`}${c !== undefined && c.checks.length > 0 ? `; checks: ${c.checks.join(', ')}` : ''}`;
      const first = c?.checks[0];
      const inner =
        first === undefined ? `<span>${look.mark}</span>` : `<a href="${esc(href(first))}">${look.mark}</a>`;
      return `<td class="s-${status}" data-status="${status}" title="${esc(title)}">${inner}</td>`;
    });
    return `<tr><th class="rule">${esc(rule)}</th>${tds.join('')}</tr>`;
  });
  return `<table class="grid">${head}${rows.join('')}</table>`;
}

/** The legend of the cell colours. */
export function cellLegend(statuses: readonly CellStatus[] = Object.keys(CELL_LOOK) as CellStatus[]): string {
  return `<div class="legend">${statuses.map((s) => `<span class="s-${s}">${CELL_LOOK[s].mark || '&nbsp;'} ${esc(CELL_LOOK[s].words)}</span>`).join('')}</div>`;
}

function coverageSection(r: RunReport): string {
  const cells = reportCells(r);
  const n = (s: CellStatus) => cells.cells.filter((c) => c.status === s).length;
  return `<section id="coverage"><h2>Coverage: rule x route</h2>
<p>Each applicable cell of <code>spec/coverage.json</code>: ${cells.cells.length} cells, ${n('pass')} pass, ${n('fail')} fail, ${n('inconclusive')} inconclusive, ${n('info')} info, ${n('not-offered')} not offered, ${n('explained')} explained, ${n('not-run')} not run. A cell links to the check that decided it.</p>
${cellLegend()}
${cellGrid(cells)}
</section>`;
}

/** Every failing form of a per-input check (more than one), each with its route and answer. */
function failingForms(c: CheckReport): string {
  if (c.failures === undefined || c.failures.length < 2) return '';
  const items = c.failures
    .map((x) => `<li><code>${esc(x.forms.join(' + '))}</code> on ${esc(x.route)}: ${esc(x.actual)}</li>`)
    .join('');
  return `<dt>Every failing form (${c.failures.length})</dt><dd><ol>${items}</ol></dd>`;
}

function failureBlock(c: CheckReport): string {
  const row = (k: string, v: string | undefined, pre = false) =>
    v === undefined ? '' : `<dt>${k}</dt><dd>${pre ? `<pre>${esc(v)}</pre>` : esc(v)}</dd>`;
  return `<div class="failure" id="failure-${esc(c.id)}">
<h3><a href="#${esc(checkAnchor(c.id))}">${esc(c.id)}</a> <span class="status s-fail">${esc(c.level)} fail</span>${c.baseline === undefined ? '' : ` <span class="status s-skip">baseline: ${esc(c.baseline.state)}</span>`}</h3>
<p>${esc(c.title)}</p>
<blockquote>§${esc(c.section)} ${esc(c.requirement)}</blockquote>
<dl>${row('Expected', c.expected)}${row('Actual', c.actual)}${failingForms(c)}${row('Counterexample', c.counterexample, true)}${c.runs === undefined ? '' : row('Runs', String(c.runs))}${row('Replay', c.replay, true)}${c.reproduce === undefined ? '<dt>curl</dt><dd class="muted">none: this verdict comes from a series of requests, not one (the Replay line reruns them)</dd>' : row('curl', c.reproduce, true)}${(c.notes ?? []).map((n) => row('Note', n)).join('')}</dl>
</div>`;
}

function failuresSection(r: RunReport): string {
  const failed = r.checks.filter((c) => c.status === 'fail');
  return `<section id="failures"><h2>Failures (${failed.length})</h2>
${failed.length === 0 ? '<p>None.</p>' : `<p>Every curl line takes a fresh timestamp and re-signs with <code>$SPOTCHECK_SECRET</code>; no secret is written here.</p>${failed.map(failureBlock).join('\n')}`}
</section>`;
}

/** Every time-window probe of the run, with the check that sent it. */
export function plottedProbes(r: RunReport): PlottedProbe[] {
  return r.checks.flatMap((c) => (c.timeProbes ?? []).map((p) => ({ ...p, check: c.id })));
}

function timeSection(r: RunReport): string {
  const probes = plottedProbes(r);
  const body =
    probes.length === 0
      ? `<p class="muted">No time-window probe in this report${r.clock.offsetMs === undefined ? ' (the server clock could not be measured)' : ''}.</p>`
      : `<p>${probes.length} probes from ${new Set(probes.map((p) => p.check)).size} checks: ${probes.filter((p) => p.verdict === 'accepted').length} accepted, ${probes.filter((p) => p.verdict === 'rejected').length} refused. The seed accepts a timestamp when <code>serverTime − recvWindow ≤ timestamp &lt; serverTime + 1000</code> (§5.4); the shaded bands are the clock's uncertainty, inside which a probe cannot be decided.</p>
<figure>${timePlot(probes, r.clock)}</figure>`;
  return `<section id="time"><h2>Time window</h2>${body}</section>`;
}

function trafficSection(r: RunReport): string {
  const t = r.traffic;
  if (t === undefined)
    return `<section id="latency"><h2>Requests</h2><p>${r.requests} requests; no latency data in this report.</p></section>`;
  const ms = (v: number | undefined) => (v === undefined ? '–' : `${v} ms`);
  const answers = Object.entries(t.answers)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `<tr><td>${esc(k)}</td><td class="num">${n}</td></tr>`);
  return `<section id="latency"><h2>Requests and latency</h2>
<table><tr><th>requests</th><th>timed</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>
<tr><td class="num">${r.requests}</td><td class="num">${t.timed}</td><td class="num">${ms(t.p50)}</td><td class="num">${ms(t.p90)}</td><td class="num">${ms(t.p99)}</td><td class="num">${ms(t.max)}</td></tr></table>
<figure>${latencyHistogram(t)}</figure>
<h3>Answers</h3><table><tr><th>answer</th><th>count</th></tr>${answers.join('')}</table>
</section>`;
}

/** A check's routes: its own verdict per route when it reports one, else the routes it reached. */
function routeLine(c: CheckReport): string {
  const own = ownCells(c);
  if (own.length > 0) {
    const chips = own.map(
      (x) =>
        `<span class="status s-${x.status}" title="${esc(`${x.route}: ${CELL_LOOK[x.status].words}${x.reason === undefined ? '' : ` (${x.reason})`}`)}">${esc(x.route)} ${CELL_LOOK[x.status].mark}</span>`,
    );
    return `<br><span class="routes">${chips.join(' ')}</span>`;
  }
  return c.routes === undefined ? '' : `<br><span class="muted">routes: ${esc(c.routes.join(', '))}</span>`;
}

function checksSection(r: RunReport): string {
  const seen = new Set<string>();
  const rows = r.checks.map((c) => {
    const ruleId = seen.has(c.ruleId) ? '' : ` id="${esc(ruleAnchor(c.ruleId))}"`;
    seen.add(c.ruleId);
    const detail = [c.observed, c.reason, ...(c.notes ?? [])].filter((x): x is string => x !== undefined);
    const failLink = c.status === 'fail' ? ` <a href="#failure-${esc(c.id)}">details</a>` : '';
    return `<tr id="${esc(checkAnchor(c.id))}"><td${ruleId}><code>${esc(c.id)}</code></td><td><span class="status ${STATUS_CLASS[c.status]}">${esc(c.status)}</span>${failLink}</td><td>${esc(c.level)}</td><td>${esc(c.title)}${detail.length > 0 ? `<br><span class="muted">${esc(detail.join(' · '))}</span>` : ''}${routeLine(c)}</td></tr>`;
  });
  return `<section id="checks"><h2>Every check (${r.checks.length})</h2>
<table><tr><th>check</th><th>status</th><th>level</th><th>what it checks</th></tr>${rows.join('\n')}</table></section>`;
}

/** Render a run report as one self-contained HTML page. */
export function renderHtml(r: RunReport): string {
  const title = `spotcheck report: ${r.target}`;
  const protocols = (r as ReportWithProtocols).protocols;
  const body = `<header><h1>spotcheck conformance report</h1>
<p class="meta">Target <code>${esc(r.target)}</code> · profile ${esc(r.profile)} · seed ${r.seed} · ${r.runs} cases per property · started ${esc(r.startedAt)} · ${esc(r.tool.name)} ${esc(r.tool.version)}</p>
${protocols === undefined ? '' : `<p class="meta" id="protocol">${esc(protocolLine(protocols))}</p>`}
</header>
<nav><a href="#summary">Summary</a><a href="#discovery">Discovery</a><a href="#coverage">Coverage</a><a href="#failures">Failures</a><a href="#time">Time window</a><a href="#latency">Latency</a><a href="#checks">Checks</a></nav>
<main>
${summarySection(r)}
${discoverySection(r)}
${coverageSection(r)}
${failuresSection(r)}
${timeSection(r)}
${trafficSection(r)}
${checksSection(r)}
</main>
<footer>Written by spotcheck ${esc(r.tool.version)}. Self-contained: no script, nothing fetched. Credentials are never written to a report.</footer>`;
  return page(title, body);
}
