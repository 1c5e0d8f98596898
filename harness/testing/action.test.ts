/**
 * The composite GitHub Action (action.yml) run locally: its bash steps
 * against the reference server on loopback, started here. The install step (npm ci in
 * the action's checkout) is left out because this checkout is installed and built
 * already (`npm ci` builds); `node harness/testing/action-e2e.mjs` runs it too, on a copy.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { defaultPolicy } from '../../src/server/policy.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { readAction, runActionLocally } from './action.js';

const ROOT = kitPath();

describe('action.yml', () => {
  it('is a composite action that installs from its own checkout, starts nothing and uploads the reports', () => {
    const a = readAction(join(ROOT, 'action.yml'));
    expect(a.runs.using).toBe('composite');
    expect(Object.keys(a.inputs)).toEqual(expect.arrayContaining(['base-url', 'api-key', 'secret', 'profile', 'args']));
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(text).not.toMatch(/npx |npm (i|install) /);
    const install = a.runs.steps.find((s) => s.id === 'install');
    expect(install?.['working-directory']).toBe('${{ github.action_path }}');
    expect(install?.run).toContain('npm ci');
    expect(a.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@') && s.if === 'always()')).toBe(true);
    // Credentials only through the environment, never pasted into a script.
    for (const s of a.runs.steps) expect(s.run ?? '').not.toMatch(/inputs\./);
  });

  describe('run locally against the reference server', () => {
    const built = existsSync(join(ROOT, 'dist', 'conformance', 'cli', 'bin.js'));
    let clean: RunningServer;
    let faulty: RunningServer;
    beforeAll(async () => {
      clean = await startServer({ port: 0 });
      // One deliberate fault (as harness/mutants.ts has it): upper-case signatures refused, against §5.3 item 3.
      faulty = await startServer({ port: 0, policy: { verifySignature: (secret, steps, sig) => sig === sig.toLowerCase() && defaultPolicy.verifySignature(secret, steps, sig) } });
    });
    afterAll(async () => {
      await clean.close();
      await faulty.close();
    });

    const run = async (url: string, args: string) => {
      if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
      const workdir = mkdtempSync(join(tmpdir(), 'spotcheck-action-'));
      const r = await runActionLocally({ actionPath: ROOT, workdir, inputs: { 'base-url': url, 'api-key': DEMO_API_KEY, secret: DEMO_SECRET, args }, skip: ['install'] });
      return { ...r, workdir };
    };

    it('passes a correct server and uploads JUnit, JSON, NDJSON and HTML without the secret', async () => {
      const r = await run(clean.url, '--seed 1 --runs 5 --only AUTH,SIG-CASE');
      expect(r.code, r.log).toBe(0);
      expect(r.outputs['exit-code']).toBe('0');
      const dir = join(r.artifacts, 'spotcheck-report');
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { target: string; summary: { mustFailures: number } };
      expect(report.target).toBe(clean.url);
      expect(XMLValidator.validate(readFileSync(join(dir, 'junit.xml'), 'utf8'))).toBe(true);
      expect(readFileSync(join(dir, 'events.ndjson'), 'utf8')).toContain('"event":"end"');
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<section id="coverage">');
      expect(r.log + readFileSync(join(dir, 'report.json'), 'utf8') + readFileSync(join(dir, 'report.html'), 'utf8')).not.toContain(DEMO_SECRET);
    }, 120_000);

    it('fails on a faulty server (exit 1) and still uploads the reports', async () => {
      const r = await run(faulty.url, '--seed 1 --runs 5 --only SIG-CASE');
      expect(r.code, r.log).toBe(1);
      expect(r.outputs['exit-code']).toBe('1');
      expect(r.steps.at(-1)).toMatch(/upload-artifact/);
      const report = JSON.parse(readFileSync(join(r.artifacts, 'spotcheck-report', 'report.json'), 'utf8')) as { summary: { mustFailures: number } };
      expect(report.summary.mustFailures).toBeGreaterThan(0);
    }, 120_000);
  });
});
