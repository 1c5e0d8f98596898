import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { sendRaw } from '../../src/client/http.js';
import { buildRequest } from '../../src/core/request.js';
import { startServer } from '../../src/server/server.js';
import { sign } from '../../src/signing/hmac.js';
import { API_KEY_HEADER, ENDPOINTS, SEED_WIRE, wireWith, type WireProfile } from '../../src/core/wire.js';
import { writeFileSync } from 'node:fs';
import { conformanceCommands } from '../cli/commands.js';
import { secretSpellings } from '../report/secret-spellings.js';
import { gradeCommand } from './command.js';
import type { GradeReport } from './report.js';
import { SCENARIOS } from './scenarios.js';

const KEY = 'cmd-key';
const SECRET = 'cmd-secret-a1b2c3d4';

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);
const schema = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(new URL('./grade.schema.json', import.meta.url), 'utf8')) as object,
);

/** Run `grade` with `argv`, drive it once it listens, then stop it as SIGINT would. */
async function runGrade(argv: string[], drive: (url: string) => Promise<void>, env: NodeJS.ProcessEnv = {}) {
  const io = capture(env);
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((r) => {
    stop = r;
  });
  const done = gradeCommand(argv, io, () => stopped);
  for (let i = 0; i < 3000 && !io.stdout().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
  const url = /listening on (\S+)/.exec(io.stdout())?.[1] ?? '';
  await drive(url);
  stop('SIGINT');
  return { code: await done, io };
}

const order = (id: string, ts = Date.now()): Array<[string, string]> => [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '1'],
  ['price', '100'],
  ['newClientOrderId', id],
  ['timestamp', String(ts)],
];

async function send(url: string, id: string, defects = {}, wire: WireProfile = SEED_WIRE): Promise<number> {
  const b = buildRequest(
    sign,
    {
      endpoint: 'v1',
      params: order(id),
      placement: 'split',
      secret: SECRET,
      apiKey: KEY,
      defects,
    },
    wire,
  );
  return (await sendRaw(url, b.request)).status;
}

