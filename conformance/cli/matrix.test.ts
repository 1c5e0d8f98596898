import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import { verify } from '../../src/signing/hmac.js';
import { checkTimeWindow } from '../../src/core/time.js';
import { defaultPolicy } from '../../src/server/policy.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import type { MatrixData } from '../report/matrix.js';
import type { RunReport } from '../judgement/types.js';
import { secretSpellings } from '../report/secret-spellings.js';
import { startAcceptAll } from '../../harness/accept-all.js';
import { conformanceCommands } from './commands.js';
import { fileStems, matrixExit, parseTargets, targetEnv } from './matrix.js';

function capture(env: NodeJS.ProcessEnv = {}): Io & { text: () => string } {
  let all = '';
  return { out: (s) => void (all += s), err: (s) => void (all += s), env, text: () => all };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);

describe('parseTargets', () => {
  it('reads JSONC targets with their defaults and resolves a config path from the file', () => {
    const t = parseTargets(
      '[ // two venues\n{"name": "a", "baseUrl": "http://x"}, {"name": "b", "config": "b.jsonc", "apiKeyEnv": "B_KEY", "secretEnv": "B_SECRET"}]',
      't.jsonc',
      '/etc/targets',
    );
    expect(t).toEqual([
      { name: 'a', baseUrl: 'http://x', apiKeyEnv: 'SPOTCHECK_API_KEY', secretEnv: 'SPOTCHECK_SECRET' },
      { name: 'b', config: '/etc/targets/b.jsonc', apiKeyEnv: 'B_KEY', secretEnv: 'B_SECRET' },
    ]);
  });
  it('refuses a credential in the file, unknown keys, missing or doubled names and targets', () => {
    const bad = (text: string) => () => parseTargets(text, 't.json', '/');
    expect(bad('[{"name": "a", "baseUrl": "http://x", "secret": "s"}]')).toThrow(
      /credentials never go in the targets file/,
    );
    expect(bad('[{"name": "a", "baseUrl": "http://x", "apiKey": "k"}]')).toThrow(/'apiKey'/);
    expect(bad('[{"name": "a", "baseUrl": "http://x", "secretEnv": "not a name!"}]')).toThrow(
      /must name an environment variable/,
    );
    expect(bad('[{"name": "a", "baseUrl": "http://x", "colour": 1}]')).toThrow(/unknown key "colour"/);
    expect(bad('[{"name": "a", "baseUrl": "http://x", "secretEnvv": "S"}]')).toThrow(
      /unknown key "secretEnvv": did you mean "secretEnv"\?/,
    );
    expect(bad('[{"name": "a", "baseUrl": "http://x",}, // trailing comma\n]')).not.toThrow();
    expect(bad('[\n{"name": "a" "baseUrl": "http://x"}]')).toThrow(/t\.json:2:14: a comma expected/);
    expect(bad('[{"baseUrl": "http://x"}]')).toThrow(/has no "name"/);
    expect(bad('[{"name": "a", "baseUrl": "http://x"}, {"name": "a", "embedded": true}]')).toThrow(/used twice/);
    expect(bad('[{"name": "a"}]')).toThrow(/exactly one of/);
    expect(bad('[{"name": "a", "baseUrl": "http://x", "config": "c"}]')).toThrow(/exactly one of/);
    expect(bad('[]')).toThrow(/non-empty array/);
    expect(bad('{')).toThrow(/not JSON/);
  });
});

describe('matrix helpers', () => {
  it('gives each target a file stem of its own and each run its own credentials only', () => {
    expect(fileStems(['Venue A', 'venue-a', 'matrix', '***'])).toEqual(['venue-a', 'venue-a-2', 'matrix-2', 'target']);
    const env = targetEnv(
      { name: 'b', apiKeyEnv: 'B_KEY', secretEnv: 'B_SECRET' },
      { B_KEY: 'k', B_SECRET: 's', SPOTCHECK_API_KEY: 'other', SPOTCHECK_NO_TRADE_API_KEY: 'n', PATH: '/bin' },
    );
    expect(env).toEqual({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's', PATH: '/bin', B_KEY: 'k', B_SECRET: 's' });
    expect([matrixExit([0, 0]), matrixExit([0, 1]), matrixExit([1, 2, 0]), matrixExit([130, 2])]).toEqual([
      0, 1, 2, 130,
    ]);
  });
});

