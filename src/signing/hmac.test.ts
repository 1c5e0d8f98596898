import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSignatureShaped } from '../core/signing/hmac.js';
import { sign, verify } from './hmac.js';

describe('sign (§5.3 item 2)', () => {
  it('equals a plain HMAC-SHA256 hex digest for any secret and payload', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (secret, payload) => {
        expect(sign(secret, payload)).toBe(createHmac('sha256', secret).update(payload).digest('hex'));
      }),
    );
  });

  it('writes lower-case hex of 64 digits', () => {
    expect(sign('k', 'x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('treats the secret as case-sensitive', () => {
    expect(sign('Secret', 'x')).not.toBe(sign('secret', 'x'));
  });
});

describe('verify (§5.3 item 3)', () => {
  const good = sign('s3cret', 'a=1&b=2');

  it('accepts the signature in any case', () => {
    expect(verify('s3cret', 'a=1&b=2', good)).toBe(true);
    expect(verify('s3cret', 'a=1&b=2', good.toUpperCase())).toBe(true);
    const mixed = [...good].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    expect(verify('s3cret', 'a=1&b=2', mixed)).toBe(true);
  });

  it('rejects a flipped bit, a truncation, non-hex and the wrong secret without throwing', () => {
    const flipped = (good[0] === '0' ? '1' : '0') + good.slice(1);
    expect(verify('s3cret', 'a=1&b=2', flipped)).toBe(false);
    expect(verify('s3cret', 'a=1&b=2', good.slice(0, 63))).toBe(false);
    expect(verify('s3cret', 'a=1&b=2', `${good.slice(0, 63)}g`)).toBe(false);
    expect(verify('s3cret', 'a=1&b=2', '')).toBe(false);
    expect(verify('other', 'a=1&b=2', good)).toBe(false);
    expect(isSignatureShaped(`${good}00`)).toBe(false);
  });

  it('never accepts a signature of a different payload', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(verify('k', b, sign('k', a))).toBe(false);
      }),
    );
  });
});

describe('sign against createHmac at the edges of the RFC 2104 construction', () => {
  it('agrees for secrets shorter than, equal to and longer than one block, unicode included, and for long payloads', () => {
    const secrets = [
      'k',
      'x'.repeat(63),
      'y'.repeat(64),
      'z'.repeat(65),
      'ü'.repeat(40),
      '🔑'.repeat(20),
      'q'.repeat(500),
    ];
    const payloads = ['', 'a', '€'.repeat(2000), 'p'.repeat(300_000), '\u{1F600}'.repeat(10)];
    for (const s of secrets) {
      for (const p of payloads)
        expect(sign(s, p), `${s.length}/${p.length}`).toBe(createHmac('sha256', s).update(p).digest('hex'));
    }
  });

  it('keeps giving the right answer after a very large message and across many secrets (cache eviction)', () => {
    sign('k', 'm'.repeat(1_000_000));
    for (let i = 0; i < 200; i++) {
      const s = `secret-${i}`;
      expect(verify(s, 'payload', createHmac('sha256', s).update('payload').digest('hex'))).toBe(true);
    }
  });
});
