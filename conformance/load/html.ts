/**
 * The load report as one HTML page (the conformance report's page and style, no script):
 * the verdict, the failures, a per-route table and an inline SVG of latency over time
 * (p50 and p99 per second, requests per second behind them) from the report's `series`.
 */
import { esc } from '../report/plots.js';
import { page } from '../report/html.js';
import { LOAD_ROUTES } from './mix.js';
import { cutShort, type LoadReport } from './report.js';
import { FAILURE_KINDS } from './verdict.js';

/** Latency over time: p50 and p99 lines (left axis, ms) over requests-per-second bars (right axis). */
export function latencyOverTime(r: LoadReport): string {
  const pts = r.series.filter((p) => Number.isFinite(p.p99) && Number.isFinite(p.p50));
  const W = 960;
  const H = 260;
  const left = 56;
  const right = 56;
  const top = 20;
  const base = H - 36;
  if (pts.length === 0) return '<p class="muted">No per-second latency was recorded.</p>';
  const tMax = Math.max(1, ...r.series.map((p) => p.t + 1));
  const msMax = Math.max(1, ...pts.map((p) => p.p99)) * 1.1;
  const rpsMax = Math.max(1, ...r.series.map((p) => p.requests)) * 1.1;
  const x = (t: number): number => left + (t / tMax) * (W - left - right);
  const yMs = (v: number): number => base - (v / msMax) * (base - top);
  const yRps = (v: number): number => base - (v / rpsMax) * (base - top);
  const bw = Math.max(1, (W - left - right) / tMax - 2);
  const line = (key: 'p50' | 'p99'): string =>
    pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t + 0.5).toFixed(1)},${yMs(p[key]).toFixed(1)}`).join(' ');
  const parts = [
    `<svg id="latency-over-time" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="lot-title">`,
    `<title id="lot-title">Latency p50 and p99 per second over ${tMax} s, with requests per second</title>`,
  ];
  for (const p of r.series) {
    parts.push(
      `<rect class="rps" x="${(x(p.t) + 1).toFixed(1)}" y="${yRps(p.requests).toFixed(1)}" width="${bw.toFixed(1)}" height="${(base - yRps(p.requests)).toFixed(1)}"><title>${esc(`${p.t}-${p.t + 1} s: ${p.requests} requests, ${p.failures} failures, ${p.shed} shed, p50 ${p.p50} ms, p99 ${p.p99} ms`)}</title></rect>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const v = (msMax / 4) * i;
    parts.push(
      `<line class="grid" x1="${left}" x2="${W - right}" y1="${yMs(v).toFixed(1)}" y2="${yMs(v).toFixed(1)}"/>`,
    );
    parts.push(
      `<text class="tick" x="${left - 6}" y="${(yMs(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(v < 10 ? 1 : 0)} ms</text>`,
    );
    parts.push(
      `<text class="tick" x="${W - right + 6}" y="${(yRps((rpsMax / 4) * i) + 4).toFixed(1)}">${((rpsMax / 4) * i).toFixed(0)}/s</text>`,
    );
  }
  const step = Math.max(1, Math.ceil(tMax / 12));
  for (let t = 0; t <= tMax; t += step)
    parts.push(`<text class="tick" x="${x(t).toFixed(1)}" y="${base + 16}" text-anchor="middle">${t} s</text>`);
  parts.push(`<path class="p99" d="${line('p99')}"/>`, `<path class="p50" d="${line('p50')}"/>`);
  parts.push(
    `<g class="legend"><rect class="rps" x="${left}" y="${H - 14}" width="10" height="10"/><text x="${left + 14}" y="${H - 5}">requests/s</text>` +
      `<line class="p50" x1="${left + 100}" x2="${left + 120}" y1="${H - 9}" y2="${H - 9}"/><text x="${left + 124}" y="${H - 5}">p50</text>` +
      `<line class="p99" x1="${left + 160}" x2="${left + 180}" y1="${H - 9}" y2="${H - 9}"/><text x="${left + 184}" y="${H - 5}">p99</text></g>`,
    '</svg>',
  );
  return parts.join('\n');
}

const PLOT_STYLE =
  '<style>#latency-over-time .rps{fill:#d3e4f5}#latency-over-time .p50{stroke:#1b7a36;stroke-width:2;fill:none}#latency-over-time .p99{stroke:#b3261e;stroke-width:2;fill:none}' +
  '#latency-over-time .grid{stroke:#e3e3e3}#latency-over-time .tick,#latency-over-time .legend text{font-size:11px;fill:#555}</style>';

const cell = (v: number | null): string => `<td class="num">${v === null ? '-' : esc(String(v))}</td>`;

/** The whole page. */
export function renderLoadHtml(r: LoadReport): string {
  const short = cutShort(r);
  const verdict = `${
    r.passed
      ? short === undefined
        ? '<p class="verdict pass">PASS: no correctness failure under load</p>'
        : `<p class="verdict pass">PASS, CUT SHORT: no correctness failure in the ${r.durationSeconds} s of load that ran</p>`
      : `<p class="verdict fail">FAIL</p><ul>${r.failures.map((f) => `<li>${esc(f.route)}: ${f.count} ${esc(FAILURE_KINDS[f.kind])}</li>`).join('')}${r.accepted === 0 ? '<li>no request was accepted</li>' : ''}</ul>`
  }${short === undefined ? '' : `<p class="cut-short">${esc(short)}</p>`}`;
  const rows = LOAD_ROUTES.filter((route) => r.routes[route] !== undefined).map((route) => {
    const t = r.routes[route]!;
    const refused = Object.entries(t.refused)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ');
    return `<tr><th>${esc(route)}</th>${[t.requests, t.accepted, t.badSignatures, t.refusedValid, t.shed429 + t.shed503, t.http5xx, t.results.misalignedEntries, t.ordersPlaced].map(cell).join('')}${cell(t.latencyMs.p50)}${cell(t.latencyMs.p99)}<td>${esc(refused)}</td></tr>`;
  });
  const body = `<header><h1>spotcheck load</h1><p class="meta">${esc(r.source === 'engine' ? 'local engine' : 'Artillery report')}${r.target === undefined ? '' : ` against ${esc(r.target)}`}</p>
${verdict}
<p>${r.requests} requests in ${r.durationSeconds} s: ${r.requestsPerSecond} req/s; ${r.ordersPlaced} orders placed (${r.ordersPerSecond}/s); latency p50 ${r.latencyMs.p50 ?? '-'} ms, p95 ${r.latencyMs.p95 ?? '-'} ms, p99 ${r.latencyMs.p99 ?? '-'} ms</p></header>
<main><h2>Latency over time</h2>${PLOT_STYLE}${latencyOverTime(r)}
<h2>Routes</h2><table><tr><th>route</th><th>requests</th><th>accepted</th><th>bad signatures</th><th>valid refused</th><th>shed (429/503)</th><th>5xx</th><th>misaligned entries</th><th>orders</th><th>p50 ms</th><th>p99 ms</th><th>refused by HTTP status x code</th></tr>${rows.join('')}</table>
<p>Time-window refusals: ${r.timeWindow.clientQueue} stale in the client queue, ${r.timeWindow.networkServer} went stale in the network or server, ${r.timeWindow.inWindow} inside the window. No answer: ${r.transportErrors}.</p></main>`;
  return page('spotcheck load report', body);
}
