/**
 * `spotcheck grade --report-html FILE`: the grade as one self-contained page in the look of
 * the run report (its style sheet and page frame, no script, nothing fetched): the verdict,
 * every client rule kept / broken on N of M / not exercised, every broken request with its
 * bytes, the doctor's diagnosis and a corrected curl, the timestamp skew against the server
 * clock (§5.4, the run report's time plot), the scenarios, and every graded request.
 */
import { page } from '../report/html.js';
import { esc, symlog, timePlot, type PlottedProbe } from '../report/plots.js';
import { servedLine, type GradeReport, type ReportedRequest } from './report.js';

const STATUS = {
  kept: { cls: 's-pass', words: 'kept' },
  broken: { cls: 's-fail', words: 'broken' },
  warned: { cls: 's-info', words: 'warning' },
  'not-exercised': { cls: 's-skip', words: 'not exercised' },
} as const;

/** Anchor of a graded request (`#req-7`). */
export const requestAnchor = (seq: number): string => `req-${seq}`;
/** Anchor of a client rule (`#rule-CLIENT-SIGNATURE`). */
export const gradeRuleAnchor = (id: string): string => `rule-${id}`;

/** The request as it was on the wire: request line, headers, body. */
export function wireText(q: ReportedRequest): string {
  const head = [`${q.method} ${q.path}${q.query === '' ? '' : `?${q.query}`} HTTP/1.1`];
  for (const [k, v] of Object.entries(q.headers)) head.push(`${k}: ${v}`);
  return `${head.join('\n')}\n\n${q.body}`;
}

function summary(r: GradeReport): string {
  const cls = r.verdict === 'kept' ? 'pass' : r.verdict === 'broken' ? 'fail' : 'partial';
  const text =
    r.verdict === 'kept'
      ? `KEPT: every exercised rule kept over ${r.summary.requests} signed requests`
      : r.verdict === 'broken'
        ? `BROKEN: ${r.summary.rulesBroken} rule(s) broken, ${r.summary.broken} of ${r.summary.requests} requests`
        : 'NOTHING GRADED: no signed request reached the seed endpoints';
  const chip = (n: number, label: string, c: string) => `<span class="chip ${c}">${n} ${label}</span>`;
  return `<section id="summary"><h2>Verdict</h2><div class="verdict ${cls}">${esc(text)}</div>
<div class="chips">${chip(r.summary.rulesKept, 'rules kept', 's-pass')}${chip(r.summary.rulesBroken, 'rules broken', 's-fail')}${chip(r.summary.rulesWarned, 'with warnings (no MUST at stake)', 's-info')}${chip(r.summary.rulesNotExercised, 'not exercised', 's-skip')}${chip(r.summary.scenariosRun, 'scenario runs', 's-info')}</div>
<p class="muted">${r.summary.requests} signed requests graded, ${r.summary.ungraded} other requests forwarded ungraded; answered by ${esc(r.server.upstream)}.</p></section>`;
}

function rulesSection(r: GradeReport): string {
  const rows = r.rules.map((rule) => {
    const s = STATUS[rule.status];
    const count =
      rule.status === 'not-exercised'
        ? '–'
        : rule.status === 'broken'
          ? `broken on ${rule.broken} of ${rule.exercised}`
          : rule.status === 'warned'
            ? `warning on ${rule.warned} of ${rule.exercised}`
            : `kept on ${rule.exercised} of ${rule.exercised}`;
    const firstBroken = r.requests.find((q) => q.broken.some((f) => f.rule === rule.id));
    const link =
      firstBroken === undefined ? '' : ` <a href="#${requestAnchor(firstBroken.seq)}">first broken request</a>`;
    return `<tr id="${esc(gradeRuleAnchor(rule.id))}"><td><code>${esc(rule.id)}</code></td><td><span class="status ${s.cls}">${s.words}</span>${link}</td><td class="num">${esc(count)}</td><td>§${esc(rule.section)}</td><td>${esc(rule.requirement)}${rule.catalog.length > 0 ? `<br><span class="muted">server rules: ${esc(rule.catalog.join(', '))}</span>` : ''}</td></tr>`;
  });
  return `<section id="rules"><h2>Rules a client must keep (${r.rules.length})</h2>
<table><tr><th>rule</th><th>verdict</th><th>requests</th><th>seed</th><th>requirement</th></tr>${rows.join('\n')}</table></section>`;
}

