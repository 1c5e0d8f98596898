#!/usr/bin/env node
/**
 * `npm run build`: dist/ from scratch (tsc -p tsconfig.build.json, arguments after `--` go
 * to tsc), the Artillery processor bundle, then the `spotcheck` bin made executable again:
 * tsc writes it as a plain file, and a link npx made earlier (it sets the mode only when it
 * links) would then fail with "Permission denied".
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markBinExecutable } from './bin-mode.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join(root, 'tsconfig.build.json'),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
await import('./build-processor.mjs');
markBinExecutable(root);
