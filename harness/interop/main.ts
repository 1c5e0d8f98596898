/**
 * `npm run interop [-- --out FILE] [--dir DIR] [--only NAME]`: install real client
 * libraries of this API family from the npm registry into a scratch folder (never
 * project dependencies), drive each against the reference server started with
 * `explain` (signature rejections carry the doctor's diagnosis, §5.3) through every
 * placement it offers and every client-id kind, and write the matrix
 * `{ "clients": [ { "name", "version", "scenarios": { "<placement>/<id kind>": outcome } } ] }`.
 * An outcome is `accepted`, the doctor's code (`A+B` for two mistakes), `unsupported`
 * (the library has no call for that placement), `refused <code>` (refused for another
 * reason than the signature) or `not sent` (the library failed before sending).
 * Each client is driven through its own `spotcheck grade` session (the reference server
 * behind the grading front), so the matrix also holds the client's grade card: each client
 * rule kept, broken on N of M requests, or not exercised.
 * Loopback only: the libraries talk to a thin wrapper (proxy.ts) on 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { diagnose } from '../../src/core/doctor/diagnose.js';
import { sign } from '../../src/signing/hmac.js';
import { startGrade } from '../../conformance/grade/front.js';
import { buildGradeReport } from '../../conformance/grade/report.js';
import { DRIVERS, type Driver } from './clients.js';
import { outcomeOf, placementOf, type Outcome } from './outcome.js';
import { startProxy, type Exchange } from './proxy.js';
import { ordersFor, SCENARIOS, type Placement, type Scenario } from './scenarios.js';

/** Test credentials of the run (not real keys). */
const API_KEY = 'interop-api-key-NOT-A-REAL-KEY';
const SECRET = 'interop-secret-NOT-A-REAL-KEY';
/** Longest wait for one library call, ms. */
const CALL_TIMEOUT_MS = 15_000;

export interface ClientResult {
  name: string;
  package: string;
  version: string;
  scenarios: Record<Scenario, Outcome>;
  /** For each scenario sent and not accepted: the request as sent (query and body; never the secret), the server's message, and the doctor's reading of its signature (`OK` when right). */
  evidence: Partial<Record<Scenario, Evidence>>;
  /** Calls the library made that the wrapper neither forwards nor answers. */
  unexpectedCalls: string[];
  /** Scenarios whose request was sent in another placement than the driver declares (a driver to fix). */
  placementMismatches: string[];
  /** The grade card of the client's session (`spotcheck grade`): every client rule's verdict. */
  grade: GradeCard;
}

/** One client's grade: per client rule kept / broken on N of M requests / not exercised, and the first finding of each broken rule. */
export interface GradeCard {
  verdict: string;
  requests: number;
  rules: Array<{ id: string; status: string; broken: number; exercised: number; example?: string }>;
}

export interface Evidence {
  query: string;
  body: string;
  msg: string;
  signature: string;
}

export interface Matrix {
  generated: string;
  node: string;
  server: string;
  clients: ClientResult[];
}

/** Install every package of `drivers` at its version into `dir` unless already there. */
function install(dir: string, drivers: readonly Driver[]): void {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(
      join(dir, 'package.json'),
      '{ "private": true, "description": "spotcheck interop scratch folder" }\n',
    );
  const wanted = [...new Map(drivers.map((d) => [d.pkg, d.version])).entries()];
  const missing = wanted.filter(([pkg, version]) => {
    const p = join(dir, 'node_modules', pkg, 'package.json');
    return !existsSync(p) || (JSON.parse(readFileSync(p, 'utf8')) as { version: string }).version !== version;
  });
  if (missing.length === 0) return;
  process.stderr.write(`interop: installing ${missing.map(([p, v]) => `${p}@${v}`).join(' ')} into ${dir}\n`);
  const r = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      ...missing.map(([p, v]) => `${p}@${v}`),
    ],
    { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`npm install failed in ${dir}`);
}