function brokenSection(r: GradeReport): string {
  const broken = r.requests.filter((q) => q.broken.length > 0);
  if (broken.length === 0) return '<section id="broken"><h2>Broken requests</h2><p>None.</p></section>';
  const blocks = broken.map((q) => {
    const findings = q.broken
      .map((f) => {
        const d = f.diagnosis;
        const diag =
          d === undefined
            ? ''
            : `<dt>Diagnosis</dt><dd><code>${esc(d.code)}${d.also === undefined ? '' : ` + ${esc(d.also.join(', '))}`}</code>: ${esc(d.sentence)}</dd>
<dt>Fix</dt><dd>${esc(d.fix)}</dd>
<dt>Server signed</dt><dd><pre>${esc(d.serverSigned)}</pre></dd>${d.clientSigned === undefined ? '' : `<dt>Client signed</dt><dd><pre>${esc(d.clientSigned)}</pre></dd>`}`;
        return `<dt><a href="#${esc(gradeRuleAnchor(f.rule))}"><code>${esc(f.rule)}</code></a>${f.warning === true ? ' <span class="status s-info">warning</span>' : ''}</dt><dd>${esc(f.detail)}</dd>${diag}`;
      })
      .join('\n');
    return `<div class="failure" id="${requestAnchor(q.seq)}"><h3>#${q.seq} <code>${esc(q.key)}</code>: ${esc(q.method)} ${esc(q.path)}</h3>
<dl>${findings}</dl>
<h4>Bytes as sent</h4><pre class="wire">${esc(wireText(q))}</pre>
${q.correctedCurl === undefined ? '' : `<h4>Corrected (set SPOTCHECK_SECRET; the signature is computed at replay time)</h4><pre class="curl">${esc(q.correctedCurl)}</pre>`}</div>`;
  });
  return `<section id="broken"><h2>Broken requests (${broken.length})</h2>${blocks.join('\n')}</section>`;
}

/**
 * The skew over the session: one point per timestamp at its arrival time (x, seconds since
 * the start) against its skew (y, the run report's axis: linear within ±1 s, logarithmic
 * beyond), the seed's default window (−5000 ms to +1000 ms, §5.4) shaded.
 */
export function skewOverTime(skew: GradeReport['skew']): string {
  const W = 960;
  const H = 240;
  const left = 70;
  const right = 20;
  const top = 16;
  const bottom = 40;
  const span = Math.max(1000, ...skew.map((s) => s.atMs));
  const lowMs = Math.min(-6500, ...skew.map((s) => s.skewMs));
  const highMs = Math.max(2000, ...skew.map((s) => s.skewMs));
  const lo = symlog(lowMs) - 0.1;
  const hi = symlog(highMs) + 0.1;
  const x = (ms: number) => left + (ms / span) * (W - left - right);
  const y = (ms: number) => top + ((hi - symlog(ms)) / (hi - lo)) * (H - top - bottom);
  const f = (n: number) => n.toFixed(1);
  const parts = [
    `<svg id="skew-time-plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="skew-time-title">`,
    `<title id="skew-time-title">Timestamp skew over the session: ${skew.length} requests</title>`,
    `<rect class="window" x="${left}" y="${f(y(1000))}" width="${W - left - right}" height="${f(y(-5000) - y(1000))}"><title>the seed's default window: −5000 ms to +1000 ms (§5.4)</title></rect>`,
  ];
  for (const t of [-60_000, -5000, -1000, 0, 1000, 10_000].filter((t) => t >= lowMs && t <= highMs))
    parts.push(
      `<line class="grid" x1="${left}" y1="${f(y(t))}" x2="${W - right}" y2="${f(y(t))}"/><text class="tick" x="${left - 6}" y="${f(y(t) + 4)}" text-anchor="end">${t === 0 ? '0' : `${t > 0 ? '+' : '−'}${Math.abs(t) >= 1000 ? `${Math.abs(t) / 1000} s` : `${Math.abs(t)} ms`}`}</text>`,
    );
  parts.push(
    `<text class="axis" x="${f(left + (W - left - right) / 2)}" y="${H - 8}" text-anchor="middle">seconds since the session started (${(span / 1000).toFixed(1)} s); up: timestamp ahead of the server clock</text>`,
  );
  for (const s of skew) {
    const what = `#${s.seq} ${s.key}: ${s.skewMs > 0 ? '+' : ''}${s.skewMs} ms at ${(s.atMs / 1000).toFixed(1)} s`;
    const px = x(s.atMs);
    const py = y(s.skewMs);
    parts.push(
      s.kept
        ? `<g class="point kept" data-skew="${s.skewMs}"><title>${esc(what)}</title><circle cx="${f(px)}" cy="${f(py)}" r="4"/></g>`
        : `<g class="point broken" data-skew="${s.skewMs}"><title>${esc(`${what}: outside the window`)}</title><path d="M${f(px - 4)} ${f(py - 4)}L${f(px + 4)} ${f(py + 4)}M${f(px - 4)} ${f(py + 4)}L${f(px + 4)} ${f(py - 4)}"/></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}

function skewSection(r: GradeReport): string {
  if (r.skew.length === 0)
    return '<section id="skew"><h2>Timestamp skew</h2><p class="muted">No timestamp was sent.</p></section>';
  const probes: PlottedProbe[] = r.skew.map((s) => ({
    offsetMs: s.skewMs,
    ...(s.recvWindow !== undefined ? { recvWindow: s.recvWindow } : {}),
    verdict: s.kept ? 'accepted' : 'rejected',
    check: `#${s.seq} ${s.key}`,
  }));
  const sorted = r.skew.map((s) => s.skewMs).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `<section id="skew"><h2>Timestamp skew</h2>
<p>${r.skew.length} timestamps against the server clock at arrival: median ${median} ms, from ${sorted[0]} to ${sorted[sorted.length - 1]} ms. The seed accepts <code>serverTime − recvWindow ≤ timestamp &lt; serverTime + 1000</code> (§5.4); each point is a request (green: inside, red: outside).</p>
<figure>${timePlot(probes, { offsetMs: 0, uncertaintyMs: 0, method: 'the grading server’s own clock' })}</figure>
<h3>Over the session</h3>
<style>#skew-time-plot .window{fill:#e4f4e7}#skew-time-plot .grid{stroke:#e3e3e3}#skew-time-plot .tick{font-size:11px;fill:#555}#skew-time-plot .axis{font-size:12px;fill:#333}#skew-time-plot .kept circle{fill:var(--pass)}#skew-time-plot .broken path{stroke:var(--fail);stroke-width:2.2}</style>
<figure>${skewOverTime(r.skew)}</figure></section>`;
}

