import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../core/errors.js';
import { sign } from '../signing/hmac.js';
import type { Io } from './args.js';
import { doctorCommand } from './doctor.js';
import { main } from './main.js';

const SECRET = 'cli-doctor-secret-abcdef';
const QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC';
const BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';

function capture(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string } {
  let out = '';
  return { out: (s) => void (out += s), err: () => undefined, env, stdout: () => out };
}

describe('spotcheck doctor', () => {
  it('names BODY_NOT_SIGNED for a client that signed only the query, secret from the environment, never printed', () => {
    const io = capture({ SPOTCHECK_SECRET: SECRET });
    const url = `/api/v3/order?${QUERY}&signature=${sign(SECRET, QUERY)}`;
    const code = doctorCommand(['--method', 'POST', '--url', url, '--body', BODY, '--json'], io);
    expect(code).toBe(1);
    const d = JSON.parse(io.stdout()) as { code: string };
    expect(d.code).toBe('BODY_NOT_SIGNED');
    expect(io.stdout()).not.toContain(SECRET);
  });

  it('says a correct signature is correct', () => {
    const io = capture();
    const code = doctorCommand(
      ['--secret', SECRET, '--url', `/x?${QUERY}`, '--body', BODY, '--signature', sign(SECRET, QUERY + BODY)],
      io,
    );
    expect(code).toBe(0);
    expect(io.stdout()).toContain('correct');
  });

  it('refuses a missing --url with a usage error that says what to give, not a diagnosis', async () => {
    let text = '';
    const io = { out: (s: string) => void (text += s), err: (s: string) => void (text += s), env: {} };
    expect(await main(['doctor', '--secret', 's'], io)).toBe(2);
    expect(text).toMatch(/^spotcheck: doctor: --url is needed: the path and query string exactly as sent/);
    expect(text).not.toMatch(/UNKNOWN|server signed/);
  });

  it('refuses a missing secret with a usage error', () => {
    try {
      doctorCommand(['--url', '/x?a=1'], capture());
      expect.unreachable();
    } catch (e) {
      expect(isSpotcheckError(e) && e.code === 'ERR_USAGE').toBe(true);
    }
  });
});
