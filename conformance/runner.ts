/**
 * The conformance runner: measures the target's clock, runs the selected checks in
 * order with the run's seed, and turns outcomes into a report (levels and profile
 * applied, a reproduction for every failure).
 */
import type { Dispatcher } from 'undici';
import { rule, type RuleLevel } from '../src/rules.js';
import { readKitJson } from '../src/paths.js';
import { entriesOf, isRecord } from './observe.js';
import { measureClock } from './clock.js';
import { curlFor } from './curl.js';
import { checks as allChecks } from './checks/index.js';
import { clientIdSource } from './generators.js';
import { BATCH_PATH, createRequestFactory } from './requests.js';
import { createTransport, type Sender } from './transport.js';
import type { CheckContext, CheckDefinition, CheckOutcome, CheckReport, Profile, RunReport, Target } from './types.js';

export interface RunOptions {
  target: Target;
  profile: Profile;
  seed: number;
  /** Generated cases per property (default 100). */
  runs: number;
  /** Requests per second; 0 = unlimited. */
  rate: number;
  timeoutMs: number;
  /** Rule-ID or check-ID prefixes to run (empty: all). */
  only: readonly string[];
  /** Stop placing orders once this many were accepted. */
  maxOrders: number;
  /** The check list (default: all checks). */
  checks?: readonly CheckDefinition[];
  dispatcher?: Dispatcher;
  /** Progress events for the console. */
  onProgress?: (p: { done: number; total: number; current?: string; requests: number }) => void;
}

/** The checks an `--only` list selects, `runLast` ones at the end. */
export function selectChecks(list: readonly CheckDefinition[], only: readonly string[]): CheckDefinition[] {
  const picked = only.length === 0 ? [...list] : list.filter((c) => only.some((p) => c.id === p || c.id.startsWith(p) || c.ruleId.startsWith(p)));
  return [...picked.filter((c) => !c.runLast), ...picked.filter((c) => c.runLast)];
}

function version(): string {
  try {
    return readKitJson<{ version: string }>('package.json').version;
  } catch {
    return '0.0.0';
  }
}

/** Orders a response shows as placed (accepted single order, or batch entries with code 0). */
function placedBy(path: string, verdict: string, json: unknown): number {
  if (verdict !== 'accepted') return 0;
  if (path !== BATCH_PATH) return 1;
  return (entriesOf(json) ?? []).filter((e) => isRecord(e) && e.code === 0).length;
}

/** Apply level and profile to an outcome: what goes in the report. */
export function judge(def: CheckDefinition, out: CheckOutcome, profile: Profile): { status: CheckReport['status']; level: RuleLevel; pinned: boolean } {
  const level = def.level ?? rule(def.ruleId).level;
  if (out.status === 'info' && profile === 'reference' && out.matchesReference === false) {
    return { status: 'fail', level: 'MUST', pinned: true };
  }
  if (out.status === 'pass' && level === 'INFO') return { status: 'info', level, pinned: false };
  return { status: out.status, level, pinned: false };
}

/** Run the checks against the target and build the report. */
export async function runConformance(opts: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const selected = selectChecks(opts.checks ?? allChecks, opts.only);
  let placed = 0;
  let maxRttMs = 0;
  const transport = createTransport({
    baseUrl: opts.target.baseUrl,
    rate: opts.rate,
    timeoutMs: opts.timeoutMs,
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
  let current: string | undefined;
  let done = 0;
  const send: Sender = async (req, facts) => {
    const r = await transport.send(req, facts);
    placed += placedBy(req.path, r.observation.verdict, r.observation.json);
    if (r.observation.elapsedMs !== undefined && current === undefined) maxRttMs = Math.max(maxRttMs, r.observation.elapsedMs);
    opts.onProgress?.({ done, total: selected.length, ...(current === undefined ? {} : { current }), requests: transport.count() });
    return r;
  };

  const needsClock = selected.some((c) => c.ruleId.startsWith('TIME') || c.id.startsWith('TIME'));
  const clock = await measureClock({
    send,
    probe: { method: 'POST', path: BATCH_PATH, query: '', body: '[]', headers: { 'content-type': 'application/json' } },
    ...(opts.target.timePath === undefined ? {} : { timePath: opts.target.timePath }),
    samples: needsClock ? 12 : 2,
  });

  const factory = createRequestFactory({ apiKey: opts.target.apiKey, secret: opts.target.secret, serverNow: () => clock.serverNow() });
  const ctx: CheckContext = {
    target: opts.target,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    send,
    requests: factory,
    clock,
    clientId: clientIdSource(opts.seed),
    maxRttMs: Math.ceil(maxRttMs),
    requestSpacingMs: opts.rate > 0 ? Math.ceil(1000 / opts.rate) : 0,
    timeouts: () => transport.timeouts(),
  };

  const reports: CheckReport[] = [];
  for (const def of selected) {
    current = def.id;
    opts.onProgress?.({ done, total: selected.length, current, requests: transport.count() });
    const t0 = performance.now();
    let out: CheckOutcome;
    if (def.placesOrders && placed >= opts.maxOrders) {
      out = { status: 'skip', reason: `the cap of ${opts.maxOrders} placed orders was reached (--max-orders)` };
    } else {
      try {
        out = await def.run(ctx);
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        out = { status: 'fail', expected: 'the check to complete', actual: `the runner hit an internal error: ${msg}` };
      }
    }
    const r = rule(def.ruleId);
    const j = judge(def, out, opts.profile);
    const rep: CheckReport = {
      id: def.id,
      ruleId: def.ruleId,
      family: r.family,
      level: j.level,
      status: j.status,
      title: def.title,
      section: r.section,
      requirement: r.sentence,
      durationMs: Math.round(performance.now() - t0),
    };
    if (j.pinned) {
      rep.expected = 'the reference choice of spec/decisions.md (reference profile)';
      rep.actual = out.observed ?? 'a different behaviour';
    }
    if (out.expected !== undefined) rep.expected = out.expected;
    if (out.actual !== undefined) rep.actual = out.actual;
    if (out.observed !== undefined) rep.observed = out.observed;
    if (out.reason !== undefined) rep.reason = out.reason;
    if (out.counterexample !== undefined) rep.counterexample = out.counterexample;
    if (out.runs !== undefined) rep.runs = out.runs;
    if (rep.status === 'fail' && out.exchange) rep.reproduce = curlFor(opts.target.baseUrl, out.exchange);
    reports.push(rep);
    done++;
  }
  current = undefined;
  opts.onProgress?.({ done, total: selected.length, requests: transport.count() });

  const count = (s: CheckReport['status']) => reports.filter((r) => r.status === s).length;
  return {
    tool: { name: 'spotcheck', version: version() },
    target: opts.target.baseUrl,
    profile: opts.profile,
    seed: opts.seed,
    runs: opts.runs,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: transport.count(),
    clock: {
      method: clock.method,
      ...(clock.offsetMs === undefined ? {} : { offsetMs: clock.offsetMs }),
      ...(clock.uncertaintyMs === undefined ? {} : { uncertaintyMs: clock.uncertaintyMs }),
      ...(clock.note === undefined ? {} : { note: clock.note }),
    },
    summary: {
      passed: count('pass'),
      failed: count('fail'),
      info: count('info'),
      skipped: count('skip'),
      mustFailures: reports.filter((r) => r.status === 'fail' && r.level === 'MUST').length,
    },
    checks: reports,
  };
}
