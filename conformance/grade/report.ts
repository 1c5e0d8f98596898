/**
 * The grade report: per client rule kept / broken on N of M requests / not exercised, every
 * broken request with its bytes, the doctor's diagnosis and a corrected curl, the timestamp
 * skew over the session (§5.4), and the scenarios that ran. JSON (grade.schema.json),
 * console text and JUnit XML; the HTML page is ./html.ts. No secret in any of them.
 */
import { DOCTOR_FIXES } from '../../src/core/doctor/diagnose.js';
import type { Observation } from '../../src/core/response.js';
import { parsePairs, encodePairs, SIGNATURE_PARAM } from '../../src/core/signing/query.js';
import { DEFAULT_RECV_WINDOW } from '../../src/core/time.js';
import { ENDPOINT_NAMES, endpointAt, SEED_WIRE, type EndpointName, type WireProfile } from '../../src/core/wire.js';
import { curlFor } from '../report/curl.js';
import { xmlEscape } from '../report/junit.js';
import { secretSpellings } from '../report/secret-spellings.js';
import { CLIENT_RULES, CLIENT_RULE_IDS, encodingFault, requirementOn, type ClientRuleId } from './rules.js';
import { SCENARIOS } from './scenarios.js';
import type { Episode, GradeSession, GradedRequest } from './session.js';

/** A rule's verdict over the session. */
export interface RuleVerdict {
  id: ClientRuleId;
  section: string;
  catalog: string[];
  requirement: string;
  /** `warned`: not kept only where no MUST of the seed is at stake (a recommendation, an open point): never BROKEN. */
  status: 'kept' | 'broken' | 'warned' | 'not-exercised';
  /** Requests that exercised the rule, those that broke it, and those it only warned about. */
  exercised: number;
  broken: number;
  warned: number;
}

/** One broken rule on one request (`warning`: a recommendation or an open point, no MUST of the seed). */
export interface Finding {
  rule: ClientRuleId;
  detail: string;
  warning?: true;
  diagnosis?: {
    code: string;
    also?: string[];
    sentence: string;
    fix: string;
    serverSigned: string;
    clientSigned?: string;
  };
}

/** One graded request in the report. */
export interface ReportedRequest {
  seq: number;
  /** The client order id(s) it carries, else `#seq`: what a reader searches for. */
  key: string;
  /** Server clock at arrival, epoch ms. */
  at: number;
  method: string;
  path: string;
  query: string;
  body: string;
  headers: Record<string, string>;
  endpoint?: string;
  placement: string;
  clientOrderIds: string[];
  skewMs?: number;
  recvWindow?: number;
  scenario?: { name: string; role: 'cue' | 'follow-up' };
  answer?: { status?: number; code?: number; by: string; heldMs?: number; clientClosed?: boolean };
  kept: ClientRuleId[];
  broken: Finding[];
  /** A curl that sends the same order correctly (fresh timestamp, signature computed from $SPOTCHECK_SECRET). */
  correctedCurl?: string;
}

/** How one run of a scenario went. */
export interface ScenarioRun {
  cueSeq: number;
  key: string;
  followUps: number[];
  retried: boolean;
  resigned: boolean;
  replayed: boolean;
  gaveUp: boolean;
  accepted: boolean;
  /** From the cue's answer to the first follow-up, ms. */
  waitedMs?: number;
  backedOff?: boolean;
  clientClosed?: boolean;
  heldMs?: number;
  shapeProblem?: string;
  /** `warned`: what it did breaks no MUST of the seed (a replay, sending before Retry-After, resending a placed order). */
  verdict: 'kept' | 'broken' | 'warned';
  behaviour: string;
}

/** A scenario in the report: published, and its runs (none: it did not run). */
export interface ScenarioReport {
  name: string;
  /** What the client sends, on the paths served. */
  send: string;
  expect: string;
  ran: boolean;
  runs: ScenarioRun[];
}

