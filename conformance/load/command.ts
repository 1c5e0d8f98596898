/**
 * `spotcheck load`: the load engine against the embedded reference server (no target) or
 * any server, with the safety of `run` (a pause before a remote host, `--max-orders`);
 * `spotcheck load init` writes an Artillery project; `spotcheck load report FILE` judges an
 * Artillery JSON report or a saved engine report. Exit 0: no correctness failure; 1: a
 * failure (or nothing accepted); 2: usage error or the target refused a valid request at rest.
 */
import { readFileSync } from 'node:fs';
import { Client } from 'undici';
import { colorWanted, parse, type Io } from '../../src/cli/args.js';
import { SpotcheckError } from '../../src/core/errors.js';
import { sign } from '../../src/signing/hmac.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { assertWritable, writeReportFile } from '../report/files.js';
import { loadDescription, resolveDescription, type TargetDescription } from '../target/description.js';
import { isLoopback, notLoopbackWarning, remoteTarget } from '../cli/run.js';
import { clientIdSource, DEFAULT_ORDER, runPrefix, type LoadBuildOptions } from './build.js';
import { createOrderBudget } from '../engine/budget.js';
import { discover } from './discover.js';
import { runLoad, splitBase } from './engine.js';
import { DEFAULT_MIX, formatMix } from './mix.js';
import { engineReport, renderLoad, reportFromJson, type LoadReport } from './report.js';
import { initCommand } from './init.js';
import { renderLoadHtml } from './html.js';
import { intFlag, midValue, mixFor, numberFlag, TARGET_MAX_ORDERS, wireOfProfile } from './flags.js';

/** Default measured seconds. */
export const DEFAULT_DURATION_S = 10;
/** Default connections (closed model: requests in flight). */
export const DEFAULT_CONNECTIONS = 16;
/** Default orders per batch request (the seed's largest, §4.1). */
export const DEFAULT_BATCH_SIZE = 20;
export const LOAD_HELP = `Usage: spotcheck load [--base-url URL | --config FILE] [--api-key K --secret S]
                      [--duration SECONDS] [--connections N] [--rate PER_SECOND]
                      [--mix batch=6,v1/query=1,...] [--max-orders N] [--report-json FILE]
       spotcheck load init --out DIR [--rate R] [--duration S] [--mix ...] [--max-orders N]
       spotcheck load report FILE [--report-json FILE]

Sends signed orders under load and judges every answer: valid requests accepted, no bad
signature, one result entry per order at its position (echoed client id), no 5xx; time-
window refusals split by where the time went; 429/503 shedding counted apart. With no
--base-url it starts the embedded reference server on a free loopback port.

Target:
  --base-url URL        server to load; --config FILE a target description (spotcheck init)
  --api-key K           API key (or SPOTCHECK_API_KEY); --secret S (or SPOTCHECK_SECRET), never printed
  --symbol SYM          symbol of every order (default ${DEFAULT_ORDER.symbol}; price/quantity from --config)

Load:
  --duration S          seconds of load (default ${DEFAULT_DURATION_S})
  --connections N       connections, i.e. requests in flight at most (default ${DEFAULT_CONNECTIONS})
  --rate R              open model: R arrivals per second (an arrival waits unsigned for a
                        free connection; the wait is reported). Absent: closed model, each
                        connection sends again as soon as it is answered
  --mix SPEC            route weights (default ${DEFAULT_MIX});
                        routes: batch, v1/query, v1/body, v1/split, v1.1/query, v1.1/body,
                        v1.1/split; v1, v1.1, query, body, split name several
  --batch-size N        orders per batch request, 1..20 (default ${DEFAULT_BATCH_SIZE})
  --recv-window MS      recvWindow sent (default 5000, or the target's maxRecvWindow when smaller)
  --timeout MS          per-request deadline (default 10000)

Safety:
  --max-orders N        at most N orders placed, whatever the server accepts: every
                        request (discovery's three a route included) reserves its
                        orders before it is sent, requests in flight included, and
                        the load stops at the first that does not fit (default
                        ${TARGET_MAX_ORDERS} for a target; none for the embedded server).
                        A load it ends before --duration says PASS, CUT SHORT with
                        how long it ran and the cap (or --batch-size) that would
                        hold the whole duration
  --yes                 do not pause before loading a non-loopback host

Output:
  --report-json FILE    JSON report (requestsPerSecond, badSignatures, misalignedEntries,
                        per-route counts, a per-second latency series)
  --report-html FILE    the same as one HTML page, with latency over time plotted
  --no-progress         no progress line
  -h, --help            this text

Exit codes: 0 no correctness failure; 1 a correctness failure or nothing accepted;
2 usage error (--max-orders below what discovery could place included), or the
target did not accept a valid request before the load.
`;

