#!/usr/bin/env node
// The composite action (action.yml) end to end on this machine, install step included:
// the committed tree is copied (git archive HEAD) to a temporary directory standing in
// for the action's checkout, the action's steps run there with bash (npm ci builds the
// kit), against the reference server started here on loopback. Exit 0 when a correct
// server passes (exit-code 0) and a case-sensitive-signature mutant fails (exit-code 1).
// Usage: node harness/testing/action-e2e.mjs   (needs npm, bash, git, network or npm cache)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const checkout = mkdtempSync(join(tmpdir(), 'spotcheck-action-checkout-'));
execFileSync('bash', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${checkout}"`], { stdio: 'inherit' });
console.log(`action checkout: ${checkout}`);

// The local runner and the servers come from this checkout's build (npm ci has built it).
const { runActionLocally } = await import(join(root, 'dist/harness/testing/action.js'));
const { startServer, DEMO_API_KEY, DEMO_SECRET } = await import(join(root, 'dist/src/index.js'));
const { mutants } = await import(join(root, 'dist/harness/mutants.js'));

const clean = await startServer({ port: 0 });
const faulty = await startServer({ port: 0, ...mutants.find((m) => m.name === 'case-sensitive signature').options });
let failed = false;
try {
  let install = [];
  for (const [label, server, want] of [
    ['correct server', clean, '0'],
    ['faulty server', faulty, '1'],
  ]) {
    const workdir = mkdtempSync(join(tmpdir(), 'spotcheck-action-work-'));
    const t0 = Date.now();
    const r = await runActionLocally({
      actionPath: checkout,
      workdir,
      inputs: { 'base-url': server.url, 'api-key': DEMO_API_KEY, secret: DEMO_SECRET, args: '--seed 1 --runs 10' },
      skip: install,
    });
    install = ['install']; // once is enough
    // uploaded under the name the action chose (its artifact-name output)
    const file = join(r.artifacts, r.outputs['artifact-name'] ?? '', 'report.json');
    if (!existsSync(file)) {
      console.log(`FAILED: ${label}: no report uploaded; steps ${r.steps.join(' -> ')}\n${r.log}`);
      failed = true;
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const ok = r.outputs['exit-code'] === want && !r.log.includes(DEMO_SECRET);
    failed ||= !ok;
    console.log(
      `${ok ? 'ok' : 'FAILED'}: ${label}: steps ${r.steps.join(' -> ')}; exit-code ${r.outputs['exit-code']} (want ${want}); ${report.summary.passed} passed, ${report.summary.failed} failed; ${((Date.now() - t0) / 1000).toFixed(0)} s; artifacts in ${r.artifacts}`,
    );
    if (!ok) console.log(r.log);
  }
} finally {
  await clean.close();
  await faulty.close();
}
process.exitCode = failed ? 1 : 0;