/** The whole grade report (conformance/grade/grade.schema.json). */
export interface GradeReport {
  tool: 'spotcheck grade';
  version: string;
  startedAt: string;
  endedAt: string;
  /** Where it listened, who answered, and the wire graded: the API-key header and each endpoint's path (a target description may move them). */
  server: { url: string; upstream: string; apiKeyHeader: string; paths: Record<EndpointName, string> };
  verdict: 'kept' | 'broken' | 'nothing-graded';
  summary: {
    requests: number;
    broken: number;
    rulesKept: number;
    rulesBroken: number;
    /** Rules not kept only where no MUST of the seed is at stake. */
    rulesWarned: number;
    rulesNotExercised: number;
    scenariosRun: number;
    scenariosBroken: number;
    ungraded: number;
  };
  rules: RuleVerdict[];
  requests: ReportedRequest[];
  /** Per timestamp sent: when it arrived (ms after the session started), its skew against the server clock, kept or not. */
  skew: Array<{ seq: number; key: string; atMs: number; skewMs: number; recvWindow?: number; kept: boolean }>;
  scenarios: ScenarioReport[];
  unknownScenarios: string[];
}

/** What the report says about the session besides the session itself. */
export interface ReportMeta {
  version: string;
  url: string;
  upstream: string;
  ungraded: number;
  endedAt?: number;
}

const keyOf = (g: GradedRequest): string =>
  g.clientOrderIds.length === 0
    ? `#${g.request.seq}`
    : g.clientOrderIds.length <= 3
      ? g.clientOrderIds.join(', ')
      : `${g.clientOrderIds.slice(0, 3).join(', ')} (+${g.clientOrderIds.length - 3})`;

const PLACEHOLDER_SIG = 'f'.repeat(64);

/**
 * A curl that sends the same request correctly: the API-key header and Content-Type of the
 * endpoint, a clean percent-encoding, recvWindow at most 5000, a fresh timestamp and the
 * signature computed over the query string and body as sent (§5.3), appended to the query.
 */
export function correctedCurl(
  baseUrl: string,
  g: GradedRequest,
  apiKey: string,
  wire: WireProfile = SEED_WIRE,
): string {
  const r = g.request;
  const ep = endpointAt(r.path, wire);
  const form = ep?.bodyKind === 'form';
  const clean = (raw: string): string => {
    const pairs = parsePairs(raw).filter(([k]) => k !== SIGNATURE_PARAM);
    const wide = pairs.some(([k, v]) => k === 'recvWindow' && !(Number(v) <= DEFAULT_RECV_WINDOW));
    if (encodingFault(raw, '') === undefined && !wide)
      return raw
        .split('&')
        .filter((p) => p !== '' && p.split('=', 1)[0] !== SIGNATURE_PARAM)
        .join('&');
    return encodePairs(
      pairs.map(([k, v]): [string, string] => [k, k === 'recvWindow' ? String(DEFAULT_RECV_WINDOW) : v]),
    );
  };
  const ts = String(Date.now());
  const withTs = (raw: string): string =>
    raw
      .split('&')
      .map((p) => (p.startsWith('timestamp=') ? `timestamp=${ts}` : p))
      .join('&');
  let query = withTs(clean(r.query));
  const body = form && r.body !== '' ? withTs(clean(r.body)) : r.body;
  if (!/(^|&)timestamp=/.test(query) && !/(^|&)timestamp=/.test(form ? body : ''))
    query = query === '' ? `timestamp=${ts}` : `${query}&timestamp=${ts}`;
  const signedString = query + body;
  const fullQuery = `${query === '' ? '' : `${query}&`}signature=${PLACEHOLDER_SIG}`;
  const headers: Record<string, string> = { [wire.apiKeyHeader]: apiKey };
  if (body !== '' && ep !== undefined) headers['Content-Type'] = ep.contentType;
  const observation: Observation = { verdict: 'not-sent' };
  const text = curlFor(baseUrl, {
    request: { method: r.method, path: r.path, query: fullQuery, body, headers },
    observation,
    timestamp: ts,
    timestampShiftMs: 0,
    signedString,
    signature: PLACEHOLDER_SIG,
  });
  const left = g.results
    .filter(
      (x) =>
        !x.kept &&
        [
          'CLIENT-BATCH-SIZE',
          'CLIENT-BATCH-ONE-SYMBOL',
          'CLIENT-DECIMAL-FORM',
          'CLIENT-ORDER-FIELDS',
          'CLIENT-ID-LENGTH',
          'CLIENT-ID-UNIQUE',
        ].includes(x.rule),
    )
    .map((x) => x.rule);
  return left.length === 0
    ? text
    : `# still to fix in the orders themselves: ${[...new Set(left)].join(', ')}\n${text}`;
}

