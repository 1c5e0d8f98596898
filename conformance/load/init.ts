/**
 * `spotcheck load init --out DIR`: an Artillery project running the same route mix as
 * `spotcheck load`: `spotcheck-load.yml` (one phase, a shared connection pool, one scenario
 * per route with its weight, an `ensure` block failing the run on any correctness count),
 * `processor.cjs` (bundled at build time from the kit's pure core, node:crypto only) and a
 * README with the local and distributed commands. A plan whose orders (all workers) exceed
 * --max-orders is refused.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type Io } from '../../src/cli/args.js';
import { SpotcheckError } from '../../src/core/errors.js';
import { kitPath } from '../../src/paths.js';
import { makeDirectory } from '../report/files.js';
import { loadDescription, resolveDescription, type TargetDescription } from '../target/description.js';
import { DEFAULT_ORDER, ordersPerRequest } from './build.js';
import { FAIL_COUNTERS, hookName } from './counters.js';
import { formatMix, type MixEntry } from './mix.js';
import { REFERENCE_FINGERPRINTS } from './verdict.js';
import { intFlag, midValue, mixFor, numberFlag, TARGET_MAX_ORDERS } from './flags.js';

/** The script's file name in the project. */
export const SCRIPT_FILE = 'spotcheck-load.yml';
/** The bundled processor, where the build writes it. */
export const PROCESSOR_BUNDLE = ['dist', 'conformance', 'load', 'artillery', 'processor.cjs'] as const;

export const INIT_HELP = `Usage: spotcheck load init --out DIR [--rate R] [--duration S] [--mix SPEC]
                           [--connections N] [--batch-size N] [--count WORKERS]
                           [--max-orders N] [--base-url URL] [--config FILE] [--force]

Writes an Artillery project into DIR: ${SCRIPT_FILE}, processor.cjs (self-contained: no npm
import, credentials only from SPOTCHECK_API_KEY / SPOTCHECK_SECRET) and README.md. Run it
with \`artillery run --target URL DIR/${SCRIPT_FILE}\`, then \`spotcheck load report\` on its
--output JSON.

  --rate R            arrivals (requests) per second per Artillery worker (default 20)
  --duration S        seconds (default 30)
  --mix SPEC          route weights, as for \`spotcheck load\`
  --connections N     http.pool: connections shared by all virtual users (default 16)
  --batch-size N      orders per batch (default 20)
  --count WORKERS     workers you plan for run-fargate/run-lambda --count: every worker runs
                      the whole script, so orders and load scale with it (default 1)
  --max-orders N      refuse a plan placing more orders than N over all workers (default ${TARGET_MAX_ORDERS})
  --base-url URL      written as config.target (default http://127.0.0.1:8080)
  --config FILE       target description: header, paths, symbol, order values
  --force             overwrite files already in DIR
`;

/** What a plan sends. */
export interface Plan {
  rate: number;
  durationSeconds: number;
  count: number;
  batchSize: number;
  mix: readonly MixEntry[];
}

/** Mean orders per request of a mix. */
export function meanOrders(mix: readonly MixEntry[], batchSize: number): number {
  const w = mix.reduce((s, m) => s + m.weight, 0);
  return mix.reduce((s, m) => s + m.weight * ordersPerRequest(m.route, batchSize), 0) / w;
}

/** Requests and orders of one worker and of all. */
export function planTotals(p: Plan): {
  requestsPerWorker: number;
  ordersPerWorker: number;
  requests: number;
  orders: number;
} {
  const requestsPerWorker = Math.round(p.rate * p.durationSeconds);
  const ordersPerWorker = Math.round(requestsPerWorker * meanOrders(p.mix, p.batchSize));
  return {
    requestsPerWorker,
    ordersPerWorker,
    requests: requestsPerWorker * p.count,
    orders: ordersPerWorker * p.count,
  };
}

const q = (s: string | number): string => JSON.stringify(String(s));

