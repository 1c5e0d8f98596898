/**
 * `spotcheck matrix FILE --out DIR`: run several targets (one after another, or a few
 * at a time) through the same machinery as `spotcheck run`, write each target's HTML and
 * JSON report into DIR, then DIR/matrix.html (rules x targets) and DIR/matrix.json.
 * `--from-reports A.json B.json ...` builds the same from existing JSON reports.
 */
import { inOrder } from '../engine/pool.js';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse, type Io } from '../../src/cli/args.js';
import { kitVersion } from '../../src/paths.js';
import { SpotcheckError, isSpotcheckError } from '../../src/core/errors.js';
import { gateFails } from '../report/baseline.js';
import { makeDirectory, writeReportFile } from '../report/files.js';
import { renderHtml } from '../report/html.js';
import { buildMatrix, renderMatrixHtml, type MatrixEntry } from '../report/matrix.js';
import { credentialKey, parseJsonc, unknownKeyMessage } from '../target/jsonc.js';
import type { RunReport } from '../judgement/types.js';
import { runCommand } from './run.js';

export const MATRIX_HELP = `Usage: spotcheck matrix FILE --out DIR [options]
       spotcheck matrix --from-reports A.json B.json ... --out DIR

Runs the conformance checks against several targets and writes, into DIR, each
target's report (NAME.html, NAME.json, and the console output as NAME.txt), then
matrix.html (rules x targets, each cell linking to the rule in that target's report)
and matrix.json.

FILE is a JSON (or JSONC) array of targets:
  [
    { "name": "venue-a", "baseUrl": "https://api.venue-a.example" },
    { "name": "staging", "config": "staging.target.jsonc",
      "apiKeyEnv": "STAGING_API_KEY", "secretEnv": "STAGING_SECRET" },
    { "name": "reference", "embedded": true }
  ]
  name                  shown in the matrix; the report files are named after it
  baseUrl | config      the server, or a target description (\`spotcheck init\`; a
                        path relative to FILE); "embedded": true for the built-in
                        reference server
  apiKeyEnv, secretEnv  environment variables holding this target's credentials
                        (default SPOTCHECK_API_KEY and SPOTCHECK_SECRET)
  noTradeApiKeyEnv, noTradeSecretEnv
                        optional: variables holding a key without TRADE
                        (AUTH-PERMISSION); not shared between targets otherwise
No credential is ever written in FILE: a key named like apiKey or secret is refused.

Options:
  --out DIR              folder for the reports and the matrix (created)
  --jobs N               targets run at once (default 1)
  --from-reports         the arguments are --report-json files of earlier runs:
                         build the matrix (and each HTML report) from them
  --profile P, --runs N, --seed N, --only PREFIX, --exclude PREFIX, --strict,
  --rate N, --concurrency N, --max-orders N, --timeout MS, --max-time S, --yes,
  --http2                as for \`spotcheck run\`, applied to every target (a
                         target's own CA: "ca" in its --config file); --max-orders
                         is each target's own reservation: a target accepting
                         everything places at most N, whatever --jobs
  -h, --help             this text

Exit codes: 0 every target passed; 1 a target has a MUST-level failure (--strict:
or SHOULD); 2 usage error, or a target could not be run to the end (unreachable,
bad credentials, --max-time, --max-orders left MUST checks without a request or
was 0); 130 interrupted. The matrix is written in every case
but a usage error.
`;

