/**
 * An HTTPS target with a self-signed certificate (generated here with openssl), as a
 * loopback TLS front to the reference server: refused with the way to trust it named,
 * then checked with `--ca FILE`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { selfSignedCertificate } from '../../harness/testing/tls-front.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { conformanceCommands } from './commands.js';
import { tlsAdvice } from './tls.js';

function capture(env: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => void (out += s), err: (s) => void (err += s), env, stdout: () => out, stderr: () => err };
}
const cli = (argv: string[], io: Io) => main(argv, io, conformanceCommands);

describe('HTTPS target with a self-signed certificate', () => {
  // the same certificate the HTTP/2 front uses (made at test time with openssl), and its folder for the target files
  const { cert, key } = selfSignedCertificate();
  const dir = dirname(cert);
  let server: RunningServer;
  let front: Server;
  let url: string;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
    // a TLS front passing the bytes to the reference server
    front = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (tls) => {
      const plain = connect(server.port, '127.0.0.1');
      tls.pipe(plain).pipe(tls);
      tls.on('error', () => plain.destroy());
      plain.on('error', () => tls.destroy());
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    front.close();
    await server.close();
  });
  const env = { SPOTCHECK_API_KEY: DEMO_API_KEY, SPOTCHECK_SECRET: DEMO_SECRET };

  it('untrusted: exit 2 naming the certificate failure and both ways to trust it', async () => {
    const io = capture(env);
    expect(await cli(['run', '--base-url', url, '--only', 'AUTH-APIKEY', '--runs', '2'], io)).toBe(2);
    expect(io.stderr()).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect(io.stderr()).toMatch(/--ca FILE/);
    expect(io.stderr()).toMatch(/NODE_EXTRA_CA_CERTS=FILE/);
    expect(io.stderr()).not.toMatch(/\n\s+at /);
  });

  it('--ca FILE: the same target is checked and passes; the replay line carries --ca', async () => {
    const io = capture(env);
    const json = join(dir, 'r.json');
    expect(
      await cli(
        [
          'run',
          '--base-url',
          url,
          '--ca',
          cert,
          '--only',
          'AUTH-APIKEY,SIG-CASE',
          '--runs',
          '2',
          '--report-json',
          json,
        ],
        io,
      ),
      io.stderr(),
    ).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { summary: { passed: number }; replayArgs: string[] };
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.replayArgs).toEqual(expect.arrayContaining(['--ca', cert]));
  });

  it('"ca" in the target file (relative to it) trusts the same certificate; a missing one is a usage error naming it', async () => {
    const config = join(dir, 'target.jsonc');
    writeFileSync(config, `{ "baseUrl": "${url}", "ca": "cert.pem" }`);
    const io = capture(env);
    expect(await cli(['run', '--config', config, '--only', 'AUTH-APIKEY', '--runs', '2'], io), io.stderr()).toBe(0);
    const bad = join(dir, 'bad-target.jsonc');
    writeFileSync(bad, `{ "baseUrl": "${url}", "ca": "nope.pem" }`);
    const io2 = capture(env);
    expect(await cli(['run', '--config', bad], io2)).toBe(2);
    expect(io2.stderr()).toMatch(/^spotcheck: --config .*bad-target\.jsonc: ca: cannot read .*nope\.pem: ENOENT/);
  });

  it('--ca with a file that holds no certificate, or none at all: usage errors', async () => {
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    for (const file of [notPem, join(dir, 'missing.pem')]) {
      const io = capture(env);
      expect(await cli(['run', '--base-url', url, '--ca', file], io)).toBe(2);
      expect(io.stderr()).toMatch(/^spotcheck: --ca: /);
    }
  });

  it('advice per failure code; none for other errors', () => {
    expect(tlsAdvice('UNABLE_TO_VERIFY_LEAF_SIGNATURE')).toMatch(/--ca FILE/);
    expect(tlsAdvice('ERR_TLS_CERT_ALTNAME_INVALID')).toMatch(/host name/);
    expect(tlsAdvice('ECONNREFUSED')).toBeUndefined();
  });
});
