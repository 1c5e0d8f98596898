/**
 * Every build leaves a working CLI: on a copy of this checkout, `npx spotcheck --version`
 * links the bin (npx sets its mode only then), `npm run build` rewrites dist/, and the same
 * `npx spotcheck --version` still runs (it failed with "Permission denied", exit 127, when
 * the build left bin.js without its execute bit).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './graph.mjs';

const SKIP = new Set(['node_modules', 'dist', 'site', '.git', 'artifacts', 'reports', '.latbuild']);
const work = mkdtempSync(join(tmpdir(), 'spotcheck-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run build', () => {
  it('leaves dist/conformance/cli/bin.js executable, so an earlier npx link still runs', () => {
    const copy = join(work, 'kit');
    cpSync(ROOT, copy, {
      recursive: true,
      filter: (src) => !SKIP.has(relative(ROOT, src).split(sep)[0] ?? ''),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
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
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: copy, env, stdio: 'ignore' });
    const bin = join(copy, 'dist', 'conformance', 'cli', 'bin.js');
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    const after = version();
    expect({ status: after.status, out: after.stdout + after.stderr }).toEqual({
      status: 0,
      out: expect.stringMatching(/^spotcheck \d+\.\d+\.\d+/),
    });
  }, 240_000); // one build and two npx runs: 8 s on a quiet machine
});
