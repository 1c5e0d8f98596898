#!/usr/bin/env node
/**
 * `npm run mutation`: the kit's own measure of power. Builds the judge from the unmutated
 * sources (node_modules/.mutation/judge.mjs), runs Stryker (harness/mutation/stryker.config.mjs),
 * then scores it (harness/mutation/score.mjs): killed over the mutants not listed as equivalent
 * in harness/mutation/equivalent.json. Arguments go to Stryker (e.g. `--mutate src/core/time.ts`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
await build({
  entryPoints: [join(root, 'harness', 'mutation', 'judge.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: join(root, 'node_modules', '.mutation', 'judge.mjs'),
  packages: 'external',
  logLevel: 'warning',
});
const reports = join(root, 'reports', 'mutation');
mkdirSync(reports, { recursive: true });
const log = join(reports, 'judged.jsonl');
rmSync(log, { force: true });
// the kit that judges is this tree's: its commit goes in the record
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
const t0 = performance.now();
const stryker = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'),
    'run',
    join(root, 'harness', 'mutation', 'stryker.config.mjs'),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SPOTCHECK_MUTATION_LOG: log } },
);
process.stderr.write(`\nStryker took ${((performance.now() - t0) / 60000).toFixed(1)} min\n`);
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
// a whole run (no Stryker arguments narrowing it) records its figures, its minutes and the judging kit's commit
const whole = process.argv.length <= 2;
const minutes = ((performance.now() - t0) / 60000).toFixed(1);
const score = spawnSync(
  process.execPath,
  [join(root, 'harness', 'mutation', 'score.mjs'), ...(whole ? ['--record'] : [])],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SPOTCHECK_MUTATION_MINUTES: minutes, SPOTCHECK_MUTATION_COMMIT: commit },
  },
);
process.exit(score.status ?? 1);
