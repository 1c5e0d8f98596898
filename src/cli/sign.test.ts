import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../core/errors.js';
import type { Io } from './args.js';
import { SIGN_HELP, signCommand } from './sign.js';

/** Published example A3 (Binance spot REST API docs, SIGNED endpoint examples): split placement. */
const A3 = {
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
  query: 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC',
  body: 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559',
  signature: '0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77',
};

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env,
    stdout: () => out,
    stderr: () => err,
  };
}

describe('spotcheck sign', () => {
  it('prints each step of the signature and exits 0', () => {
    const io = capture();
    const code = signCommand(
      ['--secret', A3.secret, '--query', A3.query, '--body', `${A3.body}&signature=${'0'.repeat(64)}`],
      io,
    );
    expect(code).toBe(0);
    const lines = io.stdout().split('\n');
    expect(lines[0]).toBe(`query without signature: ${A3.query}`);
    expect(lines[1]).toMatch(new RegExp(`^body \\(form\\): +${A3.body}$`));
    expect(lines[2]).toBe(`totalParams:             ${A3.query}${A3.body}`);
    expect(lines[3]).toBe(`signature:               ${A3.signature}`);
    expect(io.stderr()).toBe('');
  });

  it('--json prints one JSON object with every step', () => {
    const io = capture();
    signCommand(['--secret', A3.secret, `--query=?${A3.query}&signature=abc`, '--body', A3.body, '--json'], io);
    expect(JSON.parse(io.stdout())).toEqual({
      queryWithoutSignature: A3.query,
      body: A3.body,
      totalParams: A3.query + A3.body,
      bodyKind: 'form',
      signature: A3.signature,
    });
  });

  it('takes a body starting with "[" or "{" as JSON and signs it whole', () => {
    const io = capture();
    const body = ' [{"newClientOrderId":"a&signature=b"}]';
    signCommand(['--secret', 'k', '--query', 'timestamp=1', '--body', body, '--json'], io);
    const out = JSON.parse(io.stdout()) as { bodyKind: string; body: string; totalParams: string };
    expect(out.bodyKind).toBe('json');
    expect(out.body).toBe(body);
    expect(out.totalParams).toBe(`timestamp=1${body}`);
  });

  it('with neither query nor body signs the empty string, body kind none', () => {
    const io = capture();
    signCommand(['--secret', 'k', '--json'], io);
    expect(JSON.parse(io.stdout())).toMatchObject({ bodyKind: 'none', totalParams: '' });
  });

  it('never prints the secret, in text or JSON output', () => {
    const secret = 'super-Secret-value-123';
    for (const extra of [[], ['--json']]) {
      const io = capture();
      signCommand(['--secret', secret, '--query', 'a=1', '--body', 'b=2', ...extra], io);
      expect(io.stdout()).not.toContain(secret);
      expect(io.stderr()).not.toContain(secret);
    }
  });

  it('reads the secret from SPOTCHECK_SECRET when --secret is absent or empty', () => {
    const fromEnv = capture({ SPOTCHECK_SECRET: A3.secret });
    signCommand(['--query', A3.query, '--body', A3.body, '--json'], fromEnv);
    expect(JSON.parse(fromEnv.stdout())).toMatchObject({ signature: A3.signature });
    const emptyFlag = capture({ SPOTCHECK_SECRET: A3.secret });
    signCommand(['--secret', '', '--query', A3.query, '--body', A3.body, '--json'], emptyFlag);
    expect(JSON.parse(emptyFlag.stdout())).toMatchObject({ signature: A3.signature });
  });

  it('prefers --secret over SPOTCHECK_SECRET', () => {
    const io = capture({ SPOTCHECK_SECRET: 'not-this-one' });
    signCommand(['--secret', A3.secret, '--query', A3.query, '--body', A3.body, '--json'], io);
    expect(JSON.parse(io.stdout())).toMatchObject({ signature: A3.signature });
  });

  it('without a secret throws ERR_USAGE naming both ways to give one', () => {
    for (const env of [{}, { SPOTCHECK_SECRET: '' }]) {
      const io = capture(env);
      let caught: unknown;
      try {
        signCommand(['--query', 'a=1'], io);
      } catch (err) {
        caught = err;
      }
      expect(isSpotcheckError(caught, 'ERR_USAGE')).toBe(true);
      expect((caught as Error).message).toMatch(/--secret.*SPOTCHECK_SECRET/);
      expect(io.stdout()).toBe('');
    }
  });

  it('an unknown flag or a flag without its value is ERR_USAGE', () => {
    expect(() => signCommand(['--secret', 'k', '--bogus'], capture())).toThrow(
      expect.objectContaining({ code: 'ERR_USAGE' }),
    );
    expect(() => signCommand(['--secret'], capture())).toThrow(expect.objectContaining({ code: 'ERR_USAGE' }));
  });

  it('--help and -h print the usage and exit 0 without needing a secret', () => {
    for (const flag of ['--help', '-h']) {
      const io = capture();
      expect(signCommand([flag], io)).toBe(0);
      expect(io.stdout()).toBe(SIGN_HELP);
      expect(io.stdout()).toContain('Usage: spotcheck sign');
    }
  });
});
