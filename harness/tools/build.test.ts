/**
 * Every build leaves a working CLI: on a copy of this checkout, the bin is linked the way npx
 * links it (a symbolic link to dist/conformance/cli/bin.js, made executable at link time only)
 * and runs; `npm run build` rewrites bin.js, and the same link still runs (it failed with
 * "Permission denied" when the build left bin.js without its execute bit: an npx link made
 * before any rebuild broke). The copy keeps this checkout's dist/, so the build is the
 * incremental one (bin.ts changed); bin.js starts the rebuild without its execute bit, as a
 * build from scratch writes it. The link is made directly: npx making it costs a whole
 * dependency-tree load (5 CPU-s) for the same symbolic link and mode.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './graph.mjs';

const SKIP = new Set(['node_modules', 'dist', 'site', '.git', 'artifacts', 'reports', '.latbuild']);
const work = mkdtempSync(join(tmpdir(), 'spotcheck-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tree of hard links to `from`'s files (no byte copied; symbolic links copied as links). */
function linkTree(from: string, to: string): void {
  mkdirSync(to);
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const [a, b] = [join(from, e.name), join(to, e.name)];
    if (e.isDirectory()) linkTree(a, b);
    else if (e.isSymbolicLink()) symlinkSync(readlinkSync(a), b);
    else linkSync(a, b);
  }
}

/**
 * The copy's node_modules: hard links, so its files sit at the copy's own paths and tsc's build
 * information copied with dist/ (paths relative to it) holds there; a symbolic link to this
 * checkout's where the file system refuses (then the rebuild is one from scratch, slower).
 */
function linkModules(copy: string): void {
  try {
    linkTree(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  } catch {
    rmSync(join(copy, 'node_modules'), { recursive: true, force: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  }
}

describe('npm run build', () => {
  it('leaves dist/conformance/cli/bin.js executable, so an earlier npx link still runs', () => {
    const copy = join(work, 'kit');
    cpSync(ROOT, copy, {
      recursive: true,
      filter: (src) => !SKIP.has(relative(ROOT, src).split(sep)[0] ?? ''),
    });
    linkModules(copy);
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    const bin = join(copy, 'dist', 'conformance', 'cli', 'bin.js');
    // the link npx makes: node_modules/.bin/<name> -> the bin, its mode set when linking
    const link = join(work, 'bin', 'spotcheck');
    mkdirSync(dirname(link));
    symlinkSync(bin, link);
    chmodSync(bin, statSync(bin).mode | 0o755);
    const version = () => spawnSync(link, ['--version'], { cwd: copy, encoding: 'utf8' });
    const before = version();
    expect(before.stdout + before.stderr).toMatch(/^spotcheck \d+\.\d+\.\d+/);
    appendFileSync(join(copy, 'conformance', 'cli', 'bin.ts'), '// rebuilt by build.test\n');
    chmodSync(bin, 0o644);
    execFileSync('npm', ['run', 'build', '--silent'], {
      cwd: copy,
      env: { ...process.env, npm_config_update_notifier: 'false' },
      stdio: 'ignore',
    });
    expect(readFileSync(bin, 'utf8')).toContain('// rebuilt by build.test');
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    const after = version();
    expect({ status: after.status, error: after.error?.message, out: after.stdout + after.stderr }).toEqual({
      status: 0,
      error: undefined,
      out: expect.stringMatching(/^spotcheck \d+\.\d+\.\d+/),
    });
  }, 240_000); // one incremental build
});
