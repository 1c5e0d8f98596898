import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSignatureShaped, sign, verify } from './hmac.js';

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