const options = {
  out: { type: 'string' },
  jobs: { type: 'string', default: '1' },
  'from-reports': { type: 'boolean', default: false },
  profile: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  only: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  strict: { type: 'boolean', default: false },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  'max-orders': { type: 'string' },
  timeout: { type: 'string' },
  'max-time': { type: 'string' },
  yes: { type: 'boolean', default: false },
  http2: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** One target of the targets file. */
export interface MatrixTargetSpec {
  name: string;
  baseUrl?: string;
  config?: string;
  embedded?: boolean;
  apiKeyEnv: string;
  secretEnv: string;
  noTradeApiKeyEnv?: string;
  noTradeSecretEnv?: string;
}

const KNOWN = new Set([
  'name',
  'baseUrl',
  'config',
  'embedded',
  'apiKeyEnv',
  'secretEnv',
  'noTradeApiKeyEnv',
  'noTradeSecretEnv',
]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The targets of a targets file's text; every mistake is a usage error naming the target. `dir`: where relative config paths start. */
export function parseTargets(text: string, file: string, dir: string): MatrixTargetSpec[] {
  const { doc, errors } = parseJsonc(text);
  if (errors.length > 0)
    throw new SpotcheckError(
      'ERR_USAGE',
      `${file} is not JSON (comments and trailing commas allowed):\n  ${errors.map((e) => `${file}:${e}`).join('\n  ')}`,
    );
  const value = doc.value;
  if (!Array.isArray(value) || value.length === 0)
    throw new SpotcheckError(
      'ERR_USAGE',
      `${file}: expected a non-empty array of targets ({"name": ..., "baseUrl": ...})`,
    );
  const names = new Set<string>();
  return value.map((t: unknown, i): MatrixTargetSpec => {
    const where = `${file}: target ${i + 1}`;
    if (typeof t !== 'object' || t === null || Array.isArray(t))
      throw new SpotcheckError('ERR_USAGE', `${where} is not an object`);
    const o = t as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (KNOWN.has(k)) continue;
      if (credentialKey(k, [...KNOWN])) {
        throw new SpotcheckError(
          'ERR_USAGE',
          `${where} holds '${k}': credentials never go in the targets file; name the environment variables that hold them with "apiKeyEnv" and "secretEnv"`,
        );
      }
      throw new SpotcheckError('ERR_USAGE', `${where}: ${unknownKeyMessage(k, [...KNOWN])}`);
    }
    const str = (k: string): string | undefined => {
      const v = o[k];
      if (v === undefined) return undefined;
      if (typeof v !== 'string' || v.trim() === '')
        throw new SpotcheckError('ERR_USAGE', `${where}: "${k}" must be a non-empty string`);
      return v;
    };
    const name = str('name');
    if (name === undefined) throw new SpotcheckError('ERR_USAGE', `${where} has no "name"`);
    if (names.has(name)) throw new SpotcheckError('ERR_USAGE', `${where}: the name '${name}' is used twice`);
    names.add(name);
    const baseUrl = str('baseUrl');
    const config = str('config');
    if (o.embedded !== undefined && typeof o.embedded !== 'boolean')
      throw new SpotcheckError('ERR_USAGE', `${where}: "embedded" must be true or false`);
    const embedded = o.embedded === true;
    const given = [baseUrl !== undefined, config !== undefined, embedded].filter(Boolean).length;
    if (given !== 1 && !(embedded && config !== undefined && baseUrl === undefined)) {
      throw new SpotcheckError(
        'ERR_USAGE',
        `${where} (${name}): give exactly one of "baseUrl", "config" or "embedded": true`,
      );
    }
    const env = (k: string, dflt?: string): string | undefined => {
      const v = str(k) ?? dflt;
      if (v !== undefined && !ENV_NAME.test(v))
        throw new SpotcheckError(
          'ERR_USAGE',
          `${where} (${name}): "${k}" must name an environment variable, got '${v}' (the value itself never goes in this file)`,
        );
      return v;
    };
    const spec: MatrixTargetSpec = {
      name,
      apiKeyEnv: env('apiKeyEnv', 'SPOTCHECK_API_KEY') as string,
      secretEnv: env('secretEnv', 'SPOTCHECK_SECRET') as string,
    };
    if (baseUrl !== undefined) spec.baseUrl = baseUrl;
    if (config !== undefined) spec.config = resolve(dir, config);
    if (embedded) spec.embedded = true;
    const ntk = env('noTradeApiKeyEnv');
    const nts = env('noTradeSecretEnv');
    if ((ntk === undefined) !== (nts === undefined))
      throw new SpotcheckError(
        'ERR_USAGE',
        `${where} (${name}): "noTradeApiKeyEnv" and "noTradeSecretEnv" go together`,
      );
    if (ntk !== undefined) spec.noTradeApiKeyEnv = ntk;
    if (nts !== undefined) spec.noTradeSecretEnv = nts;
    return spec;
  });
}

/** File stems for the names: lower-case letters, digits and dashes, unique. */
export function fileStems(names: readonly string[]): string[] {
  const used = new Set<string>(['matrix']);
  return names.map((n) => {
    const base =
      n
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'target';
    let stem = base;
    for (let i = 2; used.has(stem); i++) stem = `${base}-${i}`;
    used.add(stem);
    return stem;
  });
}

/** The environment one target's run sees: its credentials under the names `run` reads, nobody else's. */
export function targetEnv(t: MatrixTargetSpec, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const k of ['SPOTCHECK_API_KEY', 'SPOTCHECK_SECRET', 'SPOTCHECK_NO_TRADE_API_KEY', 'SPOTCHECK_NO_TRADE_SECRET'])
    delete out[k];
  const put = (k: string, from: string | undefined) => {
    const v = from === undefined ? undefined : env[from];
    if (v !== undefined && v !== '') out[k] = v;
  };
  put('SPOTCHECK_API_KEY', t.apiKeyEnv);
  put('SPOTCHECK_SECRET', t.secretEnv);
  put('SPOTCHECK_NO_TRADE_API_KEY', t.noTradeApiKeyEnv);
  put('SPOTCHECK_NO_TRADE_SECRET', t.noTradeSecretEnv);
  return out;
}

