import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEMO_READONLY_SECRET, DEMO_SECRET } from '../../src/server/credentials.js';
import { startServer } from '../../src/server/server.js';
import { classify, type Verdict } from '../../src/core/response.js';
import { curlFor, NO_TRADE_SECRET_VAR, shq } from './curl.js';
import { mutants } from '../../harness/mutants.js';
import { runAgainstUrl } from '../../harness/selftest.js';
import * as edits from '../engine/sig-edits.js';

const run = promisify(execFile);

/** Run printed reproduction lines with bash (curl and openssl for real), and classify the last answer. */
async function replay(script: string): Promise<Verdict> {
  // A wrapper only appends the status after the body; the printed lines run unchanged. --norc:
  // bash started with a socket for stdin (Node's pipes) and no SHLVL in its environment reads
  // ~/.bashrc as for a remote shell; the replay must not run the user's startup files.
  const wrapper = `curl() { command curl -w '\\n%{http_code}' "$@"; }\nset -e\n${script}\n`;
  const { stdout } = await run('bash', ['--norc', '-c', wrapper], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      SPOTCHECK_SECRET: DEMO_SECRET,
      [NO_TRADE_SECRET_VAR]: DEMO_READONLY_SECRET,
    },
  });
  const at = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, at);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return classify({ status: Number(stdout.slice(at + 1)), text, json }).verdict;
}

describe('signature rewrites carry a bash form that does the same thing', () => {
  const sig = 'a0f31b7c9d2e45f60718293a4b5c6d7e8f9012a3b4c5d6e7f8091a2b3c4d5e6f';
  const all = [
    edits.upperCase,
    edits.mixedCase,
    edits.flipFirstDigit,
    edits.flipBit(0),
    edits.flipBit(7),
    edits.flipBit(255),
    edits.truncate(63),
    edits.extraDigit,
    edits.nonHexDigit,
    edits.base64,
    edits.empty,
  ];
  for (const e of all) {
    it(e.what, async () => {
      const { stdout } = await run('bash', ['--norc', '-c', `SIG=${shq(sig)}\n${e.shell}\nprintf '%s' "$SIG"`]);
      expect(stdout).toBe(e(sig));
      expect(e(sig)).not.toBe(sig);
    });
  }
  it('flips the first digit of a signature starting with 0 to 1', async () => {
    const { stdout } = await run('bash', [
      '--norc',
      '-c',
      `SIG=0abc\n${edits.flipFirstDigit.shell}\nprintf '%s' "$SIG"`,
    ]);
    expect(stdout).toBe('1abc');
  });
});

/**
 * Every curl printed by a failing run against a faulty server, pasted into
 * bash, reproduces the failure: the faulty server answers it the way the check
 * complained about, a correct server answers it the other way.
 */
describe.concurrent('printed curl reproductions, run with bash + curl + openssl', () => {
  const cases: Array<{ mutant: string; only: string[] }> = [
    { mutant: 'case-sensitive signature', only: ['SIG-CASE-INSENSITIVE'] },
    { mutant: "'&' inserted at the query/body join", only: ['SIG-TOTALPARAMS-NO-SEPARATOR'] },
    { mutant: 'JSON body not covered', only: ['SIG-BODY-COVERED'] },
    { mutant: 'TRADE permission not checked', only: ['AUTH-PERMISSION'] },
    {
      mutant: 'signature never checked',
      only: ['SIG-HMAC-SHA256-HEX.flipped-bit', 'SIG-HMAC-SHA256-HEX.malformed', 'SIG-REQUIRED', 'AUTH-SECRET-BOUND'],
    },
  ];
  for (const c of cases) {
    // each case its own correct server: replays of cases run side by side never meet each other's client ids
    it(`against "${c.mutant}" and a correct server`, async () => {
      const m = mutants.find((x) => x.name.startsWith(c.mutant));
      expect(m, c.mutant).toBeDefined();
      const faulty = await startServer({ port: 0, ...(m?.options ?? {}) });
      const clean = await startServer({ port: 0 });
      try {
        const report = await runAgainstUrl(faulty.url, {
          seed: 5,
          runs: 10,
          timeoutMs: 5000,
          only: c.only,
          // the domain catalogue's empty-signature probe may travel on a single-order route: its
          // printed curl reuses the client id of the order it placed, so a replay meets the duplicate
          // refusal (D-DUPLICATE-CLIENT-ID) instead of the fault; SIG-REQUIRED's own probes show it
          exclude: ['SIG-REQUIRED.domain'],
          maxOrders: Infinity,
        });
        const failed = report.checks.filter((x) => x.status === 'fail');
        expect(failed.length, JSON.stringify(report.summary)).toBeGreaterThan(0);
        for (const f of failed) {
          expect(f.reproduce, f.id).toBeDefined();
          const script = f.reproduce ?? '';
          expect(script, f.id).toMatch(
            f.id === 'AUTH-PERMISSION' ? /"\$SPOTCHECK_NO_TRADE_SECRET"/ : /"\$SPOTCHECK_SECRET"/,
          );
          expect(script, f.id).not.toContain(DEMO_SECRET);
          expect(script, f.id).not.toContain(DEMO_READONLY_SECRET);
          const onFaulty = await replay(script);
          const onClean = await replay(script.split(faulty.url).join(clean.url));
          expect([onFaulty, onClean].sort(), `${f.id}\n${script}`).toEqual(['accepted', 'rejected']);
        }
      } finally {
        await faulty.close();
        await clean.close();
      }
    });
  }

  it('a signature rewritten without a shell form is flagged as not replayable, not passed off as fresh', () => {
    const text = curlFor('http://127.0.0.1:1', {
      request: {
        method: 'POST',
        path: '/api/v1/spot/order',
        query: 'timestamp=1700000000000&signature=abc',
        body: '',
        headers: {},
      },
      observation: { verdict: 'rejected' },
      timestamp: '1700000000000',
      signature: 'abc',
    });
    expect(text).toContain('over the old timestamp');
    expect(text).not.toContain('SIG=');
  });

  it('a request sent with another method is printed with it; HEAD as --head, which does not wait for a body', () => {
    const line = (method: string) =>
      curlFor('http://127.0.0.1:1', {
        request: { method, path: '/api/v1/spot/order', query: 'timestamp=1', body: '', headers: {} },
        observation: { verdict: 'rejected' },
      });
    expect(line('PUT')).toContain("curl -sS -X PUT 'http://127.0.0.1:1/api/v1/spot/order?timestamp=1'");
    expect(line('HEAD')).toContain("curl -sS --head 'http://127.0.0.1:1/api/v1/spot/order?timestamp=1'");
    expect(line('HEAD')).not.toContain('-X HEAD');
  });
});
