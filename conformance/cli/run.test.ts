import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import {
  DEMO_API_KEY,
  DEMO_READONLY_API_KEY,
  DEMO_READONLY_SECRET,
  DEMO_SECRET,
} from '../../src/server/credentials.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { conformanceCommands } from './commands.js';
import { mutants } from '../../harness/mutants.js';
import { isLoopback, notLoopbackWarning, ruleLinker } from './run.js';
import { reportValidator } from '../../harness/testing/report-schema.js';

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}

const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const reportSchema = reportValidator;

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
    const code = await cli(
      [
        'run',
        '--base-url',
        broken.url,
        '--only',
        'SIG-BODY',
        '--runs',
        '10',
        '--seed',
        '3',
        '--report-json',
        json,
        '--junit',
        junit,
      ],
      io,
    );
    expect(code).toBe(1);
    const out = io.stdout();
    expect(out).toContain('Failures:');
    expect(out).toContain('Requirement:');
    expect(out).toContain('Expected:');
    expect(out).toContain('Actual:');
    expect(out).toContain('$SPOTCHECK_SECRET');
    expect(out).toContain('spotcheck replay --seed 3 --only SIG-BODY-COVERED');
    // the rule link opens wherever the kit is: a file of this checkout (the built site, or the shipped catalog)
    const link = /Rule: (?:SIG-BODY-COVERED in )?(file:\/\/\S+?)(?:#SIG-BODY-COVERED)? \(/.exec(out)?.[1];
    expect(link, out).toBeDefined();
    expect(existsSync(fileURLToPath(link ?? ''))).toBe(true);
    expect(out).toMatch(/^\d+ passed, \d+ failed, \d+ info, \d+ skipped$/m);
    expect(out + io.stderr() + readFileSync(json, 'utf8') + readFileSync(junit, 'utf8')).not.toContain(DEMO_SECRET);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      seed: number;
      summary: { failed: number };
      checks: Array<{ id: string; status: string }>;
    };
    expect(report.seed).toBe(3);
    expect(report.checks.find((c) => c.id === 'SIG-BODY-COVERED')?.status).toBe('fail');
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { '@_failures': string } };
    expect(Number(parsed.testsuites['@_failures'])).toBe(report.summary.failed);
  });

  it('prints a replay line carrying the target, profile and runs (never a credential); pasted, it reproduces the failure', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    const json = join(dir, 'replay.json');
    expect(
      await cli(
        [
          'run',
          '--base-url',
          broken.url,
          '--only',
          'SIG-BODY-COVERED',
          '--runs',
          '5',
          '--seed',
          '4',
          '--symbol',
          'BTCUSDT',
          '--report-json',
          json,
        ],
        io,
      ),
    ).toBe(1);
    const line = /Replay: spotcheck (.*)$/m.exec(io.stdout())?.[1] ?? '';
    expect(line).toBe(
      `replay --seed 4 --only SIG-BODY-COVERED --base-url ${broken.url} --symbol BTCUSDT --profile core --runs 5`,
    );
    expect(line).not.toContain(DEMO_API_KEY);
    // The words a shell makes of it, run as the CLI.
    const { stdout } = await promisify(execFile)('bash', ['--norc', '-c', `printf '%s\\n' ${line}`]);
    const again = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    expect(await cli(stdout.trimEnd().split('\n'), again)).toBe(1);
    expect(again.stdout()).toMatch(/^0 passed, 1 failed, 0 info, 0 skipped$/m);
    expect(again.stderr()).not.toContain('embedded');
    // The report keeps the same arguments, and replay can take them from it.
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      replayArgs: string[];
      checks: Array<{ id: string; replay?: string }>;
    };
    expect(report.replayArgs).toEqual([
      '--base-url',
      broken.url,
      '--symbol',
      'BTCUSDT',
      '--profile',
      'core',
      '--runs',
      '5',
    ]);
    expect(report.checks.find((c) => c.id === 'SIG-BODY-COVERED')?.replay).toBe(`spotcheck ${line}`);
    const fromReport = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    expect(await cli(['replay', '--from-report', json, '--only', 'SIG-BODY-COVERED'], fromReport)).toBe(1);
    expect(fromReport.stdout()).toMatch(/^0 passed, 1 failed, 0 info, 0 skipped$/m);
  });

  it('replay refuses to guess its target: without --base-url, --config, --from-report or --embedded it is a usage error', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    expect(await cli(['replay', '--seed', '3', '--only', 'SIG-BODY-COVERED'], io)).toBe(2);
    expect(io.stderr()).toContain('name the target');
    expect(io.stderr()).not.toContain('started the embedded');
    const both = capture();
    expect(
      await cli(
        ['replay', '--seed', '3', '--only', 'AUTH-APIKEY-REQUIRED', '--embedded', '--base-url', broken.url],
        both,
      ),
    ).toBe(2);
    const embedded = capture();
    expect(
      await cli(['replay', '--seed', '3', '--only', 'AUTH-APIKEY-REQUIRED', '--embedded', '--runs', '3'], embedded),
    ).toBe(0);
    expect(embedded.stderr()).toContain('embedded reference server');
  });

  it('a failure against the embedded server replays with --embedded said out loud', async () => {
    const io = capture();
    const report = join(dir, 'embedded.json');
    await cli(['run', '--only', 'AUTH-APIKEY-REQUIRED', '--runs', '3', '--seed', '1', '--report-json', report], io);
    expect((JSON.parse(readFileSync(report, 'utf8')) as { replayArgs: string[] }).replayArgs).toEqual([
      '--embedded',
      '--profile',
      'core',
      '--runs',
      '3',
    ]);
  });

  it('--baseline: a listed failure passes the gate and is reported as baselined; a listed check that passes fails it (stale)', async () => {
    const env = { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };
    const listed = join(dir, 'baseline.json');
    writeFileSync(listed, JSON.stringify([{ id: 'SIG-BODY-COVERED', reason: 'vendor ticket 42' }]));
    const json = join(dir, 'baselined.json');
    const io = capture(env);
    const argv = [
      'run',
      '--base-url',
      broken.url,
      '--only',
      'SIG-BODY-COVERED,AUTH-APIKEY-REQUIRED',
      '--runs',
      '5',
      '--seed',
      '2',
    ];
    expect(await cli([...argv, '--baseline', listed, '--report-json', json], io)).toBe(0);
    expect(io.stdout()).toContain('(baselined: vendor ticket 42)');
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: { baselined: number; mustFailures: number };
      checks: Array<{ id: string; baseline?: { state: string } }>;
    };
    expect(report.summary).toMatchObject({ baselined: 1, mustFailures: 0 });
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.checks.find((c) => c.id === 'SIG-BODY-COVERED')?.baseline?.state).toBe('expected-failure');

    writeFileSync(
      listed,
      JSON.stringify([
        { id: 'SIG-BODY-COVERED', reason: 'vendor ticket 42' },
        { id: 'AUTH-APIKEY-REQUIRED', reason: 'fixed long ago' },
      ]),
    );
    const stale = capture(env);
    expect(await cli([...argv, '--baseline', listed], stale)).toBe(1);
    expect(stale.stdout()).toContain('Stale baseline entries');

    writeFileSync(listed, JSON.stringify([{ id: 'SIG-NO-SUCH', reason: 'typo' }]));
    const typo = capture(env);
    expect(await cli([...argv, '--baseline', listed], typo)).toBe(2);
    expect(typo.stderr()).toContain("'SIG-NO-SUCH' is no check");
  });

  it('--report-ndjson streams a start event, the evidence of each check as it ends, each final verdict once, and an end event', async () => {
    const file = join(dir, 'events.ndjson');
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    expect(
      await cli(
        [
          'run',
          '--base-url',
          broken.url,
          '--only',
          'AUTH-APIKEY,SIG-BODY-COVERED',
          '--runs',
          '5',
          '--seed',
          '2',
          '--report-ndjson',
          file,
        ],
        io,
      ),
    ).toBe(1);
    const events = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; id?: string; status?: string; summary?: { failed: number } });
    expect(events[0]?.event).toBe('start');
    expect(events.at(-1)?.event).toBe('end');
    const checks = events.filter((e) => e.event === 'check');
    const evidence = events.filter((e) => e.event === 'evidence');
    expect(checks.length + evidence.length).toBe(events.length - 2);
    // every check's evidence comes before any verdict, and each verdict once
    expect(evidence.map((e) => e.id).sort()).toEqual(checks.map((e) => e.id).sort());
    const lastEvidence = events.map((e) => e.event).lastIndexOf('evidence');
    expect(events.findIndex((e) => e.event === 'check')).toBeGreaterThan(lastEvidence);
    expect(checks.find((e) => e.id === 'SIG-BODY-COVERED')?.status).toBe('fail');
    expect(events.at(-1)?.summary?.failed).toBe(checks.filter((e) => e.status === 'fail').length);
  });

  it('checks report paths before the first request: an unwritable one is a usage error and nothing is sent', async () => {
    let requests = 0;
    const counting = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    try {
      for (const flag of ['--report-json', '--junit', '--report-ndjson']) {
        const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
        expect(await cli(['run', '--base-url', url, flag, join(file, 'sub', 'r.out')], io), flag).toBe(2);
        expect(io.stderr()).toMatch(new RegExp(`^spotcheck: ${flag}: cannot write`));
      }
      expect(requests).toBe(0);
    } finally {
      counting.close();
    }
  });

  it('takes the no-TRADE key from SPOTCHECK_NO_TRADE_* and prints its curl with that variable, never the secret; half a key is a usage error', async () => {
    const env = {
      SPOTCHECK_API_KEY: DEMO_API_KEY,
      SPOTCHECK_SECRET: DEMO_SECRET,
      SPOTCHECK_NO_TRADE_API_KEY: DEMO_READONLY_API_KEY,
      SPOTCHECK_NO_TRADE_SECRET: DEMO_READONLY_SECRET,
    };
    const faulty = await startServer({
      port: 0,
      ...(mutants.find((m) => m.name.startsWith('TRADE permission not checked'))?.options ?? {}),
    });
    try {
      const io = capture(env);
      expect(
        await cli(['run', '--base-url', faulty.url, '--only', 'AUTH-PERMISSION', '--runs', '3', '--seed', '1'], io),
      ).toBe(1);
      expect(io.stdout()).toContain('export SPOTCHECK_SECRET and SPOTCHECK_NO_TRADE_SECRET first');
      expect(io.stdout()).toContain('"$SPOTCHECK_NO_TRADE_SECRET"');
      expect(io.stdout() + io.stderr()).not.toContain(DEMO_READONLY_SECRET);
      const half = capture({ ...env, SPOTCHECK_NO_TRADE_SECRET: undefined });
      expect(await cli(['run', '--base-url', faulty.url, '--only', 'AUTH-PERMISSION'], half)).toBe(2);
      expect(half.stderr()).toContain('needs both its key and its secret');
    } finally {
      await faulty.close();
    }
  });

  it('--fail-fast stops after the first failure and says the report is partial', async () => {
    const json = join(dir, 'fast.json');
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    expect(
      await cli(
        [
          'run',
          '--base-url',
          broken.url,
          '--only',
          'SIG-BODY-COVERED,SIG-REQUIRED,SIG-QUERY',
          '--runs',
          '5',
          '--seed',
          '2',
          '--fail-fast',
          '--report-json',
          json,
        ],
        io,
      ),
    ).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      stopped?: { reason: string; notRun: number };
      checks: Array<{ status: string }>;
    };
    expect(report.stopped?.reason).toBe('fail-fast');
    expect(report.stopped?.notRun).toBeGreaterThan(0);
    expect(report.checks.filter((c) => c.status === 'fail')).toHaveLength(1);
    // every check of the run is in the report: those the stop left unrun as skipped, cause fail-fast
    const unrun = report.checks.filter((c) => c.status === 'skip' && (c as { cause?: string }).cause === 'fail-fast');
    expect(unrun).toHaveLength(report.stopped?.notRun ?? -1);
    expect(io.stdout()).toContain('PARTIAL: stopped at the first failure');
  });

  it('--exclude leaves checks out by prefix', async () => {
    const io = capture();
    expect(await cli(['run', '--list', '--only', 'SIG-BODY', '--exclude', 'SIG-BODY-COVERED.form'], io)).toBe(0);
    expect(io.stdout()).toContain('SIG-BODY-COVERED.tampered');
    expect(io.stdout()).not.toContain('SIG-BODY-COVERED.form');
    expect(await cli(['run', '--list', '--only', 'SIG-BODY', '--exclude', 'SIG'], capture())).toBe(2);
  });

  it('Ctrl-C writes the JSON, JUnit and NDJSON reports of the checks that ended, marked partial, exit 130', async () => {
    const json = join(dir, 'int.json');
    const junit = join(dir, 'int.xml');
    const events = join(dir, 'int.ndjson');
    const io = capture();
    const running = cli(
      [
        'run',
        '--embedded',
        '--only',
        'SIG',
        '--runs',
        '100',
        '--seed',
        '1',
        '--report-json',
        json,
        '--junit',
        junit,
        '--report-ndjson',
        events,
      ],
      io,
    );
    // Interrupt once the first check has ended (its evidence is streamed; verdicts come once the run decides).
    for (
      let i = 0;
      i < 600 && !(existsSync(events) && readFileSync(events, 'utf8').includes('"event":"evidence"'));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    process.emit('SIGINT');
    expect(await running).toBe(130);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      stopped?: { reason: string; notRun: number };
      checks: unknown[];
      summary: { passed: number };
    };
    expect(report.stopped?.reason).toBe('interrupted');
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.checks.length).toBeGreaterThan(0);
    expect(report.stopped?.notRun).toBeGreaterThan(0);
    // the checks not run are listed too, skipped with their cause: every report holds every check
    expect(
      report.checks.filter((c) => (c as { status?: string; cause?: string }).cause === 'interrupted'),
    ).toHaveLength(report.stopped?.notRun ?? -1);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    // a partial run is never green in CI: one failed case says so, the suites' properties say why
    expect(xml).toContain('<property name="spotcheck.partial" value="true"/>');
    expect(xml).toContain('<property name="spotcheck.signal" value="SIGINT"/>');
    expect(xml).toMatch(/name="the run ran to its end"[^>]*>\s*<failure message="PARTIAL: stopped by SIGINT/);
    const last = JSON.parse(readFileSync(events, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as {
      event: string;
      stopped?: { reason: string };
    };
    expect(last).toMatchObject({ event: 'end', stopped: { reason: 'interrupted' } });
    expect(io.stdout()).toContain('PARTIAL: stopped by SIGINT (Ctrl-C)');
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('replays one check with the same seed', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
    const code = await cli(
      ['replay', '--base-url', broken.url, '--seed', '3', '--only', 'SIG-BODY-COVERED', '--runs', '10'],
      io,
    );
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

  it('a run stopped for missing credentials (exit 2, a usage error) leaves no report file: no NDJSON, as no JSON or JUnit, and no earlier one', async () => {
    const events = join(dir, 'no-credentials.ndjson');
    const json = join(dir, 'no-credentials.json');
    // a file of an earlier run at that path must not pass for this one's
    writeFileSync(events, '{"event":"start"}\n{"event":"end"}\n');
    for (const env of [{}, { SPOTCHECK_API_KEY: 'k' }]) {
      const io = capture(env);
      const argv = ['run', '--base-url', broken.url, '--report-ndjson', events, '--report-json', json];
      expect(await cli(argv, io)).toBe(2);
      expect(io.stderr()).toMatch(/a target needs credentials/);
      expect({ ndjson: existsSync(events), json: existsSync(json) }).toEqual({ ndjson: false, json: false });
    }
  });

  it('exits 2 when the target cannot be reached', async () => {
    const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
    expect(await cli(['run', '--base-url', 'http://127.0.0.1:9', '--timeout', '1000'], io)).toBe(2);
    expect(io.stderr()).toContain('could not reach');
  });

  it('exits 2 within 15 s when the secret is wrong, saying so, with no check run', async () => {
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: 'not-the-secret' });
    const t0 = Date.now();
    expect(await cli(['run', '--base-url', broken.url, '--runs', '5'], io)).toBe(2);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(io.stderr()).toMatch(/no valid request was accepted anywhere[\s\S]*the secret is wrong/);
    expect(io.stdout()).not.toMatch(/passed/);
    expect(io.stderr() + io.stdout()).not.toContain('not-the-secret');
  });

  it('a run stopped in discovery still writes every report: JSON saying why, JUnit with one failed discovery case, NDJSON start and end, HTML saying it stopped', async () => {
    const json = join(dir, 'disc.json');
    const junit = join(dir, 'disc.xml');
    const events = join(dir, 'disc.ndjson');
    const html = join(dir, 'disc.html');
    const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: 'not-the-secret' });
    expect(
      await cli(
        [
          'run',
          '--base-url',
          broken.url,
          '--runs',
          '5',
          '--seed',
          '8',
          '--report-json',
          json,
          '--junit',
          junit,
          '--report-ndjson',
          events,
          '--report-html',
          html,
        ],
        io,
      ),
    ).toBe(2);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      stopped?: { reason: string; message?: string; notRun: number };
      checks: unknown[];
      discovery?: unknown;
      seed: number;
    };
    expect(reportSchema()(report), JSON.stringify(reportSchema().errors)).toBe(true);
    expect(report.stopped?.reason).toBe('discovery');
    expect(report.stopped?.message).toMatch(/the secret is wrong/);
    expect(report.stopped?.notRun).toBeGreaterThan(50);
    expect(report.discovery).toBeDefined();
    expect(report.checks).toEqual([]);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const suites = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      testsuites: {
        '@_tests': string;
        '@_failures': string;
        testsuite: { testcase: { '@_name': string; failure: { '#text': string } } };
      };
    };
    expect(suites.testsuites).toMatchObject({ '@_tests': '1', '@_failures': '1' });
    expect(suites.testsuites.testsuite.testcase['@_name']).toBe('discovery');
    expect(suites.testsuites.testsuite.testcase.failure['#text']).toMatch(/the secret is wrong/);
    const lines = readFileSync(events, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; stopped?: { reason: string } });
    expect(lines.map((e) => e.event)).toEqual(['start', 'end']);
    expect(lines[1]?.stopped?.reason).toBe('discovery');
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/<div class="verdict fail">STOPPED before the checks: [^<]*the secret is wrong/);
    expect(xml + readFileSync(json, 'utf8') + readFileSync(events, 'utf8') + page).not.toContain('not-the-secret');
  });

  it('an unreachable target writes its reports too (stopped: unreachable, one failed discovery case)', async () => {
    const json = join(dir, 'unreach.json');
    const junit = join(dir, 'unreach.xml');
    const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
    expect(
      await cli(
        ['run', '--base-url', 'http://127.0.0.1:9', '--timeout', '1000', '--report-json', json, '--junit', junit],
        io,
      ),
    ).toBe(2);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { stopped?: { reason: string } };
    expect(reportSchema()(report), JSON.stringify(reportSchema().errors)).toBe(true);
    expect(report.stopped?.reason).toBe('unreachable');
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="spotcheck.discovery" name="discovery"[^>]*>\s*<failure /,
    );
  });

  it('Ctrl-C during discovery leaves valid reports holding every check as not run (HTML too), and NDJSON its end event', async () => {
    // a target that answers slowly: the run is still measuring the clock / in discovery when interrupted
    const slow = createServer((_req, res) => setTimeout(() => res.end('{}'), 300));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const json = join(dir, 'int-disc.json');
    const junit = join(dir, 'int-disc.xml');
    const events = join(dir, 'int-disc.ndjson');
    const html = join(dir, 'int-disc.html');
    try {
      const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
      const running = cli(
        [
          'run',
          '--base-url',
          url,
          '--report-json',
          json,
          '--junit',
          junit,
          '--report-ndjson',
          events,
          '--report-html',
          html,
        ],
        io,
      );
      for (let i = 0; i < 100 && !(existsSync(events) && readFileSync(events, 'utf8').includes('"event":"start"')); i++)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 500));
      process.emit('SIGINT');
      expect(await running).toBe(130);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { stopped?: { reason: string }; checks: unknown[] };
      expect(reportSchema()(report), JSON.stringify(reportSchema().errors)).toBe(true);
      expect(report).toMatchObject({ stopped: { reason: 'interrupted', signal: 'SIGINT' } });
      const checks = report.checks as Array<{ status: string; cause?: string }>;
      expect(checks.length).toBeGreaterThan(100);
      expect(checks.every((c) => c.status === 'skip' && c.cause === 'interrupted')).toBe(true);
      expect(XMLValidator.validate(readFileSync(junit, 'utf8'))).toBe(true);
      const last = JSON.parse(readFileSync(events, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as { event: string };
      expect(last).toMatchObject({ event: 'end', stopped: { reason: 'interrupted' } });
      expect(readFileSync(html, 'utf8')).toMatch(
        /<div class="verdict partial">PARTIAL: stopped by SIGINT: \d+ checks not run/,
      );
      expect(process.listenerCount('SIGINT')).toBe(0);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('a report path that cannot be made is a usage error with the fix, within a second (no spinning on /proc)', async () => {
    for (const flag of ['--report-json', '--junit', '--report-ndjson']) {
      const io = capture();
      const t0 = Date.now();
      expect(await cli(['run', '--embedded', flag, '/proc/nope/x.out'], io), flag).toBe(2);
      expect(Date.now() - t0, flag).toBeLessThan(1000);
      expect(io.stderr()).toMatch(
        new RegExp(
          `^spotcheck: ${flag}: cannot write /proc/nope/x.out: E[A-Z]+.*; give a path in a folder you can write`,
        ),
      );
    }
  });

  it('an --exclude (or --only) prefix that matches no check is a usage error naming it', async () => {
    for (const argv of [
      ['--exclude', 'NOPE'],
      ['--exclude', 'SIG,NOPE'],
      ['--only', 'SIG,NOPE'],
    ]) {
      const io = capture();
      expect(await cli(['run', '--list', ...argv], io), argv.join(' ')).toBe(2);
      expect(io.stderr()).toMatch(
        /^spotcheck: --(exclude|only) NOPE: no check ID or rule ID starts with it; run with --list/,
      );
    }
  });

  it('a --time-path that does not answer {"serverTime"} is an error with the fix, not a silent fall-back to the Date header', async () => {
    const server = await startServer({ port: 0 });
    try {
      const io = capture({ SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET });
      const t0 = Date.now();
      expect(await cli(['run', '--base-url', server.url, '--time-path', '/nope', '--only', 'AUTH-APIKEY'], io)).toBe(2);
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(io.stderr()).toMatch(
        /the time path \/nope .* did not answer \{"serverTime": ms\}: got HTTP 404.*leave --time-path out/,
      );
    } finally {
      await server.close();
    }
  });

  it('--list shows the level of each check', async () => {
    const io = capture();
    expect(await cli(['run', '--list', '--only', 'SIG-BODY-COVERED,TIME-WINDOW-LEAD'], io)).toBe(0);
    expect(io.stdout()).toMatch(/^SIG-BODY-COVERED +MUST +\[SIG-BODY-COVERED\]/m);
    expect(io.stdout()).toMatch(/^\S+ +(MUST|SHOULD|INFO) +\[TIME-WINDOW-LEAD\]/m);
  });

  it('progress lines without a terminal only count up', async () => {
    const io = capture();
    expect(await cli(['run', '--only', 'AUTH,SIG-CASE', '--runs', '3'], io)).toBe(0);
    const done = [...io.stderr().matchAll(/^progress: (\d+)\/(\d+) checks done/gm)].map((m) => Number(m[1]));
    expect(done.length).toBeGreaterThan(1);
    for (let i = 1; i < done.length; i++) expect(done[i]).toBeGreaterThan(done[i - 1] as number);
  });

  it('rule links: the --docs-url site, else a file shipped with the kit, saying which', () => {
    expect(ruleLinker('https://docs.example.test/spotcheck/')('SIG-CASE')).toBe(
      'https://docs.example.test/spotcheck/documents/Rule_catalog.html#SIG-CASE',
    );
    const local = ruleLinker(undefined)('SIG-CASE');
    expect(local).toMatch(
      /^(file:\/\/\S+#SIG-CASE \(the docs site built in this clone|SIG-CASE in file:\/\/\S+\/spec\/rules\.json \(the rule catalog shipped with the kit)/,
    );
    expect(existsSync(fileURLToPath(/file:\/\/[^\s#]+/.exec(local)?.[0] ?? ''))).toBe(true);
  });

  it('knows loopback hosts', () => {
    expect(isLoopback(new URL('http://127.0.0.1:1'))).toBe(true);
    expect(isLoopback(new URL('http://[::1]:1'))).toBe(true);
    expect(isLoopback(new URL('http://localhost'))).toBe(true);
    expect(isLoopback(new URL('https://api.example.test'))).toBe(false);
    expect(isLoopback(new URL('http://[::ffff:127.0.0.1]:1'))).toBe(true);
    expect(isLoopback(new URL('http://[::ffff:10.0.0.1]:1'))).toBe(false);
    // an address of this machine on another interface is not loopback, and is called that
    for (const addr of Object.values(networkInterfaces()).flatMap((l) => l ?? [])) {
      if (addr.internal) continue;
      const url = new URL(`http://${addr.family === 'IPv6' ? `[${addr.address.split('%')[0]}]` : addr.address}:8080`);
      expect(isLoopback(url), addr.address).toBe(false);
    }
    const w = notLoopbackWarning('192.168.1.20:8080', 'spotcheck will send real signed orders.');
    expect(w).toBe('WARNING: 192.168.1.20:8080 is not a loopback address. spotcheck will send real signed orders.\n');
    expect(w).not.toMatch(/this machine/);
  });
});