describe('spotcheck matrix over three targets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-matrix-'));
  const out = join(dir, 'out');
  const cleanCred = {
    apiKey: `ka-${randomBytes(4).toString('hex')}`,
    secret: `clean-${randomBytes(12).toString('hex')}`,
  };
  const faultyCred = {
    apiKey: `kb-${randomBytes(4).toString('hex')}`,
    secret: `faulty-${randomBytes(12).toString('hex')}`,
  };
  let clean: RunningServer;
  let faulty: RunningServer;
  beforeAll(async () => {
    clean = await startServer({ port: 0, credentials: [{ ...cleanCred, permissions: ['TRADE'] }] });
    faulty = await startServer({
      port: 0,
      credentials: [{ ...faultyCred, permissions: ['TRADE'] }],
      policy: {
        checkTime: (i) =>
          i.timestamp >= i.serverTime && i.timestamp < i.serverTime + 3000
            ? { accepted: true, age: i.serverTime - i.timestamp, recvWindow: i.recvWindow ?? 5000 }
            : checkTimeWindow(i),
        verifySignature: (s, steps, sig) =>
          defaultPolicy.verifySignature(s, steps, sig) ||
          (steps.body.startsWith('[') && verify(s, steps.queryWithoutSignature, sig)),
      },
    });
  });
  afterAll(async () => {
    await clean.close();
    await faulty.close();
  });

  it('runs each target with its own credentials, writes their reports and a matrix whose every link resolves, and exits 1', async () => {
    const file = join(dir, 'targets.jsonc');
    writeFileSync(
      file,
      `[
  // the built-in reference server, and two servers with credentials of their own
  { "name": "reference", "embedded": true },
  { "name": "clean", "baseUrl": "${clean.url}", "apiKeyEnv": "CLEAN_KEY", "secretEnv": "CLEAN_SECRET" },
  { "name": "faulty", "baseUrl": "${faulty.url}", "apiKeyEnv": "FAULTY_KEY", "secretEnv": "FAULTY_SECRET" }
]`,
    );
    const io = capture({
      CLEAN_KEY: cleanCred.apiKey,
      CLEAN_SECRET: cleanCred.secret,
      FAULTY_KEY: faultyCred.apiKey,
      FAULTY_SECRET: faultyCred.secret,
    });
    const code = await cli(
      [
        'matrix',
        file,
        '--out',
        out,
        '--jobs',
        '3',
        '--runs',
        '5',
        '--seed',
        '5',
        '--only',
        'SIG-BODY,SIG-REQUIRED,TIME-WINDOW-LEAD,AUTH-APIKEY',
      ],
      io,
    );
    expect(code, io.text()).toBe(1);
    const m = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as MatrixData;
    expect(m.targets.map((t) => [t.name, t.exitCode])).toEqual([
      ['reference', 0],
      ['clean', 0],
      ['faulty', 1],
    ]);
    const cell = (target: string, rule: string) => m.cells.find((c) => c.target === target && c.rule === rule)?.status;
    // a time-window check may be skipped on a loaded machine, when the clock's measured uncertainty leaves
    // no room for its probe: its own report says so (a skip, never a verdict that moved with the load)
    const skippedForClock = (target: string) =>
      (JSON.parse(readFileSync(join(out, `${target}.json`), 'utf8')) as RunReport).checks.some(
        (c) =>
          c.ruleId === 'TIME-WINDOW-LEAD' &&
          c.status === 'skip' &&
          /clock uncertainty .* too large/.test(c.reason ?? ''),
      );
    for (const rule of ['SIG-BODY-COVERED', 'TIME-WINDOW-LEAD']) {
      expect(cell('faulty', rule)).toBe('fail');
      for (const target of ['clean', 'reference'])
        expect(cell(target, rule), target).toBe(
          rule === 'TIME-WINDOW-LEAD' && cell(target, rule) === 'skip' && skippedForClock(target) ? 'skip' : 'pass',
        );
    }
    expect(cell('faulty', 'SIG-REQUIRED')).toBe('pass');
    // every link of matrix.html points at a file in the folder and, with a fragment, at an id in it
    const html = readFileSync(join(out, 'matrix.html'), 'utf8');
    const links = [...html.matchAll(/\shref="([^"]+)"/g)].map((x) => (x[1] ?? '').replace(/&amp;/g, '&'));
    expect(links.filter((l) => l.includes('#rule-')).length).toBe(m.cells.filter((c) => c.check !== undefined).length);
    for (const link of links) {
      const [path, frag] = link.split('#') as [string, string | undefined];
      expect(existsSync(join(out, path)), link).toBe(true);
      if (frag !== undefined) expect(readFileSync(join(out, path), 'utf8'), link).toContain(`id="${frag}"`);
    }
    // no spelling of either secret in any file written or in the output
    const written =
      readdirSync(out)
        .map((f) => readFileSync(join(out, f), 'utf8'))
        .join('\n') + io.text();
    for (const s of [...secretSpellings(cleanCred.secret), ...secretSpellings(faultyCred.secret)])
      expect(written.includes(s), s).toBe(false);

    // the same matrix from the JSON reports
    const again = join(dir, 'again');
    const io2 = capture();
    expect(
      await cli(
        [
          'matrix',
          '--from-reports',
          join(out, 'reference.json'),
          join(out, 'clean.json'),
          join(out, 'faulty.json'),
          '--out',
          again,
        ],
        io2,
      ),
    ).toBe(1);
    const m2 = JSON.parse(readFileSync(join(again, 'matrix.json'), 'utf8')) as MatrixData;
    expect(m2.cells).toEqual(m.cells);
    expect(existsSync(join(again, 'faulty.html'))).toBe(true);
  });

  it('reports a target it cannot run (no credentials) in the matrix with exit 2, and usage errors plainly', async () => {
    const file = join(dir, 'nocred.json');
    writeFileSync(
      file,
      JSON.stringify([{ name: 'nocred', baseUrl: clean.url, apiKeyEnv: 'UNSET_KEY', secretEnv: 'UNSET_SECRET' }]),
    );
    const io = capture({});
    expect(await cli(['matrix', file, '--out', join(dir, 'nocred')], io)).toBe(2);
    const m = JSON.parse(readFileSync(join(dir, 'nocred', 'matrix.json'), 'utf8')) as MatrixData;
    expect(m.targets[0]?.error).toMatch(/credentials/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'x', baseUrl: clean.url, secret: 'oops' }]));
    const io2 = capture();
    expect(await cli(['matrix', bad, '--out', join(dir, 'bad')], io2)).toBe(2);
    expect(io2.text()).toMatch(/credentials never go in the targets file/);
    expect(io2.text()).not.toMatch(/\n\s+at /);
    // a folder that cannot be made fails at once (a recursive mkdir under /proc spins on Node 20)
    const io5 = capture();
    expect(await cli(['matrix', file, '--out', '/proc/nope/m'], io5)).toBe(2);
    expect(io5.text()).toMatch(/^spotcheck: --out: cannot create or write the folder \/proc\/nope\/m: E[A-Z]+/);
    const io3 = capture();
    expect(await cli(['matrix', file], io3)).toBe(2);
    expect(io3.text()).toMatch(/--out DIR is required/);
    const io4 = capture();
    expect(await cli(['matrix', '--help'], io4)).toBe(0);
    expect(io4.text()).toContain('Usage: spotcheck matrix FILE --out DIR');
  });
});

