/**
 * `spotcheck run` and `spotcheck replay`: run the conformance checks against the
 * embedded reference server (no target given) or any server URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { pathToFileURL } from 'node:url';
import { dirname, resolve } from 'node:path';
import { kitPath } from '../../src/paths.js';
import { rule } from '../../src/rules.js';
import { colorWanted, credential, parse, type Io } from '../../src/cli/args.js';
import { isSpotcheckError, SpotcheckError } from '../../src/core/errors.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { sendRaw } from '../../src/client/http.js';
import {
  DEMO_API_KEY,
  DEMO_READONLY_API_KEY,
  DEMO_READONLY_SECRET,
  DEMO_SECRET,
} from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { checks } from '../checks/index.js';
import { renderConsole, RULES_PAGE } from '../report/console.js';
import { renderJunit } from '../report/junit.js';
import { renderHtml } from '../report/html.js';
import { applyBaseline, gateFails, loadBaseline, markCheck } from '../report/baseline.js';
import { assertWritable, openNdjson, writeReportFile } from '../report/files.js';
import { earlyReport, type EarlyStop } from '../report/stopped.js';
import { readCa, targetAgent, tlsAdvice } from './tls.js';
import { loadDescription, resolveDescription, type TargetDescription } from '../target/description.js';
import { coverageMatrix, renderMatrix } from '../judgement/coverage.js';
import { DEFAULT_TIMEOUT_MS, routeProtocols } from '../engine/transport.js';
import { protocolSummary, type ReportWithProtocols } from '../report/protocols.js';
import { runConformance, selectChecks, unmatched } from '../engine/runner.js';
import { incompleteMust } from '../report/run-report.js';
import { clipWords } from '../report/words.js';
import { targetArgv, type RunSettings } from '../report/reproduce.js';
import type { CheckReport, DiscoveryReport, Strictness, RunReport, Target } from '../judgement/types.js';

/** Default generated cases per property (the mutant self-test catches every mutant with half the old 100). */

/** The signals that stop a run with every report written (SIGINT: Ctrl-C; SIGTERM: a CI runner; SIGHUP: a closed terminal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** The shell's exit code for a process a signal stopped: 128 + its number. */
const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** The console's line for a run that ended early: why, and how many checks were not run (every report says the same). */
export function partialLine(report: RunReport, total: number): string {
  const s = report.stopped;
  if (s === undefined) return '';
  const why =
    s.reason === 'interrupted'
      ? `stopped by ${s.signal ?? 'SIGINT'}${s.signal === undefined || s.signal === 'SIGINT' ? ' (Ctrl-C)' : ''}`
      : s.reason === 'fail-fast'
        ? 'stopped at the first failure (--fail-fast)'
        : s.reason === 'target-down'
          ? `the target stopped answering: ${s.message ?? ''} ROBUST-NO-HANG names the requests of the silence`
          : (s.message ?? s.reason);
  return `PARTIAL: ${why}; ${s.notRun} of ${total} checks not run (status skip)`;
}

/**
 * Generated cases per property. 40: the mutant self-test catches every mutant at 20 and 35 as at
 * 50 (seeds 7 and 11), and a default run then fits the round trips of a 50-150 ms link at
 * concurrency 16 in under 20 s (`npm run bench:network`).
 */
export const DEFAULT_RUNS = 40;
/** Default request ceiling for a remote target, per second (a full verdict in about a minute). */
export const REMOTE_RATE = 100;
/** Default checks in flight for a remote target: round trips, not the CPU, bound the run. */
export const REMOTE_CONCURRENCY = 16;
/** Default checks in flight on loopback (the embedded server shares this process and its cores). */
export const LOOPBACK_CONCURRENCY = 2;