function scenarioRun(e: Episode, byseq: Map<number, GradedRequest>): ScenarioRun {
  const cue = byseq.get(e.cueSeq) as GradedRequest;
  const follows = e.followUps.map((s) => byseq.get(s)).filter((g): g is GradedRequest => g !== undefined);
  const brokenOn = (g: GradedRequest, rule: ClientRuleId): boolean => g.results.some((x) => x.rule === rule && !x.kept);
  const mustBroken = (g: GradedRequest, rule: ClientRuleId): boolean =>
    g.results.some((x) => x.rule === rule && !x.kept && x.advisory !== true);
  const replayed = follows.some((g) => brokenOn(g, 'CLIENT-RETRY-RESIGNED'));
  const resigned =
    follows.length > 0 &&
    follows.every((g) => !brokenOn(g, 'CLIENT-RETRY-RESIGNED') && !brokenOn(g, 'CLIENT-SIGNATURE'));
  const first = follows[0];
  const waitedMs =
    first !== undefined && e.cueAnsweredAt !== undefined
      ? Math.max(0, first.request.receivedAt - e.cueAnsweredAt)
      : undefined;
  const accepted = [cue, ...follows].some((g) => g.answer?.status === 200 && g.answer.code === 0);
  const cueKind = e.scenario.cue.kind;
  const retryAfterMs = e.scenario.cue.kind === 'status' ? (e.scenario.cue.retryAfterS ?? 0) * 1000 : 0;
  const backedOff = retryAfterMs > 0 && first !== undefined ? !brokenOn(first, 'CLIENT-BACKOFF') : undefined;
  const staleAfterJump = cueKind === 'clock-jump' && follows.some((g) => mustBroken(g, 'CLIENT-TIMESTAMP'));
  const resentPlaced = cueKind === 'failing-entry' && follows.some((g) => brokenOn(g, 'CLIENT-ID-UNIQUE'));
  const normalFailed = cueKind === 'normal' && !(cue.answer?.status === 200 && cue.answer.code === 0);
  const problems: string[] = [];
  // what breaks no MUST of the seed: a replay, sending before Retry-After (RFC 9110), resending a placed order (D-DUPLICATE-CLIENT-ID)
  const warnings: string[] = [];
  if (e.shapeProblem !== undefined) problems.push(`the request was not the scenario's: ${e.shapeProblem}`);
  if (normalFailed)
    problems.push(
      `the order was not accepted (HTTP ${cue.answer?.status ?? 'none'}, code ${cue.answer?.code ?? 'none'})`,
    );
  if (replayed) warnings.push('sent the same bytes again (a replay, not re-signed)');
  if (backedOff === false) warnings.push(`sent again before the Retry-After of ${retryAfterMs / 1000} s had passed`);
  if (staleAfterJump) problems.push('kept signing with its old clock after the jump (did not re-read the server time)');
  if (resentPlaced) warnings.push('sent again orders the server had already placed');
  const words: string[] = [];
  if (cueKind === 'hold')
    words.push(
      cue.answer?.clientClosed === true
        ? `gave up on the held answer after ${cue.answer.heldMs ?? '?'} ms`
        : 'waited for the held answer',
    );
  if (cueKind !== 'normal') {
    if (follows.length === 0) words.push('did not send again (gave up)');
    else
      words.push(
        `sent again ${follows.length} time(s)${waitedMs !== undefined ? `, first after ${waitedMs} ms` : ''}, ${replayed ? 'replaying the same bytes' : resigned ? 're-signed with a fresh timestamp' : 'with a wrong signature'}${accepted ? ', and was accepted' : ''}`,
      );
  } else words.push(accepted ? 'the order was accepted' : 'the order was refused');
  const run: ScenarioRun = {
    cueSeq: e.cueSeq,
    key: keyOf(cue),
    followUps: e.followUps,
    retried: follows.length > 0,
    resigned,
    replayed,
    gaveUp: cueKind !== 'normal' && follows.length === 0,
    accepted,
    verdict: problems.length > 0 ? 'broken' : warnings.length > 0 ? 'warned' : 'kept',
    behaviour: [...words, ...problems, ...warnings.map((w) => `warning: ${w}`)].join('; '),
  };
  if (waitedMs !== undefined) run.waitedMs = waitedMs;
  if (backedOff !== undefined) run.backedOff = backedOff;
  if (cue.answer?.clientClosed !== undefined) run.clientClosed = cue.answer.clientClosed;
  if (cue.answer?.heldMs !== undefined) run.heldMs = cue.answer.heldMs;
  if (e.shapeProblem !== undefined) run.shapeProblem = e.shapeProblem;
  return run;
}

