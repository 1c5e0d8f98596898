import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import { DEMO_API_KEY, DEMO_SECRET, startServer, type RunningServer } from '../../src/server/index.js';
import { conformanceCommands } from './commands.js';
import { mutants } from '../mutants.js';
import { isLoopback } from './run.js';

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}

const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);

describe('spotcheck run (command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-run-'));
  let broken: RunningServer;
  const fault = mutants.find((m) => m.name.startsWith('JSON body not covered'));

  beforeAll(async () => {
    broken = await startServer({ port: 0, ...(fault?.options ?? {}) });
  });
  afterAll(async () => {
    await broken.close();
  });

  it('exits 1 against a faulty server and writes a JSON report, valid JUnit XML and a curl reproduction without the secret', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    const json = join(dir, 'r.json');
    const junit = join(dir, 'r.xml');
    const code = await cli(['run', '--base-url', broken.url, '--only', 'SIG-BODY', '--runs', '10', '--seed', '3', '--report-json', json, '--junit', junit], io);
    expect(code).toBe(1);
    const out = io.stdout();
    expect(out).toContain('Failures:');
    expect(out).toContain('Requirement:');
    expect(out).toContain('Expected:');
    expect(out).toContain('Actual:');
    expect(out).toContain('$SPOTCHECK_SECRET');
    expect(out).toContain('spotcheck replay --seed 3 --only SIG-BODY-COVERED');
    expect(out).toMatch(/Rule: \S*documents\/Rule_catalog\.html#SIG-BODY-COVERED/);
    expect(out).toMatch(/^\d+ passed, \d+ failed, \d+ info, \d+ skipped$/m);
    expect(out + io.stderr() + readFileSync(json, 'utf8') + readFileSync(junit, 'utf8')).not.toContain(DEMO_SECRET);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { seed: number; summary: { failed: number }; checks: Array<{ id: string; status: string }> };
    expect(report.seed).toBe(3);
    expect(report.checks.find((c) => c.id === 'SIG-BODY-COVERED')?.status).toBe('fail');
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { '@_failures': string } };
    expect(Number(parsed.testsuites['@_failures'])).toBe(report.summary.failed);
  });

  it('replays one check with the same seed', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    const code = await cli(['replay', '--base-url', broken.url, '--seed', '3', '--only', 'SIG-BODY-COVERED', '--runs', '10'], io);
    expect(code).toBe(1);
    expect(io.stdout()).toContain('SIG-BODY-COVERED');
    expect(io.stdout()).toMatch(/^0 passed, 1 failed, 0 info, 0 skipped$/m);
  });

  it('exits 0 against the embedded reference server for a selection', async () => {
    const io = capture();
    expect(await cli(['run', '--only', 'AUTH,BATCH-MAX', '--runs', '5'], io)).toBe(0);
    expect(io.stderr()).toContain('embedded reference server');
    expect(io.stdout()).toMatch(/seed=\d+/);
  });

  it('prints its version with --version, exit 0', async () => {
    const io = capture();
    expect(await cli(['--version'], io)).toBe(0);
    expect(io.stdout()).toMatch(/^spotcheck \d+\.\d+\.\d+\n$/);
  });

  it('lists checks without sending anything', async () => {
    const io = capture();
    expect(await cli(['run', '--list', '--only', 'TIME'], io)).toBe(0);
    expect(io.stdout()).toContain('TIME-WINDOW-LEAD');
    expect(io.stdout()).toContain('nothing was sent');
  });

  it('gives usage errors exit 2 and a clear message, no stack trace', async () => {
    const cases: string[][] = [
      ['run', '--bogus'],
      ['run', '--profile', 'strictest'],
      ['run', '--runs', 'many'],
      ['run', '--only', 'NOPE'],
      ['run', '--base-url', 'not a url'],
      ['run', '--base-url', 'http://127.0.0.1:9'],
      ['replay', '--only', 'SIG'],
    ];
    for (const argv of cases) {
      const io = capture();
      expect(await cli(argv, io), argv.join(' ')).toBe(2);
      expect(io.stderr(), argv.join(' ')).toMatch(/^spotcheck: /);
      expect(io.stderr(), argv.join(' ')).not.toMatch(/\n\s+at /);
    }
  });

  it('exits 2 when the target cannot be reached', async () => {
    const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
    expect(await cli(['run', '--base-url', 'http://127.0.0.1:9', '--timeout', '1000'], io)).toBe(2);
    expect(io.stderr()).toContain('could not reach');
  });

  it('exits 2 within 15 s when the secret is wrong, saying so, with no check run (issue 9)', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: 'not-the-secret' });
    const t0 = Date.now();
    expect(await cli(['run', '--base-url', broken.url, '--runs', '5'], io)).toBe(2);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(io.stderr()).toMatch(/no valid request was accepted anywhere[\s\S]*the secret is wrong/);
    expect(io.stdout()).not.toMatch(/passed/);
    expect(io.stderr() + io.stdout()).not.toContain('not-the-secret');
  });

  it('knows loopback hosts', () => {
    expect(isLoopback(new URL('http://127.0.0.1:1'))).toBe(true);
    expect(isLoopback(new URL('http://[::1]:1'))).toBe(true);
    expect(isLoopback(new URL('http://localhost'))).toBe(true);
    expect(isLoopback(new URL('https://api.example.test'))).toBe(false);
  });
});
