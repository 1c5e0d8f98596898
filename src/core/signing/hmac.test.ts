import { describe, expect, it } from 'vitest';
import { signatureMatches, verifyWith } from './hmac.js';
import { webCryptoHmac, webCryptoVerify } from './webcrypto.js';
import { sign } from '../../signing/hmac.js';

const SIG = sign('secret', 'message');

describe('signatureMatches: the one compare (§5.3 item 3)', () => {
  it('ignores case, refuses any other value', () => {
    expect(signatureMatches(SIG, SIG)).toBe(true);
    expect(signatureMatches(SIG, SIG.toUpperCase())).toBe(true);
    expect(signatureMatches(SIG, `${SIG.slice(0, 63)}${SIG[63] === '0' ? '1' : '0'}`)).toBe(false);
    expect(signatureMatches(SIG, SIG.slice(0, 63))).toBe(false);
    expect(signatureMatches(SIG, `${SIG.slice(0, 63)}g`)).toBe(false);
    expect(signatureMatches(SIG, '')).toBe(false);
  });

  it('verifyWith uses the injected primitive', () => {
    expect(verifyWith(sign, 'secret', 'message', SIG.toUpperCase())).toBe(true);
    expect(verifyWith(sign, 'other', 'message', SIG)).toBe(false);
  });
});

describe('Web Crypto HMAC adapter', () => {
  it('gives the node:crypto digest, including long keys and UTF-8', async () => {
    for (const [k, m] of [
      ['secret', 'message'],
      ['k'.repeat(200), 'x'],
      ['é', 'ü€'],
      ['', ''],
    ] as const) {
      expect(await webCryptoHmac(k, m)).toBe(sign(k, m));
    }
    expect(await webCryptoVerify('secret', 'message', SIG.toUpperCase())).toBe(true);
    expect(await webCryptoVerify('secret', 'message2', SIG)).toBe(false);
  });
});
