/**
 * Inline SVG plots of the HTML report: the time-window probes against the server clock
 * estimate (§5.4: accepted when `serverTime - recvWindow <= timestamp < serverTime + 1000`)
 * and the latency histogram. Pure text, no script, no font files.
 */
import type { TimeProbe, TrafficReport } from '../engine/traffic.js';

/** Escape text for HTML (and SVG) content and attribute values. */
export function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A probe and the check that sent it. */
export interface PlottedProbe extends TimeProbe {
  check: string;
}

/** The seed's default recvWindow (§5.4 item 2) and allowed lead (§5.4 item 4), ms. */
const DEFAULT_WINDOW = 5000;
const LEAD = 1000;

/** Linear within ±1000 ms, logarithmic beyond: the lead edge and an hour-old probe fit one axis. */
export function symlog(ms: number): number {
  const a = Math.abs(ms);
  return Math.sign(ms) * (a <= LEAD ? a / LEAD : 1 + Math.log10(a / LEAD));
}

/** Widest bracket (last accepted to first refused) still drawn as a measured edge, ms: a wider one bounds the edge but does not measure it. */
export const EDGE_BRACKET_MS = 500;

/** The edges the probes of one window measure: halfway between the last accepted and the first refused offset on each side, when those are close. */
export function measuredEdges(probes: readonly TimeProbe[]): { lead?: number; past?: number } {
  const acc = probes.filter((p) => p.verdict === 'accepted').map((p) => p.offsetMs);
  const ref = probes.filter((p) => p.verdict === 'rejected').map((p) => p.offsetMs);
  const out: { lead?: number; past?: number } = {};
  if (acc.length === 0) return out;
  const hi = Math.max(...acc);
  const lo = Math.min(...acc);
  const above = ref.filter((x) => x > hi);
  const below = ref.filter((x) => x < lo);
  const up = above.length > 0 ? Math.min(...above) : undefined;
  const down = below.length > 0 ? Math.max(...below) : undefined;
  if (up !== undefined && up - hi <= EDGE_BRACKET_MS) out.lead = Math.round((hi + up) / 2);
  if (down !== undefined && lo - down <= EDGE_BRACKET_MS) out.past = Math.round((lo + down) / 2);
  return out;
}

function tickLabel(ms: number): string {
  if (ms === 0) return '0';
  const a = Math.abs(ms);
  const sign = ms < 0 ? '−' : '+';
  if (a >= 3_600_000) return `${sign}${a / 3_600_000} h`;
  if (a >= 60_000) return `${sign}${a / 60_000} min`;
  if (a >= 1000) return `${sign}${a / 1000} s`;
  return `${sign}${a} ms`;
}

const TICKS = [0, 500, 1000, 5000, 30_000, 600_000, 3_600_000];

/**
 * The time-window plot: one row per recvWindow sent; the seed's accepted window shaded with
 * its edges (−recvWindow, +1000 ms) drawn solid, the clock uncertainty as a band around
 * each edge and around the estimated server time, the edges the probes show dashed, and
 * every probe (accepted: green dot, refused: red cross, anything else: orange square).
 */