function scenariosSection(r: GradeReport): string {
  const rows = r.scenarios.map((s) => {
    if (!s.ran)
      return `<tr><td><code>${esc(s.name)}</code></td><td><span class="status s-skip">not run</span></td><td>${esc(s.send)}</td><td>${esc(s.expect)}</td><td></td></tr>`;
    return s.runs
      .map(
        (run) =>
          `<tr><td><code>${esc(s.name)}</code></td><td><span class="status ${run.verdict === 'kept' ? 's-pass' : 's-fail'}">${run.verdict}</span></td><td>${esc(s.send)}</td><td>${esc(s.expect)}</td><td><a href="#${requestAnchor(run.cueSeq)}">#${run.cueSeq}</a> ${esc(run.key)}: ${esc(run.behaviour)}</td></tr>`,
      )
      .join('\n');
  });
  return `<section id="scenarios"><h2>Scenarios (${r.scenarios.filter((s) => s.ran).length} of ${r.scenarios.length} ran)</h2>
<table><tr><th>scenario</th><th>verdict</th><th>the client sends</th><th>expected of the client</th><th>what the client did</th></tr>${rows.join('\n')}</table></section>`;
}

function requestsSection(r: GradeReport): string {
  const rows = r.requests.map((q) => {
    const id = q.broken.length > 0 ? '' : ` id="${requestAnchor(q.seq)}"`;
    const broken = q.broken.map((f) => `<a href="#${requestAnchor(q.seq)}"><code>${esc(f.rule)}</code></a>`).join(' ');
    return `<tr${id}><td class="num">${q.seq}</td><td><code>${esc(q.key)}</code></td><td>${esc(q.endpoint ?? q.path)}</td><td>${esc(q.placement)}</td><td class="num">${q.skewMs ?? '–'}</td><td>${q.answer?.status ?? '–'}${q.answer?.by === 'scenario' ? ' (scenario)' : ''}</td><td>${esc(q.scenario === undefined ? '' : `${q.scenario.name} (${q.scenario.role})`)}</td><td>${broken === '' ? '<span class="status s-pass">all kept</span>' : broken}</td></tr>`;
  });
  return `<section id="requests"><h2>Every graded request (${r.requests.length})</h2>
<table><tr><th>#</th><th>client order id</th><th>endpoint</th><th>placement</th><th>skew ms</th><th>answer</th><th>scenario</th><th>rules broken</th></tr>${rows.join('\n')}</table></section>`;
}

/** Render a grade report as one self-contained HTML page. */
export function renderGradeHtml(r: GradeReport): string {
  const body = `<header><h1>spotcheck grade report</h1>
<p class="meta">Grading server <code>${esc(r.server.url)}</code> · answered by ${esc(r.server.upstream)} · ${esc(r.startedAt)} to ${esc(r.endedAt)} · ${esc(r.tool)} ${esc(r.version)}</p>
<p class="meta">Graded: ${esc(servedLine(r))}</p>
</header>
<nav><a href="#summary">Verdict</a><a href="#rules">Rules</a><a href="#broken">Broken requests</a><a href="#skew">Skew</a><a href="#scenarios">Scenarios</a><a href="#requests">Requests</a></nav>
<main>
${summary(r)}
${rulesSection(r)}
${brokenSection(r)}
${skewSection(r)}
${scenariosSection(r)}
${requestsSection(r)}
</main>
<footer>Written by spotcheck ${esc(r.version)}. Self-contained: no script, nothing fetched. The secret is never written to a report.</footer>`;
  return page(`spotcheck grade: ${r.verdict}`, body);
}