/** Replace every spelling of the secret in every string of `v` (a report never carries it). */
export function redact<T>(v: T, secret: string): T {
  const spellings = secretSpellings(secret).filter((s) => s.length >= 4);
  const fix = (s: string): string => spellings.reduce((acc, sp) => acc.split(sp).join('[secret]'), s);
  const walk = (x: unknown): unknown =>
    typeof x === 'string'
      ? fix(x)
      : Array.isArray(x)
        ? x.map(walk)
        : typeof x === 'object' && x !== null
          ? Object.fromEntries(Object.entries(x).map(([k, y]) => [fix(k), walk(y)]))
          : x;
  return walk(v) as T;
}

/** Build the report of a session (the secret only redacts; it is never written). */
export function buildGradeReport(session: GradeSession, meta: ReportMeta, secret: string, apiKey: string): GradeReport {
  const byseq = new Map(session.graded.map((g) => [g.request.seq, g]));
  const rules: RuleVerdict[] = CLIENT_RULE_IDS.map((id) => {
    const all = session.graded.flatMap((g) => g.results.filter((x) => x.rule === id));
    const broken = session.graded.filter((g) =>
      g.results.some((x) => x.rule === id && !x.kept && x.advisory !== true),
    ).length;
    const warned = session.graded.filter((g) =>
      g.results.some((x) => x.rule === id && !x.kept && x.advisory === true),
    ).length;
    const exercised = session.graded.filter((g) => g.results.some((x) => x.rule === id)).length;
    const rule = CLIENT_RULES[id];
    return {
      id,
      section: rule.section,
      catalog: rule.catalog,
      requirement: requirementOn(rule, session.wire),
      status: all.length === 0 ? 'not-exercised' : broken > 0 ? 'broken' : warned > 0 ? 'warned' : 'kept',
      exercised,
      broken,
      warned,
    };
  });
  const requests: ReportedRequest[] = session.graded.map((g) => {
    const r = g.request;
    const broken: Finding[] = g.results
      .filter((x) => !x.kept)
      .map((x) => {
        const f: Finding = {
          rule: x.rule,
          detail: x.detail,
          ...(x.advisory === true ? { warning: true as const } : {}),
        };
        if (x.diagnosis !== undefined) {
          const d = x.diagnosis;
          f.diagnosis = {
            code: d.code,
            sentence: d.sentence,
            fix: [d.code, ...(d.also ?? [])].map((c) => DOCTOR_FIXES[c]).join(' '),
            serverSigned: d.serverSigned,
          };
          if (d.also !== undefined) f.diagnosis.also = d.also;
          if (d.clientSigned !== undefined) f.diagnosis.clientSigned = d.clientSigned;
        }
        return f;
      });
    const out: ReportedRequest = {
      seq: r.seq,
      key: keyOf(g),
      at: r.receivedAt,
      method: r.method,
      path: r.path,
      query: r.query,
      body: r.body,
      headers: r.headers,
      placement: g.placement,
      clientOrderIds: g.clientOrderIds,
      kept: [...new Set(g.results.filter((x) => x.kept).map((x) => x.rule))],
      broken,
    };
    if (g.endpoint !== undefined) out.endpoint = g.endpoint;
    if (g.skewMs !== undefined) out.skewMs = g.skewMs;
    if (g.recvWindow !== undefined) out.recvWindow = g.recvWindow;
    if (g.scenario !== undefined) out.scenario = g.scenario;
    if (g.answer !== undefined) {
      const a = g.answer;
      out.answer = { by: a.by };
      if (a.status !== undefined) out.answer.status = a.status;
      if (a.code !== undefined) out.answer.code = a.code;
      if (a.heldMs !== undefined) out.answer.heldMs = a.heldMs;
      if (a.clientClosed !== undefined) out.answer.clientClosed = a.clientClosed;
    }
    if (broken.length > 0) out.correctedCurl = correctedCurl(meta.url, g, apiKey, session.wire);
    return out;
  });
  const scenarios: ScenarioReport[] = SCENARIOS.map((s) => {
    const runs = session.episodes.filter((e) => e.scenario.name === s.name).map((e) => scenarioRun(e, byseq));
    return { name: s.name, send: s.send(session.wire), expect: s.expect, ran: runs.length > 0, runs };
  });
  const runs = scenarios.flatMap((s) => s.runs);
  const rulesBroken = rules.filter((r) => r.status === 'broken').length;
  const scenariosBroken = runs.filter((r) => r.verdict === 'broken').length;
  const report: GradeReport = {
    tool: 'spotcheck grade',
    version: meta.version,
    startedAt: new Date(session.startedAt).toISOString(),
    endedAt: new Date(meta.endedAt ?? Date.now()).toISOString(),
    server: {
      url: meta.url,
      upstream: meta.upstream,
      apiKeyHeader: session.wire.apiKeyHeader,
      paths: Object.fromEntries(ENDPOINT_NAMES.map((n) => [n, session.wire.endpoints[n].path])) as Record<
        EndpointName,
        string
      >,
    },
    verdict: session.graded.length === 0 ? 'nothing-graded' : rulesBroken + scenariosBroken > 0 ? 'broken' : 'kept',
    summary: {
      requests: session.graded.length,
      broken: requests.filter((r) => r.broken.some((f) => f.warning !== true)).length,
      rulesKept: rules.filter((r) => r.status === 'kept').length,
      rulesBroken,
      rulesWarned: rules.filter((r) => r.status === 'warned').length,
      rulesNotExercised: rules.filter((r) => r.status === 'not-exercised').length,
      scenariosRun: runs.length,
      scenariosBroken,
      ungraded: meta.ungraded,
    },
    rules,
    requests,
    skew: session.graded.flatMap((g) =>
      g.skewMs === undefined
        ? []
        : [
            {
              seq: g.request.seq,
              key: keyOf(g),
              atMs: Math.max(0, g.request.receivedAt - session.startedAt),
              skewMs: g.skewMs,
              ...(g.recvWindow !== undefined ? { recvWindow: g.recvWindow } : {}),
              kept: g.results.some((x) => x.rule === 'CLIENT-TIMESTAMP' && x.kept),
            },
          ],
    ),
    scenarios,
    unknownScenarios: [...session.unknownScenarios],
  };
  return redact(report, secret);
}