export function timePlot(
  probes: readonly PlottedProbe[],
  clock: { offsetMs?: number; uncertaintyMs?: number; method: string },
): string {
  const windows = [...new Set(probes.map((p) => p.recvWindow ?? DEFAULT_WINDOW))].sort((a, b) => a - b);
  const u = clock.uncertaintyMs ?? 0;
  const lowMs = Math.min(-Math.max(...windows, DEFAULT_WINDOW) * 1.3, ...probes.map((p) => p.offsetMs));
  const highMs = Math.max(2 * LEAD, ...probes.map((p) => p.offsetMs));
  const lo = symlog(lowMs) - 0.15;
  const hi = symlog(highMs) + 0.15;
  const W = 960;
  const left = 190;
  const right = 20;
  const top = 28;
  const rowH = 56;
  const H = top + rowH * windows.length + 70;
  const x = (ms: number) => left + ((symlog(ms) - lo) / (hi - lo)) * (W - left - right);
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [];
  parts.push(
    `<svg id="time-plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="time-plot-title">`,
  );
  parts.push(
    `<title id="time-plot-title">Time-window probes: ${probes.length} probes, timestamp minus the server clock estimate (offset ${clock.offsetMs ?? '?'} ms ± ${clock.uncertaintyMs ?? '?'} ms, ${esc(clock.method)})</title>`,
  );
  const bottom = top + rowH * windows.length;
  // grid and axis
  for (const t of TICKS.flatMap((t) => (t === 0 ? [0] : [-t, t]))) {
    if (t < lowMs || t > highMs) continue;
    parts.push(`<line class="grid" x1="${f(x(t))}" y1="${top}" x2="${f(x(t))}" y2="${bottom}"/>`);
    parts.push(`<text class="tick" x="${f(x(t))}" y="${bottom + 16}" text-anchor="middle">${esc(tickLabel(t))}</text>`);
  }
  parts.push(
    `<text class="axis" x="${f(left + (W - left - right) / 2)}" y="${bottom + 36}" text-anchor="middle">timestamp − estimated server time (older ← → ahead; linear within ±1 s, logarithmic beyond)</text>`,
  );
  // the uncertainty band around the estimated server time
  parts.push(
    `<rect class="band" x="${f(x(-u))}" y="${top - 6}" width="${f(Math.max(1, x(u) - x(-u)))}" height="${bottom - top + 6}"><title>clock uncertainty ± ${u} ms around the estimated server time</title></rect>`,
  );
  parts.push(`<text class="tick" x="${f(x(0))}" y="${top - 10}" text-anchor="middle">server now (± ${u} ms)</text>`);
  windows.forEach((w, i) => {
    const y0 = top + i * rowH;
    const mid = y0 + rowH / 2;
    const row = probes.filter((p) => (p.recvWindow ?? DEFAULT_WINDOW) === w);
    parts.push(`<g class="row" data-recv-window="${w}">`);
    parts.push(
      `<text class="label" x="${left - 10}" y="${f(mid + 4)}" text-anchor="end">recvWindow ${w}${row.every((p) => p.recvWindow === undefined) ? ' (default)' : ''}</text>`,
    );
    parts.push(
      `<rect class="window" x="${f(x(-w))}" y="${y0 + 8}" width="${f(x(LEAD) - x(-w))}" height="${rowH - 16}"><title>the seed's window: from −${w} ms to +${LEAD} ms (§5.4)</title></rect>`,
    );
    for (const edge of [-w, LEAD]) {
      parts.push(
        `<rect class="band" x="${f(x(edge - u))}" y="${y0 + 4}" width="${f(Math.max(1, x(edge + u) - x(edge - u)))}" height="${rowH - 8}"/>`,
      );
      parts.push(
        `<line class="seed-edge" x1="${f(x(edge))}" y1="${y0 + 4}" x2="${f(x(edge))}" y2="${y0 + rowH - 4}"><title>seed edge ${edge > 0 ? '+' : '−'}${Math.abs(edge)} ms</title></line>`,
      );
    }
    const m = measuredEdges(row);
    for (const [side, at] of [
      ['lead', m.lead],
      ['past', m.past],
    ] as const) {
      if (at === undefined) continue;
      parts.push(
        `<line class="measured-edge" data-side="${side}" x1="${f(x(at))}" y1="${y0 + 2}" x2="${f(x(at))}" y2="${y0 + rowH - 2}"><title>measured ${side} edge ≈ ${at > 0 ? '+' : ''}${at} ms</title></line>`,
      );
    }
    row.forEach((p, j) => {
      const px = x(p.offsetMs);
      const py = mid + ((j % 5) - 2) * 6;
      const what = `${p.check}: ${p.offsetMs > 0 ? '+' : ''}${p.offsetMs} ms${p.route === undefined ? '' : ` on ${p.route}`}: ${p.verdict}`;
      const mark =
        p.verdict === 'accepted'
          ? `<circle cx="${f(px)}" cy="${f(py)}" r="4"/>`
          : p.verdict === 'rejected'
            ? `<path d="M${f(px - 4)} ${f(py - 4)}L${f(px + 4)} ${f(py + 4)}M${f(px - 4)} ${f(py + 4)}L${f(px + 4)} ${f(py - 4)}"/>`
            : `<rect x="${f(px - 4)}" y="${f(py - 4)}" width="8" height="8"/>`;
      parts.push(
        `<g class="probe ${p.verdict === 'accepted' ? 'accepted' : p.verdict === 'rejected' ? 'refused' : 'other'}" data-offset="${p.offsetMs}"><title>${esc(what)}</title>${mark}</g>`,
      );
    });
    parts.push('</g>');
  });
  // legend
  const ly = H - 14;
  parts.push(
    `<g class="legend"><circle cx="${left}" cy="${ly - 4}" r="4" class="probe accepted-mark"/><text x="${left + 8}" y="${ly}">accepted</text>` +
      `<path class="refused-mark" d="M${left + 86} ${ly - 8}L${left + 94} ${ly}M${left + 86} ${ly}L${left + 94} ${ly - 8}"/><text x="${left + 100}" y="${ly}">refused</text>` +
      `<rect class="other-mark" x="${left + 166}" y="${ly - 8}" width="8" height="8"/><text x="${left + 180}" y="${ly}">other answer</text>` +
      `<line class="seed-edge" x1="${left + 280}" y1="${ly - 10}" x2="${left + 280}" y2="${ly + 2}"/><text x="${left + 286}" y="${ly}">seed edge</text>` +
      `<line class="measured-edge" x1="${left + 370}" y1="${ly - 10}" x2="${left + 370}" y2="${ly + 2}"/><text x="${left + 376}" y="${ly}">measured edge</text>` +
      `<rect class="band" x="${left + 480}" y="${ly - 10}" width="14" height="12"/><text x="${left + 500}" y="${ly}">clock uncertainty</text></g>`,
  );
  parts.push('</svg>');
  return parts.join('\n');
}

