/**
 * Stryker's command for one mutant (the mutant named by `__STRYKER_ACTIVE_MUTANT__`): start
 * the server built from the sandbox's instrumented sources (`.mutation/server.mjs`, made by
 * the build command) in its own process, then judge it with `spotcheck run --profile
 * reference --strict` from this bundle, built from the unmutated sources before Stryker
 * started. Exit 0: the run passed (the mutant survived); 1: it did not (killed).
 *
 * With SPOTCHECK_MUTATION_LOG set, one JSON line per mutant (its id, the run's exit code
 * and the checks that failed or were left undecided) is appended there, for the survivors file.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import {
  DEMO_API_KEY,
  DEMO_READONLY_API_KEY,
  DEMO_READONLY_SECRET,
  DEMO_SECRET,
} from '../../src/server/credentials.js';
import { conformanceCommands } from '../../conformance/cli/commands.js';

/** The seed of every judging run: a mutant's verdict is reproducible (`spotcheck replay`). */
export const MUTATION_SEED = '1';

/** The ids of the mutants the initial (unmutated) run reached, once that run wrote them. */
const COVERAGE = join(process.cwd(), '.mutation', 'coverage.json');

/** Start the sandbox's server; resolve with its URL and a stopper (resolving once it exited), or null if it never listens. */
function startMutant(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(process.cwd(), '.mutation', 'server.mjs')], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, SPOTCHECK_MUTATION_COVERAGE: COVERAGE },
    });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    const stop = async () => {
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(late);
    };
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 15_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ url: m[1], stop });
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? 'none';
const log = process.env.SPOTCHECK_MUTATION_LOG;
const listed = (file: string): string[] | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : undefined;
// a mutant outside the server's bundle is not server code (a shared core function only the kit or the
// client calls); one the unmutated run never reached cannot change its answers (not covered): both
// pass unjudged, and the score counts them apart
if (mutant !== 'none') {
  const inServer = listed(join(process.cwd(), '.mutation', 'in-server.json'));
  const covered = listed(COVERAGE);
  const outside = inServer !== undefined && !inServer.includes(mutant);
  if (outside || (covered !== undefined && !covered.includes(mutant))) {
    const flag = outside ? { inServer: false } : { covered: false };
    if (log !== undefined) appendFileSync(log, `${JSON.stringify({ mutant, code: 0, ...flag })}\n`);
    process.exit(0);
  }
}
const server = await startMutant();
let code = 1;
let out = '';
const reportFile = join(tmpdir(), `spotcheck-mutant-${mutant}-${process.pid}.json`);
if (server !== null) {
  try {
    code = await main(
      [
        'run',
        '--base-url',
        server.url,
        '--profile',
        'reference',
        '--strict',
        '--fail-fast',
        '--concurrency',
        '2',
        '--seed',
        MUTATION_SEED,
        '--no-color',
        '--report-json',
        reportFile,
      ],
      {
        out: (s) => (out += s),
        err: (s) => (out += s),
        env: {
          SPOTCHECK_API_KEY: DEMO_API_KEY,
          SPOTCHECK_SECRET: DEMO_SECRET,
          SPOTCHECK_NO_TRADE_API_KEY: DEMO_READONLY_API_KEY,
          SPOTCHECK_NO_TRADE_SECRET: DEMO_READONLY_SECRET,
          NO_COLOR: '1',
        },
      },
      conformanceCommands,
    );
  } finally {
    await server.stop();
  }
}
if (log !== undefined) {
  let failed: string[] = [];
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { checks: Array<{ id: string; status: string }> };
    failed = report.checks
      .filter((c) => c.status === 'fail' || c.status === 'inconclusive')
      .map((c) => `${c.status} ${c.id}`);
  } catch {
    // no report: the server never listened, or the run stopped before writing it
  }
  appendFileSync(log, `${JSON.stringify({ mutant, code, started: server !== null, failed })}\n`);
}
rmSync(reportFile, { force: true });
if (process.env.SPOTCHECK_MUTATION_VERBOSE) process.stderr.write(out);
process.exit(code === 0 ? 0 : 1);
