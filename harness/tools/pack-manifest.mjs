#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` hooks. `prepack`: build dist/ from scratch (skipped when
 * SPOTCHECK_PACK_PREBUILT=1, for a test packing the dist/ npm ci built), then write the
 * manifest without `scripts.prepare`, so the packed package.json carries no install-time
 * build (npm ci on a clone still builds through it; a consumer has nothing to build).
 * `postpack`: put the clone's own package.json back. Each swap is a rename (readers never
 * see half a file); the original waits in .package.json.prepack, and a pack that died
 * before its postpack is mended by the next one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = join(root, 'package.json');
const backup = join(root, '.package.json.prepack');

/** Put the saved original back, if a swap is in place. */
function restore() {
  if (existsSync(backup)) renameSync(backup, manifest);
}

const step = process.argv[2];
if (step === 'strip') {
  restore();
  if (process.env.SPOTCHECK_PACK_PREBUILT !== '1') {
    const npm = process.env.npm_execpath;
    execFileSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  const tmp = `${manifest}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(backup, text);
  renameSync(tmp, manifest);
} else if (step === 'restore') {
  restore();
} else {
  process.stderr.write('usage: pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