function bucketLabel(upTo: number | null, prev: number | undefined): string {
  const ms = (v: number) => (v >= 1000 ? `${v / 1000} s` : `${v} ms`);
  return upTo === null ? `> ${ms(prev ?? 0)}` : `≤ ${ms(upTo)}`;
}

/** The latency histogram: one bar per bucket, its count above it. */
export function latencyHistogram(t: TrafficReport): string {
  const buckets = t.histogram;
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const W = 960;
  const H = 200;
  const left = 40;
  const barW = (W - left - 10) / buckets.length;
  const base = H - 30;
  const parts = [
    `<svg id="latency-plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="latency-plot-title">`,
    `<title id="latency-plot-title">Round trips of ${t.timed} requests by duration</title>`,
  ];
  buckets.forEach((b, i) => {
    const h = (b.count / max) * (base - 20);
    const bx = left + i * barW;
    const prev = i > 0 ? (buckets[i - 1]?.upToMs ?? undefined) : undefined;
    const label = bucketLabel(b.upToMs, prev);
    parts.push(
      `<g class="bar"><rect x="${(bx + 3).toFixed(1)}" y="${(base - h).toFixed(1)}" width="${(barW - 6).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(`${label}: ${b.count} requests`)}</title></rect>`,
    );
    parts.push(
      `<text class="tick" x="${(bx + barW / 2).toFixed(1)}" y="${base + 16}" text-anchor="middle">${esc(label)}</text>`,
    );
    if (b.count > 0)
      parts.push(
        `<text class="count" x="${(bx + barW / 2).toFixed(1)}" y="${(base - h - 4).toFixed(1)}" text-anchor="middle">${b.count}</text>`,
      );
    parts.push('</g>');
  });
  parts.push(`<line class="axis-line" x1="${left}" y1="${base}" x2="${W - 10}" y2="${base}"/>`, '</svg>');
  return parts.join('\n');
}
