#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` hooks. `prepack`: build dist/ from scratch (skipped when
 * SPOTCHECK_PACK_PREBUILT=1, for a test packing the dist/ npm ci built), then write the
 * manifest without `scripts.prepare`, so the packed package.json carries no install-time
 * build (npm ci on a clone still builds through it; a consumer has nothing to build), and
 * README.md for someone who installed the package (harness/tools/package-readme.mjs: no
 * clone instructions, no source path the package does not ship).
 * `postpack`: put the clone's own package.json and README back. Each swap is a rename
 * (readers never see half a file); the originals wait in .package.json.prepack and
 * .README.md.prepack, and a pack that died before its postpack is mended by the next one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageReadme } from './package-readme.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = join(root, 'package.json');
const backup = join(root, '.package.json.prepack');
const readme = join(root, 'README.md');
const readmeBackup = join(root, '.README.md.prepack');

/** Put the saved originals back, if a swap is in place. */
function restore() {
  if (existsSync(backup)) renameSync(backup, manifest);
  if (existsSync(readmeBackup)) renameSync(readmeBackup, readme);
}

/** Replace `file` by `text` with one rename, its original kept in `saved`. */
function swap(file, saved, text) {
  const original = readFileSync(file, 'utf8');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  writeFileSync(saved, original);
  renameSync(tmp, file);
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
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  delete pkg.scripts.prepare;
  swap(manifest, backup, `${JSON.stringify(pkg, null, 2)}\n`);
  swap(readme, readmeBackup, packageReadme(readFileSync(readme, 'utf8')));
} else if (step === 'restore') {
  restore();
} else {
  process.stderr.write('usage: pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
