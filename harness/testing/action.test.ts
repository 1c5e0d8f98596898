/**
 * The composite GitHub Action (action.yml) run locally: its bash steps
 * against the reference server on loopback, started here. The install step (npm ci in
 * the action's checkout) is left out because this checkout is installed and built
 * already (`npm ci` builds); `node harness/testing/action-e2e.mjs` runs it too, on a copy.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
      faulty = await startServer({
        port: 0,
        policy: {
          verifySignature: (secret, steps, sig) =>
            sig === sig.toLowerCase() && defaultPolicy.verifySignature(secret, steps, sig),
        },
      });
    });
    afterAll(async () => {
      await clean.close();
      await faulty.close();
    });

    const github = { GITHUB_JOB: 'conformance', GITHUB_ACTION: '__owner_spotcheck', GITHUB_RUN_ATTEMPT: '1' };
    const run = async (
      url: string,
      args: string,
      more: { env?: NodeJS.ProcessEnv; jobIndex?: number; inputs?: Record<string, string>; skip?: string[] } = {},
    ) => {
      if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
      const workdir = mkdtempSync(join(tmpdir(), 'spotcheck-action-'));
      const r = await runActionLocally({
        actionPath: ROOT,
        workdir,
        inputs: { 'base-url': url, 'api-key': DEMO_API_KEY, secret: DEMO_SECRET, args, ...more.inputs },
        skip: ['install', ...(more.skip ?? [])],
        env: { ...process.env, ...github, ...more.env },
        ...(more.jobIndex === undefined ? {} : { jobIndex: more.jobIndex }),
      });
      return { ...r, workdir };
    };

    it('passes a correct server and uploads JUnit, JSON, NDJSON and HTML without the secret', async () => {
      const r = await run(clean.url, '--seed 1 --runs 5 --only AUTH,SIG-CASE');
      expect(r.code, r.log).toBe(0);
      expect(r.outputs['exit-code']).toBe('0');
      // the job's Node (this one, 20.19 or later) is used as it is: setup-node does not run
      expect(r.steps.some((st) => st.startsWith('actions/setup-node'))).toBe(false);
      expect(r.outputs['artifact-name']).toBe('spotcheck-report-conformance-0-__owner_spotcheck-1');
      const dir = join(r.artifacts, r.outputs['artifact-name'] ?? '');
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        target: string;
        summary: { mustFailures: number };
      };
      expect(report.target).toBe(clean.url);
      expect(XMLValidator.validate(readFileSync(join(dir, 'junit.xml'), 'utf8'))).toBe(true);
      expect(readFileSync(join(dir, 'events.ndjson'), 'utf8')).toContain('"event":"end"');
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<section id="coverage">');
      expect(
        r.log + readFileSync(join(dir, 'report.json'), 'utf8') + readFileSync(join(dir, 'report.html'), 'utf8'),
      ).not.toContain(DEMO_SECRET);
    }, 120_000);

    it('fails on a faulty server (exit 1) and still uploads the reports', async () => {
      const r = await run(faulty.url, '--seed 1 --runs 5 --only SIG-CASE');
      expect(r.code, r.log).toBe(1);
      expect(r.outputs['exit-code']).toBe('1');
      expect(r.steps.at(-1)).toMatch(/upload-artifact/);
      const report = JSON.parse(
        readFileSync(join(r.artifacts, r.outputs['artifact-name'] ?? '', 'report.json'), 'utf8'),
      ) as { summary: { mustFailures: number } };
      expect(report.summary.mustFailures).toBeGreaterThan(0);
    }, 120_000);

    it("names each use's artifact apart (two steps of a job, two matrix jobs), or as the artifact-name input says", async () => {
      const names = await Promise.all([
        run(clean.url, '--list', { env: { GITHUB_ACTION: '__owner_spotcheck' } }),
        run(clean.url, '--list', { env: { GITHUB_ACTION: '__owner_spotcheck_2' } }),
        run(clean.url, '--list', { jobIndex: 1 }),
        run(clean.url, '--list', { inputs: { 'artifact-name': 'reports:venue/a' } }),
      ]).then((rs) => rs.map((r) => r.outputs['artifact-name']));
      expect(new Set(names).size).toBe(4);
      expect(names[3]).toBe('reports-venue-a');
    }, 120_000);

    it('sets up Node only when the job has none of 20.19 or later', async () => {
      const bin = mkdtempSync(join(tmpdir(), 'spotcheck-old-node-'));
      writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v18.20.0\n', { mode: 0o755 });
      // with an old Node first on the PATH the setup-node step runs (the local runner records it; the check itself is not run)
      const r = await run(clean.url, '', { env: { PATH: `${bin}:${process.env.PATH ?? ''}` }, skip: ['run'] });
      expect(r.log).toContain('found Node v18.20.0');
      expect(r.steps).toContain('actions/setup-node@v4');
    }, 120_000);
  });
});
