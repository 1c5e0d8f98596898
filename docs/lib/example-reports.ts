/**
 * The worked example of the docs site: the harness's servers, one clean and one faulty
 * beside the reference server (three targets), checked by `spotcheck matrix` into `reports/` beside the
 * generated pages (each target's HTML and JSON report, matrix.html, matrix.json); the site
 * publishes them under `media/`. The same code path as a user's `spotcheck matrix FILE --out DIR`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { matrixCommand } from '../../conformance/cli/matrix.js';
import { mutants } from '../../harness/mutants.js';
import { startVariant } from '../../harness/variants.js';

/** Where the example is written beside the generated pages, and its two pages the guide links to. */
export const EXAMPLE_DIR = 'reports';
export const EXAMPLE_MATRIX = `${EXAMPLE_DIR}/matrix.html`;
export const EXAMPLE_REFERENCE = `${EXAMPLE_DIR}/reference.html`;

/** The faulty server of the example: a mutant of the harness, by name, and its name in the matrix. */
export const EXAMPLE_MUTANTS = [{ mutant: '5 s lead allowed', name: 'faulty-time-lead' }] as const;

/** Run the example matrix into `dir/reports/`; returns the matrix's exit code (1: a faulty target failed, as it must). */
export async function writeExampleReports(dir: string, seed = 20261124): Promise<{ exitCode: number; log: string }> {
  const servers: Array<{ close(): Promise<void> }> = [];
  const work = mkdtempSync(join(tmpdir(), 'spotcheck-example-'));
  let log = '';
  try {
    // clean: the reference server behind a proxy answering 19-digit ids as JSON numbers, a legitimate reading of the seed
    const clean = await startVariant({ numericIds: true });
    servers.push(clean);
    const faulty: Array<{ name: string; url: string }> = [];
    for (const { mutant, name } of EXAMPLE_MUTANTS) {
      const m = mutants.find((x) => x.name === mutant);
      if (m === undefined) throw new Error(`example reports: no harness mutant named '${mutant}'`);
      const s: RunningServer = await startServer({ port: 0, ...m.options });
      servers.push(s);
      faulty.push({ name, url: s.url });
    }
    const targets = [
      { name: 'reference', embedded: true },
      { name: 'clean-numeric-ids', baseUrl: clean.url },
      ...faulty.map((f) => ({ name: f.name, baseUrl: f.url })),
    ];
    const file = join(work, 'targets.json');
    writeFileSync(file, `${JSON.stringify(targets, null, 2)}\n`);
    // the harness servers hold the documented demo credentials (not secrets)
    const env = { ...process.env, SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };
    const exitCode = await matrixCommand(
      [file, '--out', join(dir, EXAMPLE_DIR), '--jobs', '2', '--seed', String(seed)],
      {
        out: (s) => void (log += s),
        err: (s) => void (log += s),
        env,
      },
    );
    return { exitCode, log };
  } finally {
    for (const s of servers) await s.close();
    rmSync(work, { recursive: true, force: true });
  }
}