/** `run` arguments shared by every target (the options given to `matrix` that `run` takes). */
function sharedRunArgs(v: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of ['profile', 'runs', 'seed', 'rate', 'concurrency', 'max-orders', 'timeout', 'max-time'] as const) {
    const x = v[k];
    if (typeof x === 'string') out.push(`--${k}`, x);
  }
  for (const k of ['only', 'exclude'] as const)
    for (const x of (v[k] as string[] | undefined) ?? []) out.push(`--${k}`, x);
  if (v.strict === true) out.push('--strict');
  if (v.yes === true) out.push('--yes');
  if (v.http2 === true) out.push('--http2');
  return out;
}

function readReport(file: string): RunReport {
  let r: Partial<RunReport>;
  try {
    r = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunReport>;
  } catch (err) {
    const why = err instanceof SyntaxError ? 'not JSON' : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw new SpotcheckError('ERR_USAGE', `--from-reports: cannot read ${file}: ${why}`);
  }
  if (!Array.isArray(r.checks) || typeof r.summary !== 'object' || typeof r.target !== 'string') {
    throw new SpotcheckError(
      'ERR_USAGE',
      `--from-reports: ${file} is not a spotcheck --report-json file (no target, summary and checks)`,
    );
  }
  return r as RunReport;
}

/** The exit code `run` gave (or would give) for a report. */
function exitOf(r: RunReport, strict: boolean): number {
  if (r.stopped?.reason === 'interrupted') return 130;
  if (gateFails(r, strict)) return 1;
  return r.deadline?.reached === true || (r.orders?.mustNotRun ?? 0) > 0 ? 2 : 0;
}

/** The matrix's exit code: interrupted wins, then the worst (2 over 1 over 0). */
export function matrixExit(codes: readonly number[]): number {
  if (codes.includes(130)) return 130;
  return Math.max(0, ...codes);
}

function writeAll(out: string, entries: MatrixEntry[], io: Io): void {
  const m = buildMatrix(entries, kitVersion() ?? 'unknown');
  writeReportFile('out', join(out, 'matrix.json'), `${JSON.stringify(m, null, 2)}\n`);
  writeReportFile('out', join(out, 'matrix.html'), renderMatrixHtml(m));
  io.out(
    `matrix: ${m.targets.length} targets x ${m.rules.length} rules written to ${join(out, 'matrix.html')} and matrix.json\n`,
  );
}