async function load(dir: string, pkg: string): Promise<Record<string, unknown>> {
  const req = createRequire(join(dir, 'package.json'));
  const mod = (await import(pathToFileURL(req.resolve(pkg)).href)) as Record<string, unknown>;
  return mod;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`no answer in ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        res(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        rej(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** What a refused request shows: its bytes, the server's message, and the doctor's reading of its signature (also for a refusal before the signature check). */
function evidenceOf(e: Exchange): Evidence {
  const kind = e.body === '' ? 'none' : e.path.endsWith('/batchOrders') ? 'json' : 'form';
  const d = diagnose(
    { query: e.query, body: e.body, bodyKind: kind, method: e.method, path: e.path, apiKey: API_KEY },
    SECRET,
    sign,
  );
  const msg =
    typeof e.json === 'object' && e.json !== null && 'msg' in e.json ? String((e.json as { msg: unknown }).msg) : '';
  return { query: e.query, body: e.body, msg, signature: d === null ? 'OK' : [d.code, ...(d.also ?? [])].join('+') };
}

async function runClient(driver: Driver, index: number, dir: string): Promise<ClientResult> {
  const grade = await startGrade({ apiKey: API_KEY, secret: SECRET, explain: true });
  const proxy = await startProxy(grade.url, driver.wire);
  const scenarios = {} as Record<Scenario, Outcome>;
  const evidence: ClientResult['evidence'] = {};
  const placementMismatches: string[] = [];
  try {
    const mod = await load(dir, driver.pkg);
    const client = driver.create({ mod, baseUrl: proxy.url, apiKey: API_KEY, secret: SECRET });
    for (const scenario of SCENARIOS) {
      const send = driver.send[scenario.split('/')[0] as Placement];
      // A placement the library has no call for is not tried.
      if (send === undefined) {
        scenarios[scenario] = 'unsupported';
        continue;
      }
      const before = proxy.exchanges.length;
      let error = '';
      try {
        await withTimeout(
          send(client, ordersFor(scenario, `i${index}${scenario[0]}${SCENARIOS.indexOf(scenario)}-`)),
          CALL_TIMEOUT_MS,
        );
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const sent = proxy.exchanges.slice(before);
      scenarios[scenario] = outcomeOf(sent);
      const last = sent.at(-1);
      const placement = scenario.split('/')[0] as Placement;
      if (last !== undefined && placementOf(last) !== placement)
        placementMismatches.push(`${scenario}: sent as ${placementOf(last)}`);
      if (scenarios[scenario] !== 'accepted' && last !== undefined) evidence[scenario] = evidenceOf(last);
      if (last === undefined && error !== '')
        process.stderr.write(`interop: ${driver.name} ${scenario}: not sent: ${error.slice(0, 200)}\n`);
    }
  } finally {
    await proxy.close();
    await grade.close();
  }
  const report = buildGradeReport(
    grade.session,
    { version: 'interop', url: grade.url, upstream: 'the reference server', ungraded: grade.ungraded() },
    SECRET,
    API_KEY,
  );
  const card: GradeCard = {
    verdict: report.verdict,
    requests: report.summary.requests,
    rules: report.rules.map((r) => {
      const first = report.requests.flatMap((q) => q.broken.filter((f) => f.rule === r.id))[0];
      return {
        id: r.id,
        status: r.status,
        broken: r.broken,
        exercised: r.exercised,
        ...(first !== undefined ? { example: first.detail } : {}),
      };
    }),
  };
  return {
    name: driver.name,
    package: driver.pkg,
    version: driver.version,
    scenarios,
    evidence,
    unexpectedCalls: [...new Set(proxy.unknown)],
    placementMismatches,
    grade: card,
  };
}

function table(m: Matrix): string {
  const cols = SCENARIOS;
  const lines = [`client | ${cols.join(' | ')}`];
  for (const c of m.clients) lines.push(`${c.name} ${c.version} | ${cols.map((s) => c.scenarios[s]).join(' | ')}`);
  return `${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { out: { type: 'string' }, dir: { type: 'string' }, only: { type: 'string', multiple: true } },
  });
  const dir = resolve(values.dir ?? join(tmpdir(), 'spotcheck-interop'));
  const drivers = values.only === undefined ? DRIVERS : DRIVERS.filter((d) => values.only?.includes(d.name) === true);
  install(dir, drivers);
  const clients: ClientResult[] = [];
  for (const [i, d] of drivers.entries()) {
    process.stderr.write(`interop: ${d.name} ${d.version}\n`);
    clients.push(await runClient(d, i, dir));
  }
  const matrix: Matrix = {
    generated: new Date().toISOString(),
    node: process.version,
    server: 'spotcheck reference server (explain on) behind spotcheck grade, loopback',
    clients,
  };
  process.stdout.write(table(matrix));
  if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(matrix, null, 2)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`interop: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