const options = {
  'base-url': { type: 'string' },
  config: { type: 'string' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
  symbol: { type: 'string' },
  duration: { type: 'string', default: String(DEFAULT_DURATION_S) },
  connections: { type: 'string', default: String(DEFAULT_CONNECTIONS) },
  rate: { type: 'string' },
  mix: { type: 'string' },
  'batch-size': { type: 'string', default: String(DEFAULT_BATCH_SIZE) },
  'recv-window': { type: 'string' },
  timeout: { type: 'string', default: '10000' },
  'max-orders': { type: 'string' },
  yes: { type: 'boolean', default: false },
  'report-json': { type: 'string' },
  'report-html': { type: 'string' },
  'no-progress': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `spotcheck load ...`. */
export async function loadCommand(argv: string[], io: Io): Promise<number> {
  if (argv[0] === 'init') return initCommand(argv.slice(1), io);
  if (argv[0] === 'report') return reportCommand(argv.slice(1), io);
  const { values: v } = parse({ args: argv, strict: true, options }, 'load');
  if (v.help) {
    io.out(LOAD_HELP);
    return 0;
  }
  const durationMs = numberFlag('duration', v.duration) * 1000;
  const connections = intFlag('connections', v.connections, 1, 10000);
  const rate = v.rate === undefined ? undefined : numberFlag('rate', v.rate);
  const batchSize = intFlag('batch-size', v['batch-size'], 1, 20);
  const timeoutMs = intFlag('timeout', v.timeout, 100);
  const description: TargetDescription = v.config === undefined ? {} : loadDescription(v.config);
  if (v.symbol !== undefined) description.order = { ...description.order, symbol: v.symbol };
  const profile = resolveDescription(description);
  // a window the target takes (its description's maxRecvWindow): load orders are positive probes
  const recvWindow = intFlag(
    'recv-window',
    v['recv-window'] ?? String(Math.min(5000, profile.maxRecvWindow)),
    1,
    profile.maxRecvWindow,
  );
  const mix = mixFor(profile, v.mix);
  const baseUrlArg = v['base-url'] ?? description.baseUrl;
  const maxOrders =
    v['max-orders'] !== undefined
      ? intFlag('max-orders', v['max-orders'], 1)
      : baseUrlArg === undefined
        ? Infinity
        : TARGET_MAX_ORDERS;
  if (v['report-json'] !== undefined) assertWritable('report-json', v['report-json']);
  if (v['report-html'] !== undefined) assertWritable('report-html', v['report-html']);

  let server: RunningServer | undefined;
  let baseUrl: string;
  let apiKey: string;
  let secret: string;
  if (baseUrlArg === undefined) {
    server = await startServer({ port: 0 });
    baseUrl = server.url;
    apiKey = DEMO_API_KEY;
    secret = DEMO_SECRET;
    io.err(
      `spotcheck: started the embedded reference server at ${baseUrl} (in this process: for throughput figures, load a server running in another process)\n`,
    );
  } else {
    const target = remoteTarget(baseUrlArg, v, io.env);
    const url = target.url;
    baseUrl = baseUrlArg;
    apiKey = target.apiKey;
    secret = target.secret;
    if (!isLoopback(url)) {
      io.err(
        notLoopbackWarning(
          url.host,
          `spotcheck load will send real signed orders for ${profile.symbol} for ${durationMs / 1000} s ` +
            `(up to ${maxOrders} placed), ${rate === undefined ? `as fast as ${connections} connections allow` : `${rate} requests per second`}.`,
        ),
      );
      if (!v.yes) {
        io.err('Starting in 5 seconds; press Ctrl-C to stop (pass --yes to skip this pause).\n');
        await new Promise((r) => setTimeout(r, 5000));
      }
    }
  }

  const build: LoadBuildOptions = {
    hmac: sign,
    apiKey,
    secret,
    wire: wireOfProfile(profile),
    order: {
      symbol: profile.symbol,
      price: midValue(profile.price, DEFAULT_ORDER.price),
      quantity: midValue(profile.quantity, DEFAULT_ORDER.quantity),
    },
    batchSize,
    recvWindow,
    ...(profile.batchSignature === 'query-only' ? { batchQueryOnly: true } : {}),
  };
  const idPrefix = runPrefix();
  const interrupt = new AbortController();
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort();
    io.err('\nspotcheck load: interrupted; waiting for the answers in flight (Ctrl-C again to quit now)\n');
  };
  process.on('SIGINT', onSigint);
  const tty = colorWanted(io.env, process.stderr);
  let report: LoadReport;
  try {
    const { origin, prefix } = splitBase(baseUrl);
    const probePool = new Client(origin);
    // One budget for discovery and the load: every request reserves its orders before it is sent.
    const budget = createOrderBudget(maxOrders);
    let found;
    try {
      // Discovery's client ids are `d` then a counter, the engine's `l` then one: never the same.
      found = await discover(probePool, prefix, build, mix, clientIdSource(`${idPrefix}d`), timeoutMs, budget);
    } catch (err) {
      if (err instanceof SpotcheckError) throw err;
      throw new SpotcheckError('ERR_NETWORK', err instanceof Error ? err.message : String(err));
    } finally {
      await probePool.close().catch(() => undefined);
    }
    io.err(
      `spotcheck load: ${rate === undefined ? `closed model, ${connections} connections` : `open model, ${rate}/s over at most ${connections} connections`}, ${durationMs / 1000} s, mix ${formatMix(mix)}\n`,
    );
    let lastLine = 0;
    const result = await runLoad({
      baseUrl,
      build,
      mix,
      durationMs,
      connections,
      ...(rate === undefined ? {} : { rate }),
      maxOrders,
      budget,
      timeoutMs,
      fingerprints: found.fingerprints,
      idPrefix,
      signal: interrupt.signal,
      onProgress: (p) => {
        if (v['no-progress']) return;
        const line = `[${(p.elapsedMs / 1000).toFixed(0)}/${durationMs / 1000} s] ${p.requests} requests (${p.lastSecond}/s), ${p.accepted} accepted, ${p.ordersPlaced} orders, ${p.failures} failures`;
        if (tty) io.err(`\r\x1b[K${line}`);
        else if (p.elapsedMs - lastLine >= 5000) {
          lastLine = p.elapsedMs;
          io.err(`${line}\n`);
        }
      },
    });
    if (tty && !v['no-progress']) io.err('\r\x1b[K');
    report = engineReport(result, found);
    report.target = server === undefined ? baseUrl : `embedded reference server (${baseUrl})`;
    report.settings = {
      model: rate === undefined ? 'closed' : 'open',
      durationSeconds: durationMs / 1000,
      connections,
      ...(rate === undefined ? {} : { rate }),
      mix: formatMix(mix),
      batchSize,
      recvWindow,
      maxOrders: maxOrders === Infinity ? null : maxOrders,
    };
  } finally {
    process.off('SIGINT', onSigint);
    await server?.close();
  }
  io.out(renderLoad(report));
  if (v['report-json'] !== undefined)
    writeReportFile('report-json', v['report-json'], `${JSON.stringify(report, null, 2)}\n`);
  if (v['report-html'] !== undefined) writeReportFile('report-html', v['report-html'], renderLoadHtml(report));
  if (report.stopped === 'interrupted') return 130;
  return report.passed ? 0 : 1;
}

const REPORT_HELP = `Usage: spotcheck load report FILE [--report-json OUT] [--report-html OUT]

Judges a load run from its JSON: Artillery's (\`artillery run --output FILE\` with the
project \`spotcheck load init\` wrote) or spotcheck load's own --report-json. Prints the
same verdict and exits the same way: 0 no correctness failure, 1 a failure or nothing
accepted, 2 the file is missing or is not such a report.
`;

/** `spotcheck load report FILE`. */
export function reportCommand(argv: string[], io: Io): number {
  const { values: v, positionals } = parse(
    {
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        'report-json': { type: 'string' },
        'report-html': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'load report',
  );
  if (v.help) {
    io.out(REPORT_HELP);
    return 0;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1)
    throw new SpotcheckError('ERR_USAGE', `load report takes one FILE\n\n${REPORT_HELP}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = err instanceof SyntaxError ? 'not JSON' : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw new SpotcheckError('ERR_USAGE', `load report: cannot read ${file}: ${why}`);
  }
  const report = reportFromJson(json);
  io.out(renderLoad(report));
  if (v['report-json'] !== undefined)
    writeReportFile('report-json', v['report-json'], `${JSON.stringify(report, null, 2)}\n`);
  if (v['report-html'] !== undefined) writeReportFile('report-html', v['report-html'], renderLoadHtml(report));
  return report.passed ? 0 : 1;
}