/** `spotcheck matrix`. */
export async function matrixCommand(argv: string[], io: Io): Promise<number> {
  const { values: v, positionals } = parse({ args: argv, strict: true, allowPositionals: true, options }, 'matrix');
  if (v.help) {
    io.out(MATRIX_HELP);
    return 0;
  }
  if (v.out === undefined)
    throw new SpotcheckError(
      'ERR_USAGE',
      'matrix: --out DIR is required (the reports and matrix.html go there)\nRun `spotcheck matrix --help` for usage.',
    );
  if (!/^[1-9]\d*$/.test(v.jobs))
    throw new SpotcheckError('ERR_USAGE', `--jobs must be a whole number of at least 1, got '${v.jobs}'`);
  const jobs = Number(v.jobs);
  const out = v.out;
  makeDirectory('out', out);

  if (v['from-reports']) {
    if (positionals.length === 0)
      throw new SpotcheckError(
        'ERR_USAGE',
        'matrix --from-reports: name the JSON reports (spotcheck run --report-json FILE)',
      );
    const reports = positionals.map((f) => ({ file: f, report: readReport(f) }));
    const stems = fileStems(reports.map((r) => basename(r.file).replace(/\.json$/i, '')));
    const entries: MatrixEntry[] = reports.map(({ file, report }, i) => {
      const stem = stems[i] as string;
      writeReportFile('out', join(out, `${stem}.html`), renderHtml(report));
      if (resolve(file) !== resolve(join(out, `${stem}.json`)))
        writeReportFile('out', join(out, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
      return {
        name: basename(file).replace(/\.json$/i, ''),
        exitCode: exitOf(report, v.strict),
        report,
        html: `${stem}.html`,
        json: `${stem}.json`,
      };
    });
    writeAll(out, entries, io);
    return matrixExit(entries.map((e) => e.exitCode));
  }

  if (positionals.length !== 1)
    throw new SpotcheckError(
      'ERR_USAGE',
      `matrix: expected one targets FILE, got ${positionals.length}\nRun \`spotcheck matrix --help\` for usage.`,
    );
  const file = positionals[0] as string;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `matrix: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const targets = parseTargets(text, file, dirname(resolve(file)));
  const stems = fileStems(targets.map((t) => t.name));
  const shared = sharedRunArgs(v);
  const entries: MatrixEntry[] = new Array(targets.length);
  let done = 0;
  let interrupted = false;
  const runTarget = async (i: number): Promise<void> => {
    const t = targets[i] as MatrixTargetSpec;
    const stem = stems[i] as string;
    const json = join(out, `${stem}.json`);
    const args = [
      ...(t.baseUrl !== undefined ? ['--base-url', t.baseUrl] : []),
      ...(t.config !== undefined ? ['--config', t.config] : []),
      ...(t.embedded === true ? ['--embedded'] : []),
      ...shared,
      '--no-color',
      '--report-json',
      json,
      '--report-html',
      join(out, `${stem}.html`),
    ];
    let log = '';
    const tio: Io = { out: (s) => void (log += s), err: (s) => void (log += s), env: targetEnv(t, io.env) };
    let entry: MatrixEntry;
    try {
      const code = await runCommand(args, tio, 'run');
      let report: RunReport | undefined;
      try {
        report = readReport(json);
      } catch {
        report = undefined;
      }
      entry = {
        name: t.name,
        exitCode: code,
        ...(report === undefined
          ? { error: 'no report was written' }
          : { report, html: `${stem}.html`, json: `${stem}.json` }),
      };
    } catch (err) {
      const msg = isSpotcheckError(err) ? err.message : err instanceof Error ? err.message : String(err);
      log += `spotcheck: ${msg}\n`;
      entry = { name: t.name, exitCode: 2, error: msg.split('\n')[0] ?? msg };
    }
    writeReportFile('out', join(out, `${stem}.txt`), log);
    entries[i] = entry;
    if (entry.exitCode === 130) interrupted = true;
    done++;
    const s = entry.report?.summary;
    io.err(
      `[${done}/${targets.length}] ${t.name}: exit ${entry.exitCode}${s === undefined ? `: ${entry.error ?? ''}` : ` (${s.passed} passed, ${s.failed} failed, ${s.inconclusive} inconclusive)`} -> ${join(out, `${stem}.${entry.html === undefined ? 'txt' : 'html'}`)}\n`,
    );
  };
  await inOrder(
    targets,
    jobs,
    (_t, i) => runTarget(i),
    () => interrupted,
  );
  // Ctrl-C: the targets not started are listed as not run
  for (let i = 0; i < targets.length; i++)
    entries[i] ??= { name: (targets[i] as MatrixTargetSpec).name, exitCode: 130, error: 'not run: interrupted' };
  writeAll(out, entries, io);
  return matrixExit(entries.map((e) => e.exitCode));
}
