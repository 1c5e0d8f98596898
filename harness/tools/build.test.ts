/**
 * Every build leaves a working CLI: on a copy of this checkout, `npx spotcheck --version`
 * links the bin (npx sets its mode only then), `npm run build` rewrites bin.js, and the same
 * `npx spotcheck --version` still runs (it failed with "Permission denied", exit 127, when
 * the build left bin.js without its execute bit). The copy keeps this checkout's dist/, so the
 * build is the incremental one (bin.ts changed); bin.js starts the rebuild without its execute
 * bit, as a build from scratch writes it.
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
import { join, relative, sep } from 'node:path';
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
    // a cache of this test's own: the link npx makes is new, as on a fresh clone
    const env = { ...process.env, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false' };
    const version = (extra: NodeJS.ProcessEnv = {}) =>
      spawnSync('npx', ['--no-install', 'spotcheck', '--version'], {
        cwd: copy,
        env: { ...env, ...extra },
        encoding: 'utf8',
      });
    // linking runs the package's `prepare` (a whole build) unless scripts are off: the link is what matters here
    const before = version({ npm_config_ignore_scripts: 'true' });
    expect(before.stdout + before.stderr).toMatch(/^spotcheck \d+\.\d+\.\d+/);
    const bin = join(copy, 'dist', 'conformance', 'cli', 'bin.js');
    appendFileSync(join(copy, 'conformance', 'cli', 'bin.ts'), '// rebuilt by build.test\n');
    chmodSync(bin, 0o644);
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: copy, env, stdio: 'ignore' });
    expect(readFileSync(bin, 'utf8')).toContain('// rebuilt by build.test');
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    const after = version();
    expect({ status: after.status, out: after.stdout + after.stderr }).toEqual({
      status: 0,
      out: expect.stringMatching(/^spotcheck \d+\.\d+\.\d+/),
    });
  }, 240_000); // one incremental build and two npx runs
});