/** Exit code of a grade: 0 when every exercised rule and every scenario run was kept, 1 otherwise (nothing graded included). */
export function gradeExitCode(r: GradeReport): number {
  return r.verdict === 'kept' ? 0 : 1;
}

/** The endpoint paths graded, as text. */
export function pathsText(r: GradeReport): string {
  return ENDPOINT_NAMES.map((n) => r.server.paths[n]).join(', ');
}

/** The wire graded in one line: header and paths, saying when they are the seed's. */
export function servedLine(r: GradeReport): string {
  const seed =
    r.server.apiKeyHeader === SEED_WIRE.apiKeyHeader &&
    ENDPOINT_NAMES.every((n) => r.server.paths[n] === SEED_WIRE.endpoints[n].path);
  return `API-key header ${r.server.apiKeyHeader}; ${pathsText(r)}${seed ? " (the seed's)" : ' (target description)'}`;
}

/** The report as console text. */
export function renderGradeConsole(r: GradeReport): string {
  const lines: string[] = [];
  const word = { kept: 'KEPT', broken: 'BROKEN', 'nothing-graded': 'NOTHING GRADED' }[r.verdict];
  lines.push(
    `spotcheck grade: ${word}: ${r.summary.requests} signed request(s) graded, ${r.summary.broken} with a broken rule${r.summary.rulesWarned > 0 ? `; ${r.summary.rulesWarned} rule(s) with warnings only (no MUST of the seed at stake: they never change the exit code)` : ''}`,
  );
  lines.push(`  served: ${servedLine(r)}`);
  if (r.verdict === 'nothing-graded')
    lines.push(`  no signed request reached ${pathsText(r)}: point the client at the URL printed at start`);
  lines.push('');
  for (const rule of r.rules) {
    const what =
      rule.status === 'kept'
        ? `kept on ${rule.exercised} of ${rule.exercised}`
        : rule.status === 'broken'
          ? `BROKEN on ${rule.broken} of ${rule.exercised}${rule.warned > 0 ? ` (warnings on ${rule.warned})` : ''}`
          : rule.status === 'warned'
            ? `warning on ${rule.warned} of ${rule.exercised}`
            : 'not exercised';
    const mark = { kept: 'ok ', broken: 'XX ', warned: '!! ', 'not-exercised': ' - ' }[rule.status];
    lines.push(`  ${mark} ${rule.id.padEnd(24)} ${what}  (§${rule.section})`);
  }
  const broken = r.requests.filter((q) => q.broken.length > 0);
  if (broken.length > 0) {
    lines.push('', 'Broken requests (warning: no MUST of the seed at stake):');
    for (const q of broken.slice(0, 20)) {
      lines.push(`  #${q.seq} ${q.key}  ${q.method} ${q.path}`);
      for (const f of q.broken) lines.push(`    ${f.warning === true ? 'warning: ' : ''}${f.rule}: ${f.detail}`);
    }
    if (broken.length > 20) lines.push(`  … and ${broken.length - 20} more (see the JSON or HTML report)`);
  }
  const ran = r.scenarios.filter((s) => s.ran);
  if (ran.length > 0) {
    lines.push('', 'Scenarios:');
    for (const s of ran)
      for (const run of s.runs)
        lines.push(
          `  ${{ kept: 'ok ', broken: 'XX ', warned: '!! ' }[run.verdict]} ${s.name} (${run.key}): ${run.behaviour}`,
        );
  }
  if (r.unknownScenarios.length > 0)
    lines.push('', `Unknown scenarios asked for: ${r.unknownScenarios.join(', ')} (see spotcheck grade --scenarios)`);
  return `${lines.join('\n')}\n`;
}

