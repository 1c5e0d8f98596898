#!/usr/bin/env node
/**
 * `npm run test:artillery`: the project `spotcheck load init` writes, run by real Artillery
 * (2.0.21, the last release for Node.js 20) installed into a scratch folder, not a project
 * dependency. It must pass against the reference server (exit 0, and `spotcheck load report`
 * on its JSON says 0 correctness failures), and fail against harness servers breaking one
 * rule under load (misaligned batch entries; some valid signatures refused): Artillery's
 * `ensure` exits non-zero and `load report` exits 1 naming the failure.
 *
 * Environment: SPOTCHECK_ARTILLERY_DIR (scratch folder, default $TMPDIR/spotcheck-artillery-2.0.21),
 * SPOTCHECK_ARTILLERY_KEEP=DIR copies the result JSON files there.
 * Needs the built kit (npm run build).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrokenServer } from './broken-server.mjs';

const ARTILLERY = '2.0.21';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'conformance', 'cli', 'bin.js');
const scratch = process.env.SPOTCHECK_ARTILLERY_DIR ?? join(tmpdir(), `spotcheck-artillery-${ARTILLERY}`);
const artillery = join(scratch, 'node_modules', '.bin', 'artillery');
const t0 = performance.now();
const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
let failed = 0;

/** Run a command; resolve with its exit code and output. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', (err) => resolve({ code: 127, out: `${cmd}: ${err.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

function expect(ok, what, detail = '') {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  if (!ok) {
    failed++;
    if (detail !== '') process.stdout.write(`${detail.split('\n').slice(-40).join('\n')}\n`);
  }
}

if (!existsSync(bin) || !existsSync(join(root, 'dist', 'conformance', 'load', 'artillery', 'processor.cjs'))) {
  console.error('test:artillery: build the kit first (npm run build)');
  process.exit(2);
}

if (!existsSync(artillery)) {
  process.stdout.write(
    `installing artillery@${ARTILLERY} into ${scratch} (about 600 MB; its browser download skipped)\n`,
  );
  mkdirSync(scratch, { recursive: true });
  const r = await run(
    'npm',
    ['install', '--prefix', scratch, '--no-audit', '--no-fund', '--no-save', `artillery@${ARTILLERY}`],
    {
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    },
  );
  if (r.code !== 0 || !existsSync(artillery)) {
    console.error(`test:artillery: npm install artillery@${ARTILLERY} failed\n${r.out}`);
    process.exit(2);
  }
  process.stdout.write(`installed in ${secs()} s\n`);
}

const work = mkdtempSync(join(tmpdir(), 'spotcheck-artillery-run-'));
const env = {
  ...process.env,
  SPOTCHECK_API_KEY: 'spotcheck-demo-key',
  SPOTCHECK_SECRET: 'spotcheck-demo-secret',
  ARTILLERY_DISABLE_TELEMETRY: 'true',
};

/** Start the reference server in a child process; resolves with its URL and the child. */
function startReference() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SPOTCHECK_API_KEY: '', SPOTCHECK_SECRET: '' },
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`reference server exited with ${code}: ${out}`)));
  });
}

/** Write the project, run Artillery against `url`, judge its JSON with `load report`. */
async function scenario(name, url, { rate = 25, duration = 4 } = {}) {
  const dir = join(work, name);
  const init = await run(process.execPath, [
    bin,
    'load',
    'init',
    '--out',
    dir,
    '--rate',
    String(rate),
    '--duration',
    String(duration),
    '--connections',
    '8',
  ]);
  if (init.code !== 0) throw new Error(`load init failed: ${init.out}`);
  const output = join(dir, 'result.json');
  const art = await run(artillery, ['run', '--target', url, '--output', output, join(dir, 'spotcheck-load.yml')], {
    cwd: dir,
    env,
  });
  const report = existsSync(output)
    ? await run(process.execPath, [bin, 'load', 'report', output, '--report-json', join(dir, 'verdict.json')])
    : { code: -1, out: 'no output file' };
  const verdict = existsSync(join(dir, 'verdict.json'))
    ? JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8'))
    : undefined;
  if (process.env.SPOTCHECK_ARTILLERY_KEEP && existsSync(output)) {
    mkdirSync(process.env.SPOTCHECK_ARTILLERY_KEEP, { recursive: true });
    copyFileSync(output, join(process.env.SPOTCHECK_ARTILLERY_KEEP, `artillery-${name}.json`));
  }
  return { art, report, verdict };
}

try {
  const ref = await startReference();
  try {
    const r = await scenario('reference', ref.url);
    expect(r.art.code === 0, `artillery against the reference server exits 0 (got ${r.art.code})`, r.art.out);
    expect(
      r.report.code === 0 && r.verdict?.passed === true && r.verdict.requests > 0,
      `load report: ${r.verdict?.requests ?? 0} requests, ${r.verdict?.failures?.length ?? '?'} failures, exit ${r.report.code}`,
      r.report.out,
    );
    expect(
      r.verdict?.badSignatures === 0 && r.verdict?.misalignedEntries === 0,
      'no bad signature, no misaligned entry',
    );
  } finally {
    ref.child.kill();
  }
  for (const fault of ['misalign', 'signature']) {
    const broken = await startBrokenServer({ fault, busyAt: 20, every: 5 });
    try {
      const r = await scenario(fault, broken.url, { rate: 40 });
      const kind = fault === 'misalign' ? 'misalignedEntries' : 'refusedValid';
      expect(r.art.code !== 0, `artillery against the ${fault} server exits non-zero (got ${r.art.code})`, r.art.out);
      expect(
        r.report.code === 1 && (r.verdict?.[kind] ?? 0) > 0,
        `load report: exit ${r.report.code}, ${kind} ${r.verdict?.[kind] ?? '?'}`,
        r.report.out,
      );
    } finally {
      await broken.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`test:artillery: ${failed === 0 ? 'passed' : `${failed} FAILED`} in ${secs()} s\n`);
process.exit(failed === 0 ? 0 : 1);
