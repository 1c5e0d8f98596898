#!/usr/bin/env node
/**
 * `npm start`'s pre-step: build only when dist/ is missing or older than a source file,
 * so `npm ci && npm start` builds once (npm ci's `prepare` already did) while an edited
 * checkout is still rebuilt before it runs (its bin executable again, as `npm run build` leaves it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markBinExecutable } from './bin-mode.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = join(root, 'dist', 'conformance', 'cli', 'bin.js');

/** Newest modification time of the TypeScript and JSON sources under a folder. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (/\.(ts|json)$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(
  newest(join(root, 'src')),
  newest(join(root, 'conformance')),
  statSync(join(root, 'tsconfig.build.json')).mtimeMs,
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  markBinExecutable(root);
}
