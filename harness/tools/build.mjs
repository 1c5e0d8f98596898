#!/usr/bin/env node
/**
 * `npm run build`: dist/ from the sources (tsc -p tsconfig.build.json, arguments after `--` go
 * to tsc), the Artillery processor bundle, then the `spotcheck` bin made executable again:
 * tsc writes it as a plain file, and a link npx made earlier (it sets the mode only when it
 * links) would then fail with "Permission denied".
 *
 * Incremental: tsc keeps what it knows in dist/.tsbuildinfo and re-checks and re-writes only
 * what changed since. dist/ stays what a build from scratch gives: without that file, or with
 * an output of a current source missing (tsc would not write it again), dist/ is built from
 * scratch; the outputs of a source that is gone are removed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { markBinExecutable } from './bin-mode.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const buildInfo = join(dist, '.tsbuildinfo');
const project = join(root, 'tsconfig.build.json');

const config = ts.getParsedCommandLineOfConfigFile(
  project,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
);
const outputs = (config?.fileNames ?? []).flatMap((f) => ts.getOutputFileNames(config, f, false));
if (!existsSync(buildInfo) || !outputs.every((f) => existsSync(f))) rmSync(dist, { recursive: true, force: true });

const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    project,
    '--incremental',
    '--tsBuildInfoFile',
    buildInfo,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** Remove what tsc wrote for a source that no longer exists (a `.js` or `.d.ts` without its `.ts` or `.tsx`), and folders left empty. */
function removeOrphans(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) removeOrphans(p);
    else {
      const stem = /^(.*)\.(d\.ts|js)$/.exec(relative(dist, p))?.[1];
      if (stem !== undefined && !['.ts', '.tsx'].some((x) => existsSync(join(root, `${stem}${x}`)))) rmSync(p);
    }
  }
  if (dir !== dist && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}
removeOrphans(dist);
await import('./build-processor.mjs');
markBinExecutable(root);