describe('spotcheck grade (command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-grade-'));

  it('prints its help and the scenario list, exit 0', async () => {
    const io = capture();
    expect(await cli(['grade', '--help'], io)).toBe(0);
    for (const flag of [
      '--port',
      '--api-key',
      '--secret',
      '--upstream',
      '--duration',
      '--report-json',
      '--report-html',
      '--junit',
      '--scenarios',
    ])
      expect(io.stdout()).toContain(flag);
    const list = capture();
    expect(await cli(['grade', '--scenarios'], list)).toBe(0);
    for (const s of SCENARIOS) expect(list.stdout()).toContain(s.name);
    expect(list.stdout()).toContain('X-Spotcheck-Scenario');
  });

  it("grades and shows the wire of a target description: its path prefix and API-key header, never the seed's", async () => {
    const config = join(dir, 'gw.target.jsonc');
    writeFileSync(config, '{\n  // a gateway\n  "pathPrefix": "/gw",\n}\n');
    const wire = wireWith('X-Gw-Key', {
      batch: `/gw${ENDPOINTS.batch.path}`,
      v1: `/gw${ENDPOINTS.v1.path}`,
      'v1.1': `/gw${ENDPOINTS['v1.1'].path}`,
    });
    const files = { json: join(dir, 'gw.json'), junit: join(dir, 'gw.xml'), html: join(dir, 'gw.html') };
    // the file gives the prefix, the flag the header
    const flags = ['--config', config, '--api-key-header', 'X-Gw-Key'];
    const { code, io } = await runGrade(
      [...flags, '--report-json', files.json, '--junit', files.junit, '--report-html', files.html],
      async (url) => {
        expect(await send(url, 'gw-good-1', {}, wire)).toBe(200);
        expect(await send(url, 'gw-bad-1', { signedString: (_tp: string, q: string) => q }, wire)).toBe(401);
        // the seed's path and header are not this deployment's: not graded
        expect(await send(url, 'seed-1')).toBe(404);
      },
      { SPOTCHECK_API_KEY: KEY, SPOTCHECK_SECRET: SECRET },
    );
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as GradeReport;
    expect(schema(report), JSON.stringify(schema.errors)).toBe(true);
    expect(report.server).toMatchObject({
      apiKeyHeader: 'X-Gw-Key',
      paths: { batch: wire.endpoints.batch.path, v1: wire.endpoints.v1.path, 'v1.1': wire.endpoints['v1.1'].path },
    });
    expect(report.summary).toMatchObject({ requests: 2, ungraded: 1 });
    expect(report.rules.find((r) => r.id === 'CLIENT-APIKEY-HEADER')).toMatchObject({
      status: 'kept',
      requirement: 'Every signed request carries the X-Gw-Key header with the issued API key.',
    });
    const bad = report.requests.find((q) => q.key === 'gw-bad-1');
    expect(bad?.correctedCurl).toContain("-H 'X-Gw-Key: cmd-key'");
    expect(bad?.correctedCurl).toContain(`${wire.endpoints.v1.path}?`);
    expect(report.scenarios.find((x) => x.name === 'batch-20')?.send).toBe(
      `one batch of 20 orders for one symbol to ${wire.endpoints.batch.path}`,
    );
    expect(io.stdout()).toContain(`grading: API-key header X-Gw-Key; ${wire.endpoints.batch.path}, `);
    expect(io.stdout()).toContain(`served: API-key header X-Gw-Key; ${wire.endpoints.batch.path}`);
    // no output names the seed's header or an unprefixed path
    const seedPath = new RegExp(`(^|[^w])${ENDPOINTS.v1.path.replace(/\./g, '\\.')}|${ENDPOINTS.batch.path}`);
    for (const [what, text] of [
      ['console', io.stdout()],
      ['JSON', JSON.stringify({ ...report, requests: report.requests.filter((q) => q.key !== 'seed-1') })],
      ['HTML', readFileSync(files.html, 'utf8')],
      ['JUnit', readFileSync(files.junit, 'utf8')],
    ] as const) {
      expect(text.includes(API_KEY_HEADER), `${what} names ${API_KEY_HEADER}`).toBe(false);
      expect(
        text
          .replaceAll(wire.endpoints.batch.path, '')
          .replaceAll(wire.endpoints.v1.path, '')
          .replaceAll(wire.endpoints['v1.1'].path, ''),
        what,
      ).not.toMatch(seedPath);
    }
    // --scenarios lists the description's paths too
    const list = capture();
    expect(await cli(['grade', '--scenarios', ...flags], list)).toBe(0);
    expect(list.stdout()).toContain(`to ${wire.endpoints.v1.path} or ${wire.endpoints['v1.1'].path}`);
    expect(list.stdout()).not.toContain(`to ${ENDPOINTS.v1.path}`);
  });

  it.each([
    [['--duration', 'soon']],
    [['--upstream', 'ftp://example.test']],
    [['--api-key', 'only-a-key']],
    [['--port', '99999']],
    [['--recv-window-cap', '5s']],
    [['--bogus']],
  ])('refuses %j as a usage error: exit 2, one line, no stack', async (argv) => {
    const io = capture();
    expect(await cli(['grade', ...argv], io)).toBe(2);
    expect(io.stderr()).toMatch(/^spotcheck: grade: /);
    expect(io.stderr()).not.toMatch(/\n\s+at /);
  });

  it('grades what arrives and writes the JSON (valid by its schema), JUnit and HTML reports; exit 1 on a broken rule', async () => {
    const files = { json: join(dir, 'g.json'), junit: join(dir, 'g.xml'), html: join(dir, 'g.html') };
    const { code, io } = await runGrade(
      ['--report-json', files.json, '--junit', files.junit, '--report-html', files.html],
      async (url) => {
        expect(await send(url, 'good-1')).toBe(200);
        expect(await send(url, 'bad-1', { signedString: (_tp: string, q: string) => q })).toBe(401);
      },
      { SPOTCHECK_API_KEY: KEY, SPOTCHECK_SECRET: SECRET },
    );
    expect(code).toBe(1);
    expect(io.stdout()).toContain('BROKEN on 1 of 2');
    expect(io.stderr()).toContain('#2 bad-1 POST /api/v1/spot/order: BROKEN CLIENT-SIGNATURE');
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as GradeReport;
    expect(schema(report), JSON.stringify(schema.errors)).toBe(true);
    expect(report.verdict).toBe('broken');
    const bad = report.requests.find((q) => q.key === 'bad-1');
    expect(bad?.broken[0]?.diagnosis?.code).toBe('BODY_NOT_SIGNED');
    expect(bad?.broken[0]?.diagnosis?.fix).toContain('Sign the query string directly followed by the body');
    expect(bad?.correctedCurl).toContain('"$SPOTCHECK_SECRET"');
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(files.junit, 'utf8')) as {
      testsuites: { '@_failures': string };
    };
    expect(junit.testsuites['@_failures']).toBe('1');
    const html = readFileSync(files.html, 'utf8');
    expect(html).toContain('id="req-2"');
    expect(html).toContain('BODY_NOT_SIGNED');
    for (const f of Object.values(files))
      for (const spelling of secretSpellings(SECRET)) expect(readFileSync(f, 'utf8')).not.toContain(spelling);
  });

  it('forwards to --upstream unchanged and passes a clean client, exit 0', async () => {
    const up = await startServer({ credentials: [{ apiKey: KEY, secret: SECRET, permissions: ['TRADE'] }] });
    try {
      const { code, io } = await runGrade(['--upstream', up.url, '--api-key', KEY, '--secret', SECRET], async (url) => {
        expect(await send(url, 'up-1')).toBe(200);
        expect(await send(url, 'up-2')).toBe(200);
      });
      expect(code).toBe(0);
      expect(io.stdout()).toContain(`answered by ${up.url}`);
      expect(up.orders.list().map((o) => o.clientOrderId)).toEqual(['up-1', 'up-2']);
    } finally {
      await up.close();
    }
  });

  it('says so when the port is taken: exit 2, no stack', async () => {
    const taken = await startServer();
    try {
      const io = capture();
      expect(await cli(['grade', '--port', String(taken.port)], io)).toBe(2);
      expect(io.stderr()).toMatch(/^spotcheck: could not listen on 127\.0\.0\.1:\d+: EADDRINUSE\n$/);
    } finally {
      await taken.close();
    }
  });

  it('ends after --duration; with nothing graded it says so and exits 1', async () => {
    const io = capture();
    expect(await gradeCommand(['--duration', '0.2'], io, () => new Promise(() => undefined))).toBe(1);
    expect(io.stdout()).toContain('NOTHING GRADED');
    expect(io.stderr()).toContain('--duration 0.2 s: stopping');
  });
});