export const RUN_HELP = `Usage: spotcheck run [options]
       spotcheck replay --seed S --only ID (--base-url URL | --config FILE | --embedded) [options]
       spotcheck replay --from-report FILE --only ID

Runs the conformance checks. With no --base-url it starts the embedded reference
server on a free loopback port and checks that. \`replay\` reruns named checks and
needs its target said out loud (the Replay: line under a failure carries it), so a
replay never falls back to the embedded server by accident; --from-report takes the
target, seed, profile and runs from a --report-json file.

Target:
  --config FILE          target description (JSON with comments; \`spotcheck init\`
                         writes one): header name, paths, endpoints and placements
                         offered, batch signature coverage, order values, largest
                         recvWindow. Flags below override it.
  --base-url URL         server to check (e.g. https://api.example.com)
  --api-key K            API key (or SPOTCHECK_API_KEY)
  --secret S             its secret (or SPOTCHECK_SECRET); never printed
  --symbol SYM           symbol orders are placed on (default BTCUSDT)
  --other-symbol SYM     second symbol for the mixed-symbol check (default ETHUSDT)
  --no-trade-api-key K   optional key without TRADE permission (AUTH-PERMISSION;
                         or SPOTCHECK_NO_TRADE_API_KEY)
  --no-trade-secret S    its secret (or SPOTCHECK_NO_TRADE_SECRET); never printed
  --time-path PATH       optional server-time endpoint ({"serverTime": ms}); by
                         default the clock is measured from the HTTP Date header
  --api-key-header NAME  API-key header name (default ${API_KEY_HEADER}, seed §5.2)
  --path-prefix PATH     prepended to every endpoint path (e.g. /gateway)
  --embedded             check the embedded reference server (the default of run;
                         replay needs it said)
  --ca FILE              PEM certificate(s) to trust besides Node's default CAs, for
                         an HTTPS target with a private CA or a self-signed
                         certificate (or "ca" in --config, relative to that file;
                         NODE_EXTRA_CA_CERTS=FILE does the same)
  --http2                offer HTTP/2 to an HTTPS target (TLS ALPN); a server
                         offering only HTTP/1.1 gets that. The report says which
                         protocol each route used

Selection and reproducibility:
  --profile P            core (default, lenient) or reference (pins spec/decisions.md)
  --only PREFIX          run checks whose ID or rule ID starts with PREFIX
                         (repeatable, or comma-separated)
  --exclude PREFIX       leave out checks whose ID or rule ID starts with PREFIX
                         (repeatable, or comma-separated)
  --fail-fast            stop after the first failure that fails the run (one
                         check at a time unless --concurrency is given)
  --seed N               seed of every random choice (printed; default random)
  --runs N               generated cases per property (default ${DEFAULT_RUNS})
  --strict               SHOULD-level failures also make the exit code 1
  --allow-inconclusive   a MUST rule left undecided on a route the target offers
                         does not make the run incomplete (exit 3)
  --list, --dry-run      print the checks that would run and send nothing

Safety:
  --rate N               requests per second, a hard ceiling (default 100 for a
                         remote target; unlimited for the embedded server and any
                         loopback target; 0 = unlimited)
  --concurrency N        checks (and route probes within a check) in flight at
                         once (default 16 for a remote target, 2 for loopback;
                         1 = one request at a time). Time-window checks run
                         one at a time, their probes first in the queue
  --max-orders N         at most N orders placed, whatever the server accepts: every
                         request that could place one (discovery, probes, retries)
                         reserves its orders before it is sent, requests in flight
                         included, shared fairly between checks; a check whose
                         requests do not fit is skipped (reason: the order budget).
                         0: nothing that could place an order is sent, exit 2 (with
                         a test-order path in --config, only that path gets orders).
                         Default 10000 for a target; unlimited for the embedded server
  --timeout MS           per-request deadline: headers and the whole body (default ${DEFAULT_TIMEOUT_MS})
  --max-time S           whole-run deadline in seconds: past it nothing is sent, the
                         checks not run are reported as skip with the reason.
                         Default: ten times what the run's requests take at the
                         round trips measured in discovery, at least 120 s
  --yes                  do not pause before sending orders to a non-loopback host

Reports:
  --report-json FILE     write the JSON report (schema: conformance/report/report.schema.json)
  --junit FILE           write JUnit XML, one testcase per check
  --report-html FILE     write one self-contained HTML page (no script, nothing
                         fetched): verdict, discovery, the rule x route grid, every
                         failure with its curl, the time-window probes plotted
                         against the server clock, latency
  --report-ndjson FILE   stream events as they happen, one JSON object a line:
                         start; evidence, one per check as its probes end;
                         check, one per check with its final verdict once the
                         run decides; end
                         Report paths are checked before the first request; on
                         Ctrl-C, SIGTERM or SIGHUP every report is written, the
                         checks not run as skipped ("stopped" in JSON, a failed
                         "the run ran to its end" case in JUnit); exit 130, 143, 129.
                         A target that stops answering (three requests in a row
                         unanswered, and a probe on a fresh connection too) ends the
                         run within seconds: ROBUST-NO-HANG names the requests of
                         the silence, the other checks are skipped, exit 1
  --baseline FILE        known failures, JSON [{"id": "CHECK-ID", "reason": "..."}]:
                         listed failures do not fail the run (reported as
                         baselined); a listed check that passes does (stale entry)
  --docs-url URL         base URL of the docs site, for rule links in failures
                         (default: the site built in this clone by npm run docs,
                         else the rule catalog file shipped in the package)
  --no-color             plain console output: no color, no redrawn progress
                         line (NO_COLOR=1 does the same)
  -h, --help             this text

Exit codes: 0 every MUST rule passed or not applicable on every route the target
offers; 1 a MUST-level failure (a target that stopped answering mid-run included);
2 usage error, the target could not be reached, the deadline (--max-time or the
default) ended the run before every check ran, --max-orders left MUST checks
without a request, or --max-orders 0 (no verdict); 3 incomplete: a MUST rule was
left inconclusive on a route the target offers (the rules and causes are printed;
--allow-inconclusive, or the route declared not offered in the target description,
accepts it); 130, 143, 129 stopped by SIGINT, SIGTERM, SIGHUP.
`;