/** Each target's run gets the whole reservation of `run`: a server accepting everything places at most --max-orders. */
describe('spotcheck matrix --max-orders against accept-all servers', () => {
  it('two targets run at once at concurrency 64: each places at most the cap; with 0 neither places any and the matrix exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotcheck-matrix-cap-'));
    for (const cap of [7, 0]) {
      const servers = [await startAcceptAll(), await startAcceptAll()];
      try {
        const file = join(dir, 'targets.json');
        writeFileSync(file, JSON.stringify(servers.map((s, i) => ({ name: `t${i}`, baseUrl: s.url }))));
        const io = capture({ SPOTCHECK_API_KEY: 'k', SPOTCHECK_SECRET: 's' });
        const code = await cli(
          [
            ...['matrix', file, '--out', join(dir, `out${cap}`), '--jobs', '2', '--concurrency', '64'],
            ...['--max-orders', String(cap), '--runs', '2', '--seed', '5'],
          ],
          io,
        );
        for (const s of servers) expect(s.placed(), io.text()).toBeLessThanOrEqual(cap);
        if (cap > 0) expect(servers.every((s) => s.placed() > 0)).toBe(true);
        else {
          expect(code).toBe(2);
          expect(readFileSync(join(dir, 'out0', 't0.txt'), 'utf8')).toContain(
            '--max-orders 0: no request that could place an order was sent',
          );
        }
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    }
  });
});

describe('spotcheck matrix --from-reports', () => {
  it('gives a run that --max-orders left without MUST checks the exit of run, 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotcheck-matrix-cut-'));
    const json = join(dir, 'zero.json');
    expect(
      await cli(['run', '--max-orders', '0', '--runs', '2', '--seed', '5', '--report-json', json], capture()),
    ).toBe(2);
    expect(await cli(['matrix', '--from-reports', json, '--out', join(dir, 'm')], capture())).toBe(2);
  });
});