/** The Artillery script. */
export function renderScript(
  p: Plan & {
    target: string;
    connections: number;
    variables: Record<string, string | number>;
    paths: Record<'batch' | 'v1' | 'v1.1', string>;
  },
): string {
  const pathOf = (r: MixEntry['route']): string =>
    r === 'batch' ? p.paths.batch : r.startsWith('v1.1/') ? p.paths['v1.1'] : p.paths.v1;
  const lines = [
    `# Written by \`spotcheck load init\`: ${formatMix(p.mix)} at ${p.rate}/s for ${p.durationSeconds} s per worker.`,
    '# Credentials come from SPOTCHECK_API_KEY / SPOTCHECK_SECRET in the environment only.',
    '# Each request is built and signed by processor.cjs over its final bytes (URL and string body);',
    '# do not add qs/json/form to the requests: Artillery would re-encode them after signing.',
    'config:',
    `  target: ${q(p.target)}`,
    '  phases:',
    `    - name: spotcheck-load`,
    `      duration: ${p.durationSeconds}`,
    `      arrivalRate: ${p.rate}`,
    '  http:',
    "    # One shared pool: one idle connection per virtual user would exhaust a server's connection cap.",
    `    pool: ${p.connections}`,
    '    timeout: 10',
    '  processor: "./processor.cjs"',
    '  variables:',
    ...Object.entries(p.variables).map(([k, v]) => `    ${k}: ${q(v)}`),
    '  plugins:',
    '    ensure: {}',
    '  ensure:',
    '    conditions:',
    ...FAIL_COUNTERS.map((c) => `      - expression: "${c} == 0"`),
    'scenarios:',
    ...p.mix.flatMap((m) => [
      `  - name: ${q(m.route)}`,
      `    weight: ${m.weight}`,
      '    flow:',
      '      - post:',
      `          url: ${q(pathOf(m.route))}`,
      `          beforeRequest: ${q(hookName(m.route))}`,
      '          afterResponse: "check"',
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The project's README. */
export function renderReadme(p: Plan, totals: ReturnType<typeof planTotals>): string {
  return `# spotcheck load: Artillery project

Written by \`spotcheck load init\`. Route mix \`${formatMix(p.mix)}\`, ${p.rate} arrivals per
second for ${p.durationSeconds} s, ${p.batchSize} orders per batch: about ${totals.requestsPerWorker}
requests and ${totals.ordersPerWorker} orders per worker (the scenario of each virtual user is
drawn by weight, so the count varies a little). Every request is signed over its final bytes
by \`processor.cjs\` (no npm import: node:crypto only), and every answer is judged: valid
requests accepted, no bad signature, one result entry per order at its position (echoed
client id), no 5xx. The \`ensure\` block fails the run (exit 1) on any \`spotcheck.fail.*\` counter
above 0.

## Credentials

Only from the environment: \`SPOTCHECK_API_KEY\` and \`SPOTCHECK_SECRET\`. The secret is never
printed or written. Never commit them.

## Run locally

\`\`\`sh
export SPOTCHECK_API_KEY=... SPOTCHECK_SECRET=...
npx artillery@2.0.21 run --target https://api.example.test --output result.json ${SCRIPT_FILE}
npx --no-install spotcheck load report result.json     # the same verdict and exit code as \`spotcheck load\`
\`\`\`

Artillery 2.0.21 is the last release running on Node.js 20. Against the reference server:
\`npx --no-install spotcheck serve --port 8080\` in another terminal, and the demo keys
(\`spotcheck-demo-key\` / \`spotcheck-demo-secret\`).

## Run on Artillery's workers (AWS)

\`\`\`sh
# AWS credentials of an account set up for Artillery (artillery run-fargate docs).
# The secret goes to the workers through Artillery's secret storage (AWS SSM Parameter Store),
# never in the script: store SPOTCHECK_API_KEY and SPOTCHECK_SECRET there, then
npx artillery@2.0.21 run-fargate --region eu-west-1 --count ${p.count} --secret SPOTCHECK_API_KEY --secret SPOTCHECK_SECRET \\
  --target https://api.example.test --output result.json ${SCRIPT_FILE}
npx artillery@2.0.21 run-lambda --region eu-west-1 --count ${p.count} --secret SPOTCHECK_API_KEY --secret SPOTCHECK_SECRET \\
  --target https://api.example.test --output result.json ${SCRIPT_FILE}
npx --no-install spotcheck load report result.json
\`\`\`

What each needs: \`run\`: Node.js 20 and Artillery on this machine, network reach to the
target. \`run-fargate\` / \`run-lambda\`: an AWS account and credentials allowed to run
Artillery's workers, the two secrets stored for them, and a target reachable from AWS.
Workers ship the files they find beside the script: \`processor.cjs\` is self-contained, so
nothing is installed from a registry on the workers (a processor importing a package name
would fail there, or fetch whatever holds that name, with your secret).

Scaling: **each worker runs the whole script**. With \`--count N\`, total load is N x
${p.rate} arrivals per second and total orders are N x about ${totals.ordersPerWorker}. This
project was planned for --count ${p.count}: about ${totals.requests} requests and
${totals.orders} orders in all. A larger --count places more orders than planned: write the
project again with \`spotcheck load init --count N\` (it refuses a plan above --max-orders).
processor.cjs also stops sending from one worker process after ${'`spotcheckMaxOrders`'} orders.
`;
}

/** `spotcheck load init`. */
export function initCommand(argv: string[], io: Io): number {
  const { values: v } = parse(
    {
      args: argv,
      strict: true,
      options: {
        out: { type: 'string' },
        rate: { type: 'string', default: '20' },
        duration: { type: 'string', default: '30' },
        mix: { type: 'string' },
        connections: { type: 'string', default: '16' },
        'batch-size': { type: 'string', default: '20' },
        count: { type: 'string', default: '1' },
        'max-orders': { type: 'string', default: String(TARGET_MAX_ORDERS) },
        'base-url': { type: 'string' },
        config: { type: 'string' },
        symbol: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'load init',
  );
  if (v.help) {
    io.out(INIT_HELP);
    return 0;
  }
  if (v.out === undefined) throw new SpotcheckError('ERR_USAGE', `load init needs --out DIR\n\n${INIT_HELP}`);
  const description: TargetDescription = v.config === undefined ? {} : loadDescription(v.config);
  if (v.symbol !== undefined) description.order = { ...description.order, symbol: v.symbol };
  const profile = resolveDescription(description);
  const plan: Plan = {
    rate: numberFlag('rate', v.rate),
    durationSeconds: intFlag('duration', v.duration, 1),
    count: intFlag('count', v.count, 1),
    batchSize: intFlag('batch-size', v['batch-size'], 1, 20),
    mix: mixFor(profile, v.mix),
  };
  const connections = intFlag('connections', v.connections, 1);
  const maxOrders = intFlag('max-orders', v['max-orders'], 1);
  const totals = planTotals(plan);
  if (totals.orders > maxOrders) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `load init: this plan places about ${totals.orders} orders (${totals.ordersPerWorker} per worker x --count ${plan.count}), above --max-orders ${maxOrders}; lower --rate, --duration, --count or the batch share of --mix, or raise --max-orders`,
    );
  }
  const bundle = kitPath(...PROCESSOR_BUNDLE);
  if (!existsSync(bundle))
    throw new SpotcheckError(
      'ERR_USAGE',
      `load init: the processor bundle ${bundle} is missing; run \`npm run build\` in the kit`,
    );
  makeDirectory('out', v.out);
  const files = [SCRIPT_FILE, 'processor.cjs', 'README.md'].map((f) => join(v.out as string, f));
  const present = files.filter((f) => existsSync(f));
  if (present.length > 0 && !v.force)
    throw new SpotcheckError('ERR_USAGE', `load init: ${present.join(', ')} already exist; pass --force to overwrite`);
  const variables: Record<string, string | number> = {
    spotcheckSymbol: profile.symbol,
    spotcheckPrice: midValue(profile.price, DEFAULT_ORDER.price),
    spotcheckQuantity: midValue(profile.quantity, DEFAULT_ORDER.quantity),
    spotcheckBatchSize: plan.batchSize,
    spotcheckRecvWindow: 5000,
    spotcheckApiKeyHeader: profile.apiKeyHeader,
    spotcheckBatchPath: profile.endpoints.batch.path,
    spotcheckV1Path: profile.endpoints.v1.path,
    spotcheckV11Path: profile.endpoints['v1.1'].path,
    spotcheckBatchSignature: profile.batchSignature,
    spotcheckMaxOrders: Math.floor(maxOrders / plan.count),
    // The refusals that mean "bad signature" and "stale timestamp" on the target (the reference's codes; edit for yours).
    spotcheckFingerprints: JSON.stringify(REFERENCE_FINGERPRINTS),
  };
  try {
    writeFileSync(
      files[0] as string,
      renderScript({
        ...plan,
        target: v['base-url'] ?? 'http://127.0.0.1:8080',
        connections,
        variables,
        paths: {
          batch: profile.endpoints.batch.path,
          v1: profile.endpoints.v1.path,
          'v1.1': profile.endpoints['v1.1'].path,
        },
      }),
    );
    copyFileSync(bundle, files[1] as string);
    writeFileSync(files[2] as string, renderReadme(plan, totals));
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `load init: cannot write into ${v.out}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  io.out(
    `wrote ${files.join(', ')}\n` +
      `plan: ${formatMix(plan.mix)}, ${plan.rate}/s for ${plan.durationSeconds} s: about ${totals.requestsPerWorker} requests and ${totals.ordersPerWorker} orders per worker` +
      `${plan.count > 1 ? `, ${totals.orders} orders over ${plan.count} workers` : ''}\n` +
      `run: SPOTCHECK_API_KEY=... SPOTCHECK_SECRET=... npx artillery@2.0.21 run --target URL --output result.json ${files[0]}\n` +
      `then: npx --no-install spotcheck load report result.json\n`,
  );
  return 0;
}
