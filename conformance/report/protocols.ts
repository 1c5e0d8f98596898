/**
 * Which HTTP version carried each route's exchanges (`--http2` offers HTTP/2 by TLS ALPN;
 * the server picks): the report's `protocols`, and its line in the console and HTML reports.
 */
import type { HttpProtocol } from '../../src/client/http.js';
import type { RouteProtocols } from '../engine/transport.js';
import type { RunReport } from '../judgement/types.js';

/** The report's `protocols`: answered exchanges per route and protocol, and the protocols met at all. */
export interface ProtocolSummary {
  /** Whether HTTP/2 was offered (`--http2`). */
  offered: HttpProtocol[];
  /** Per route (`batch/json`, `v1/query`, ...): answered exchanges per protocol. */
  routes: Record<string, Partial<Record<HttpProtocol, number>>>;
  /** Every protocol that carried an answer, requests of no route (the clock's) included. */
  used: HttpProtocol[];
}

/** A run report with the protocols its routes used. */
export type ReportWithProtocols = RunReport & { protocols?: ProtocolSummary };

/** The summary of a transport's counts (conformance/engine/transport.ts `routeProtocols`). */
export function protocolSummary(counts: RouteProtocols, http2: boolean): ProtocolSummary {
  const routes: ProtocolSummary['routes'] = {};
  const used = new Set<HttpProtocol>();
  for (const [route, c] of Object.entries(counts)) {
    for (const p of Object.keys(c) as HttpProtocol[]) used.add(p);
    if (route !== 'other') routes[route] = { ...c };
  }
  return {
    offered: http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
    routes: Object.fromEntries(Object.entries(routes).sort(([a], [b]) => a.localeCompare(b))),
    used: [...used].sort(),
  };
}

/** `HTTP/2 (h2) on every route (6)`, or route by route when they differ. */
export function protocolLine(p: ProtocolSummary): string {
  const name = (x: HttpProtocol) => (x === 'h2' ? 'HTTP/2 (h2)' : 'HTTP/1.1');
  const per = Object.entries(p.routes).map(([route, c]) => {
    const ps = Object.keys(c).sort() as HttpProtocol[];
    return { route, text: ps.map((x) => (ps.length === 1 ? name(x) : `${name(x)} ${c[x]}`)).join(' + ') };
  });
  const offered = p.offered.includes('h2') ? 'HTTP/2 offered by ALPN' : 'HTTP/1.1 only';
  if (per.length === 0) return `protocol: ${p.used.map(name).join(' + ') || 'no answer'} (${offered})`;
  const texts = new Set(per.map((x) => x.text));
  if (texts.size === 1) return `protocol: ${per[0]?.text} on every route (${per.length}; ${offered})`;
  return `protocol per route (${offered}): ${per.map((x) => `${x.route} ${x.text}`).join('; ')}`;
}