/** The report as JUnit XML: one testcase per client rule and one per scenario run. */
export function renderGradeJunit(r: GradeReport): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const rule of r.rules) {
    const name = xmlEscape(rule.id);
    if (rule.status === 'not-exercised') {
      skipped++;
      cases.push(
        `    <testcase classname="spotcheck.grade.rules" name="${name}"><skipped message="not exercised"/></testcase>`,
      );
    } else if (rule.status === 'broken' || rule.status === 'warned') {
      const detail = r.requests
        .filter((q) => q.broken.some((f) => f.rule === rule.id))
        .map(
          (q) =>
            `#${q.seq} ${q.key}: ${q.broken
              .filter((f) => f.rule === rule.id)
              .map((f) => `${f.warning === true ? 'warning: ' : ''}${f.detail}`)
              .join('; ')}`,
        )
        .join('\n');
      // a warning is no failure (no MUST of the seed at stake): told in the case's output
      if (rule.status === 'warned') {
        cases.push(
          `    <testcase classname="spotcheck.grade.rules" name="${name}"><system-out>${xmlEscape(`warning on ${rule.warned} of ${rule.exercised} requests (§${rule.section}):\n${detail}`)}</system-out></testcase>`,
        );
        continue;
      }
      failures++;
      cases.push(
        `    <testcase classname="spotcheck.grade.rules" name="${name}"><failure message="${xmlEscape(`broken on ${rule.broken} of ${rule.exercised} requests (§${rule.section})`)}" type="${name}">${xmlEscape(detail)}</failure></testcase>`,
      );
    } else cases.push(`    <testcase classname="spotcheck.grade.rules" name="${name}"/>`);
  }
  for (const s of r.scenarios)
    for (const run of s.runs) {
      const name = xmlEscape(`${s.name} #${run.cueSeq}`);
      if (run.verdict === 'broken') {
        failures++;
        cases.push(
          `    <testcase classname="spotcheck.grade.scenarios" name="${name}"><failure message="${xmlEscape(run.behaviour)}" type="SCENARIO"/></testcase>`,
        );
      } else
        cases.push(
          `    <testcase classname="spotcheck.grade.scenarios" name="${name}"><system-out>${xmlEscape(run.behaviour)}</system-out></testcase>`,
        );
    }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="spotcheck grade" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="grade" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