const options = {
  'base-url': { type: 'string' },
  config: { type: 'string' },
  embedded: { type: 'boolean', default: false },
  'from-report': { type: 'string' },
  'api-key-header': { type: 'string' },
  'path-prefix': { type: 'string' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
  symbol: { type: 'string' },
  'other-symbol': { type: 'string' },
  'no-trade-api-key': { type: 'string' },
  'no-trade-secret': { type: 'string' },
  'time-path': { type: 'string' },
  ca: { type: 'string' },
  http2: { type: 'boolean', default: false },
  profile: { type: 'string', default: 'core' },
  only: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'fail-fast': { type: 'boolean', default: false },
  'report-ndjson': { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string', default: String(DEFAULT_RUNS) },
  strict: { type: 'boolean', default: false },
  'allow-inconclusive': { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  'max-orders': { type: 'string' },
  timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_MS) },
  'max-time': { type: 'string' },
  yes: { type: 'boolean', default: false },
  'report-json': { type: 'string' },
  junit: { type: 'string' },
  'report-html': { type: 'string' },
  baseline: { type: 'string' },
  'docs-url': { type: 'string' },
  'no-color': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function int(name: string, v: string, min: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
    throw new SpotcheckError('ERR_USAGE', `--${name} must be a whole number of at least ${min}, got '${v}'`);
  }
  return Number(v);
}

/** Wait `ms`, or reject as soon as `signal` aborts (Ctrl-C during the pause before a remote run). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('interrupted'));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether a URL's host is a loopback name or address (127.0.0.0/8, ::1, IPv4-mapped 127.x, localhost). */
export function isLoopback(url: URL): boolean {
  const h = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    // IPv4-mapped 127.x, as the URL parser writes it: ::ffff:7fxx:xxxx
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)
  );
}

/**
 * The warning before orders go to a host that is not loopback. It says "not loopback", not
 * "not this machine": an address of this machine on another interface is not loopback either.
 */
export function notLoopbackWarning(host: string, what: string): string {
  return `WARNING: ${host} is not a loopback address. ${what}\n`;
}

/**
 * A target given by --base-url: its URL (http or https) and its credentials, from the
 * flags or SPOTCHECK_API_KEY / SPOTCHECK_SECRET; a usage error names what is missing.
 */
export function remoteTarget(
  baseUrlArg: string,
  v: { 'api-key'?: string | undefined; secret?: string | undefined },
  env: NodeJS.ProcessEnv,
): { url: URL; apiKey: string; secret: string } {
  let url: URL;
  try {
    url = new URL(baseUrlArg);
  } catch {
    throw new SpotcheckError('ERR_USAGE', `--base-url is not a URL: '${baseUrlArg}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SpotcheckError('ERR_USAGE', '--base-url must be http:// or https://');
  const apiKey = credential(v['api-key'], 'SPOTCHECK_API_KEY', env);
  const secret = credential(v.secret, 'SPOTCHECK_SECRET', env);
  if (apiKey === undefined || secret === undefined) {
    throw new SpotcheckError(
      'ERR_USAGE',
      'a target needs credentials: --api-key and --secret, or SPOTCHECK_API_KEY and SPOTCHECK_SECRET',
    );
  }
  return { url, apiKey, secret };
}

/**
 * Where failures link their rule, and the line says which place it is: the docs site at
 * --docs-url, else the site built in this clone (`npm run docs`), else the rule catalog
 * shipped in the package (spec/rules.json), so an installed kit's link always opens.
 */
export function ruleLinker(docsUrl: string | undefined): (ruleId: string) => string {
  if (docsUrl !== undefined) {
    const page = `${docsUrl.replace(/\/+$/, '')}/${RULES_PAGE}`;
    return (id) => `${page}#${id}`;
  }
  const local = kitPath('site', ...RULES_PAGE.split('/'));
  if (existsSync(local)) {
    const page = pathToFileURL(local).href;
    return (id) => `${page}#${id} (the docs site built in this clone; --docs-url URL links a published one)`;
  }
  const catalog = pathToFileURL(kitPath('spec', 'rules.json')).href;
  return (id) =>
    `${id} in ${catalog} (the rule catalog shipped with the kit; --docs-url URL links your published docs site, \`npm run docs\` in a clone builds one)`;
}

/** The arguments a `--report-json` file gives a replay: its target settings and seed. */
function replayFromReport(file: string): string[] {
  let report: { seed?: unknown; replayArgs?: unknown };
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as typeof report;
  } catch (err) {
    const why = err instanceof SyntaxError ? 'not JSON' : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw new SpotcheckError('ERR_USAGE', `--from-report: cannot read ${file}: ${why}`);
  }
  const args = report.replayArgs;
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string') || typeof report.seed !== 'number') {
    throw new SpotcheckError(
      'ERR_USAGE',
      `--from-report: ${file} has no seed and replayArgs (is it a spotcheck --report-json file?)`,
    );
  }
  return [...(args as string[]), '--seed', String(report.seed)];
}

/** `run` (and `replay`, which requires --seed and --only). */
export async function runCommand(argv: string[], io: Io, mode: 'run' | 'replay' = 'run'): Promise<number> {
  const { values: v } = parse({ args: argv, strict: true, options }, mode);
  if (v.help) {
    io.out(RUN_HELP);
    return 0;
  }
  if (v['from-report'] !== undefined) {
    if (mode !== 'replay') throw new SpotcheckError('ERR_USAGE', '--from-report belongs to `spotcheck replay`');
    const rest = argv.filter(
      (a, i) => a !== '--from-report' && argv[i - 1] !== '--from-report' && !a.startsWith('--from-report='),
    );
    return runCommand([...replayFromReport(v['from-report']), ...rest], io, mode);
  }
  if (v.embedded && v['base-url'] !== undefined)
    throw new SpotcheckError('ERR_USAGE', '--embedded and --base-url name two different targets: pick one');
  if (mode === 'replay' && !v.embedded && v['base-url'] === undefined && v.config === undefined) {
    throw new SpotcheckError(
      'ERR_USAGE',
      'replay: name the target the failure came from (--base-url URL or --config FILE, as on the Replay: line, or --from-report FILE), or --embedded for the built-in reference server',
    );
  }
  if (v.profile !== 'core' && v.profile !== 'reference')
    throw new SpotcheckError('ERR_USAGE', `--profile must be core or reference, got '${v.profile}'`);
  const profile: Strictness = v.profile;
  const only = (v.only ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (mode === 'replay' && (v.seed === undefined || only.length === 0)) {
    throw new SpotcheckError(
      'ERR_USAGE',
      'replay: --seed S and --only ID are both required (both are printed with every failure)',
    );
  }
  const seed = v.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : int('seed', v.seed, 0);
  const runs = int('runs', v.runs, 1);
  const timeoutMs = int('timeout', v.timeout, 100);
  const maxTimeMs = v['max-time'] === undefined ? undefined : int('max-time', v['max-time'], 1) * 1000;
  // The target description, then the flags over it; what neither says is the seed's.
  const description: TargetDescription = v.config === undefined ? {} : loadDescription(v.config);
  if (v['api-key-header'] !== undefined) description.apiKeyHeader = v['api-key-header'];
  if (v['path-prefix'] !== undefined) description.pathPrefix = v['path-prefix'];
  if (v['time-path'] !== undefined) description.timePath = v['time-path'];
  if (v.symbol !== undefined || v['other-symbol'] !== undefined) {
    description.order = {
      ...description.order,
      ...(v.symbol === undefined ? {} : { symbol: v.symbol }),
      ...(v['other-symbol'] === undefined ? {} : { otherSymbol: v['other-symbol'] }),
    };
  }
  const targetProfile = resolveDescription(description);
  const baseUrlArg = v.embedded ? undefined : (v['base-url'] ?? description.baseUrl);
  const settings: RunSettings = { profile, runs };
  const given: Array<[keyof RunSettings, string | undefined]> = [
    ['baseUrl', v['base-url']],
    ['config', v.config],
    ['apiKeyHeader', v['api-key-header']],
    ['pathPrefix', v['path-prefix']],
    ['symbol', v.symbol],
    ['otherSymbol', v['other-symbol']],
    ['timePath', v['time-path']],
    ['ca', v.ca],
  ];
  for (const [k, val] of given) if (val !== undefined) Object.assign(settings, { [k]: val });
  if (v.http2) settings.http2 = true;
  // The CA certificates: --ca, else the description's `ca` (relative to its file); read now, a usage error before anything is sent.
  const caCerts =
    v.ca !== undefined
      ? readCa(v.ca)
      : description.ca !== undefined && v.config !== undefined
        ? readCa(resolve(dirname(v.config), description.ca), `--config ${v.config}: ca`)
        : undefined;
  const maxOrders =
    v['max-orders'] !== undefined ? int('max-orders', v['max-orders'], 0) : baseUrlArg === undefined ? Infinity : 10000;
  // replay reruns exactly the named checks; run takes prefixes.
  const pool = mode === 'replay' ? checks.filter((c) => only.includes(c.id)) : checks;
  const exclude = (v.exclude ?? [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
  // A prefix that matches no check is a typo: a usage error, whether it selects or leaves out.
  for (const [flag, list] of [
    ['--only', mode === 'replay' ? [] : only],
    ['--exclude', exclude],
  ] as const) {
    const typos = unmatched(checks, list);
    if (typos.length > 0)
      throw new SpotcheckError(
        'ERR_USAGE',
        `${flag} ${typos.join(',')}: no check ID or rule ID starts with ${typos.length === 1 ? 'it' : 'them'}; run with --list to see the IDs`,
      );
  }
  const selected = selectChecks(pool, mode === 'replay' ? [] : only, exclude);
  if (selected.length === 0) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `${only.length > 0 ? `--only ${only.join(',')}` : 'the selection'}${exclude.length > 0 ? ` less --exclude ${exclude.join(',')}` : ''} selects no check; run with --list to see the IDs`,
    );
  }

  const baseline = v.baseline === undefined ? undefined : loadBaseline(v.baseline, new Set(checks.map((c) => c.id)));

  if (v.list || v['dry-run']) {
    // The level each check is judged at; under --profile reference an INFO point pinned by spec/decisions.md fails as MUST.
    for (const c of selected)
      io.out(
        `${c.id}  ${(c.level ?? rule(c.ruleId).level).padEnd(6)}  [${c.ruleId}]  ${c.title}${c.covers === undefined ? '' : `  (${c.covers.join(' ')})`}\n`,
      );
    io.out(
      `${selected.length} checks; nothing was sent\n\nCoverage (rule x route):\n${renderMatrix(coverageMatrix(checks))}`,
    );
    return 0;
  }

  const replayArgs =
    v.embedded && v.config !== undefined ? [...targetArgv(settings), '--embedded'] : targetArgv(settings);

  // Every report path is checked before the first request, the NDJSON stream opened.
  if (v['report-json'] !== undefined) assertWritable('report-json', v['report-json']);
  if (v.junit !== undefined) assertWritable('junit', v.junit);
  if (v['report-html'] !== undefined) assertWritable('report-html', v['report-html']);
  const ndjson = v['report-ndjson'] === undefined ? undefined : openNdjson(v['report-ndjson']);
  try {
    return await execute();
  } finally {
    ndjson?.close();
  }

  async function execute(): Promise<number> {
    let server: RunningServer | undefined;
    let target: Target | undefined;
    let started = false;
    const startedAt = Date.now();
    const dispatcher = targetAgent({ ...(caCerts === undefined ? {} : { ca: caCerts }), http2: v.http2 });
    /** The run starts (its NDJSON `start` written): from then on whatever ends it writes every requested report. */
    const start = (): void => {
      started = true;
      ndjson?.start({ target: target?.baseUrl ?? '', profile, seed, runs, checks: selected.length });
    };
    // Ctrl-C, SIGTERM (a CI runner stopping the job) or SIGHUP at any moment (the first request, discovery,
    // the pause, the checks): the check under way is abandoned, every report is written with the checks not
    // run as skipped; the same signal again quits at once.
    const interrupt = new AbortController();
    let stoppedBy: StopSignal | undefined;
    const onSignal = (sig: StopSignal): void => {
      if (interrupt.signal.aborted) process.exit(SIGNAL_EXIT[sig]);
      stoppedBy = sig;
      interrupt.abort();
      io.err(
        `\nspotcheck: ${sig === 'SIGINT' ? 'interrupted (Ctrl-C)' : `stopped by ${sig}`}; writing every report, the checks not run as skipped (${sig === 'SIGINT' ? 'Ctrl-C' : sig} again to quit now)\n`,
      );
    };
    const handlers = STOP_SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
    for (const [sig, h] of handlers) process.on(sig, h);
    /** Every requested report (JSON, JUnit, NDJSON, HTML) of a run that ended before any check did: `stopped` says why (JUnit: one failed discovery case). */
    const writeEarly = (reason: EarlyStop, message: string, discovery?: DiscoveryReport): void => {
      const report = earlyReport({
        target: target?.baseUrl ?? '',
        profile,
        seed,
        runs,
        startedAt,
        selected: selected.length,
        reason,
        message,
        replayArgs,
        checks: selected,
        ...(stoppedBy === undefined ? {} : { signal: stoppedBy }),
        ...(discovery === undefined ? {} : { discovery }),
      });
      ndjson?.end({
        summary: report.summary,
        durationMs: report.durationMs,
        requests: 0,
        ...(report.stopped === undefined ? {} : { stopped: report.stopped }),
      });
      if (v['report-json'] !== undefined)
        writeReportFile('report-json', v['report-json'], `${JSON.stringify(report, null, 2)}\n`);
      if (v.junit !== undefined) writeReportFile('junit', v.junit, renderJunit(report));
      if (v['report-html'] !== undefined) writeReportFile('report-html', v['report-html'], renderHtml(report));
    };
    try {
      /**
       * --rate and --concurrency as given, or the defaults for where the target is: a loopback
       * target is this machine, no reason to pace it; over a network a run waits on
       * round trips, so several go at once; --fail-fast goes one check at a time.
       */
      const pace = (remote: boolean): { rate: number; concurrency: number } => ({
        rate: v.rate === undefined ? (remote ? REMOTE_RATE : 0) : int('rate', v.rate, 0),
        concurrency:
          v.concurrency === undefined
            ? v['fail-fast']
              ? 1
              : remote
                ? REMOTE_CONCURRENCY
                : LOOPBACK_CONCURRENCY
            : int('concurrency', v.concurrency, 1),
      });
      let rate: number;
      let concurrency: number;
      if (baseUrlArg === undefined) {
        server = await startServer({ port: 0 });
        target = {
          baseUrl: server.url,
          apiKey: DEMO_API_KEY,
          secret: DEMO_SECRET,
          symbol: targetProfile.symbol,
          otherSymbol: targetProfile.otherSymbol,
          profile: targetProfile,
          noTradeKey: { apiKey: DEMO_READONLY_API_KEY, secret: DEMO_READONLY_SECRET },
        };
        ({ rate, concurrency } = pace(false));
        io.err(`spotcheck: started the embedded reference server at ${server.url}\n`);
        start();
      } else {
        const { url, apiKey, secret } = remoteTarget(baseUrlArg, v, io.env);
        target = {
          baseUrl: baseUrlArg,
          apiKey,
          secret,
          symbol: targetProfile.symbol,
          otherSymbol: targetProfile.otherSymbol,
          profile: targetProfile,
        };
        const noTradeKey = credential(v['no-trade-api-key'], 'SPOTCHECK_NO_TRADE_API_KEY', io.env);
        const noTradeSecret = credential(v['no-trade-secret'], 'SPOTCHECK_NO_TRADE_SECRET', io.env);
        if ((noTradeKey === undefined) !== (noTradeSecret === undefined)) {
          throw new SpotcheckError(
            'ERR_USAGE',
            'a key without TRADE needs both its key and its secret (--no-trade-api-key and --no-trade-secret, or SPOTCHECK_NO_TRADE_API_KEY and SPOTCHECK_NO_TRADE_SECRET)',
          );
        }
        if (noTradeKey !== undefined && noTradeSecret !== undefined)
          target.noTradeKey = { apiKey: noTradeKey, secret: noTradeSecret };
        if (targetProfile.timePath !== undefined) target.timePath = targetProfile.timePath;
        ({ rate, concurrency } = pace(!isLoopback(url)));
        // The run starts here: from now on whatever ends it, every requested report is written.
        start();
        // The target must answer at all before anything else (exit 2 otherwise).
        try {
          await sendRaw(
            target.baseUrl,
            { method: 'POST', path: targetProfile.endpoints.v1.path, query: '', body: '', headers: {} },
            { timeoutMs, dispatcher },
          );
        } catch (err) {
          const advice = tlsAdvice(
            isSpotcheckError(err) ? (err.details as { code?: string } | undefined)?.code : undefined,
          );
          throw new SpotcheckError(
            'ERR_NETWORK',
            `${err instanceof Error ? err.message : String(err)}${advice === undefined ? '' : `\n${advice}`}`,
          );
        }
        if (!isLoopback(url)) {
          io.err(
            notLoopbackWarning(
              url.host,
              `spotcheck will send real signed orders for ${target.symbol} ` +
                `(up to ${maxOrders} accepted), at most ${rate || 'unlimited'} requests per second, ${concurrency} at a time.`,
            ),
          );
          if (!v.yes) {
            io.err('Starting in 5 seconds; press Ctrl-C to stop (pass --yes to skip this pause).\n');
            await pause(5000, interrupt.signal);
          }
        }
      }
      return await runChecks(target, rate, concurrency, interrupt.signal, dispatcher, () => stoppedBy);
    } catch (err) {
      if (interrupt.signal.aborted) {
        if (!started) start();
        const sig = stoppedBy ?? 'SIGINT';
        writeEarly('interrupted', `stopped by ${sig} before the first check ended`);
        io.err(`spotcheck: stopped by ${sig} before the first check ended: the reports say so and hold no check\n`);
        return SIGNAL_EXIT[sig];
      }
      // a usage error before the run started has nothing to report; anything after the start writes them all
      if (started) {
        const code = isSpotcheckError(err) ? err.code : undefined;
        const discovery = isSpotcheckError(err)
          ? (err.details as { discovery?: DiscoveryReport } | undefined)?.discovery
          : undefined;
        writeEarly(
          code === 'ERR_TARGET' ? 'discovery' : code === 'ERR_NETWORK' ? 'unreachable' : 'error',
          err instanceof Error ? err.message : String(err),
          discovery,
        );
      }
      throw err;
    } finally {
      for (const [sig, h] of handlers) process.off(sig, h);
      await server?.close();
      await dispatcher.close();
    }
  }

  /** Run the checks on a target that answers; write the reports. */
  async function runChecks(
    target: Target,
    rate: number,
    concurrency: number,
    signal: AbortSignal,
    dispatcher: Dispatcher,
    stopSignal: () => StopSignal | undefined,
  ): Promise<number> {
    const tty = colorWanted(io.env, process.stderr, v['no-color']);
    let nextLine = 0;
    let report: RunReport;
    const gate = (c: CheckReport) =>
      c.status === 'fail' &&
      (c.level === 'MUST' || (v.strict && c.level === 'SHOULD')) &&
      markCheck(c, baseline ?? []).baseline === undefined;
    try {
      report = await runConformance({
        exclude,
        signal,
        dispatcher,
        freshDispatcher: () => targetAgent({ ...(caCerts === undefined ? {} : { ca: caCerts }), http2: v.http2 }),
        stoppedBy: stopSignal,
        onEvidence: (e) => ndjson?.evidence(e),
        onCheck: (c) => ndjson?.check(markCheck(c, baseline ?? [])),
        ...(v['fail-fast'] ? { stopAfter: gate } : {}),
        target,
        profile,
        seed,
        runs,
        rate,
        concurrency,
        timeoutMs,
        only: mode === 'replay' ? [] : only,
        checks: pool,
        maxOrders,
        ...(maxTimeMs === undefined ? {} : { maxTimeMs }),
        replayArgs,
        onProgress: (p) => {
          if (tty) {
            if (p.current !== undefined)
              io.err(`\r\x1b[K[${p.done + 1}/${p.total}] ${p.current}  (${p.requests} requests)`);
            return;
          }
          // Without a terminal: a line each time another tenth of the checks has ended (checks run
          // several at a time, so the families in flight interleave; the count only grows).
          const step = Math.max(1, Math.ceil(p.total / 10));
          if (p.done >= nextLine && p.done < p.total) {
            nextLine = (Math.floor(p.done / step) + 1) * step;
            io.err(
              `progress: ${p.done}/${p.total} checks done, ${p.requests} requests so far${p.current === undefined ? '' : ` (running ${p.current.split(', ')[0] ?? ''}${p.current.includes(', ') ? ', ...' : ''})`}\n`,
            );
          }
        },
      });
    } finally {
      if (tty) io.err('\r\x1b[K');
    }

    if (baseline !== undefined) report = applyBaseline(report, baseline);
    // which protocol carried each route (the transport counts them per dispatcher)
    report = { ...report, protocols: protocolSummary(routeProtocols(dispatcher), v.http2) } as ReportWithProtocols;
    io.out(
      renderConsole(report, {
        color: colorWanted(io.env, process.stdout, v['no-color']),
        ruleLink: ruleLinker(v['docs-url']),
      }),
    );
    if (report.stopped !== undefined) io.out(`${partialLine(report, selected.length)}\n`);
    ndjson?.end({
      summary: report.summary,
      durationMs: report.durationMs,
      requests: report.requests,
      ...(report.stopped === undefined ? {} : { stopped: report.stopped }),
    });
    if (v['report-json'] !== undefined)
      writeReportFile('report-json', v['report-json'], `${JSON.stringify(report, null, 2)}\n`);
    if (v.junit !== undefined) writeReportFile('junit', v.junit, renderJunit(report));
    if (v['report-html'] !== undefined) writeReportFile('report-html', v['report-html'], renderHtml(report));
    if (report.stopped?.reason === 'interrupted') return SIGNAL_EXIT[stopSignal() ?? 'SIGINT'];
    // A budget of 0 without a test-order path: only requests that carry no order were sent, so no verdict.
    if (report.orders?.maxOrders === 0 && targetProfile.testOrderPath === undefined) {
      const fails = report.checks.filter((c) => c.status === 'fail').length;
      io.err(
        `spotcheck: ${maxOrders === 0 ? '--max-orders 0' : 'the account budget (0 orders)'}: no request that could place an order was sent, ` +
          `so ${report.orders.checksNotRun.length} checks (${report.orders.mustNotRun} MUST) were skipped: no verdict (exit 2). ` +
          `Only requests carrying no order were sent${fails > 0 ? `; the ${fails} failures they found are listed above` : ''}. ` +
          'For a verdict give orders to place (--max-orders N) or a test-order path that places nothing (testOrderPath in --config).\n',
      );
      return 2;
    }
    const budgetCut = (report.orders?.mustNotRun ?? 0) > 0;
    if (budgetCut)
      io.err(
        `spotcheck: --max-orders ${report.orders?.maxOrders ?? ''} left ${report.orders?.mustNotRun ?? 0} MUST checks without a single request (status skip): no verdict on them\n`,
      );
    if (gateFails(report, v.strict)) return 1;
    if (report.deadline?.reached === true) {
      io.err(
        `spotcheck: ${report.deadline.default === true ? `the default deadline (${Math.round(report.deadline.maxTimeMs / 1000)} s: ten times what the run's requests take at the measured round trips; --max-time sets your own)` : `--max-time ${v['max-time'] ?? ''} s`} ended the run: ${report.deadline.checksNotRun.length} checks not run or cut short (status skip)\n`,
      );
      return 2;
    }
    if (budgetCut) return 2;
    // Undecided is not passed: a MUST rule left inconclusive on an offered route makes the run incomplete.
    const open = incompleteMust(report.checks);
    if (open.length > 0 && !v['allow-inconclusive']) {
      io.err(
        `spotcheck: incomplete: ${open.length} MUST check(s) left inconclusive on routes the target offers (exit 3; --allow-inconclusive accepts it):\n${open
          .map((c) => `  ${c.id} [${c.cause ?? 'check'}]: ${clipWords(c.reason ?? '', 160)}`)
          .join('\n')}\n`,
      );
      return 3;
    }
    return 0;
  }
}
