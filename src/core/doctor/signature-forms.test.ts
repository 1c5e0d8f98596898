import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64SignatureAsHex } from './signature-forms.js';

describe('base64SignatureAsHex (§5.3 item 2)', () => {
  it('reads the base64 of any 32 bytes, standard or URL-safe, padded or not, as its hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const b = Buffer.from(bytes);
        const hex = b.toString('hex');
        expect(base64SignatureAsHex(b.toString('base64'))).toBe(hex);
        expect(base64SignatureAsHex(b.toString('base64url'))).toBe(hex);
        expect(base64SignatureAsHex(b.toString('base64').replace(/=$/, ''))).toBe(hex);
      }),
    );
  });

  it('never reads a hex signature or another length as base64', () => {
    expect(base64SignatureAsHex('ab'.repeat(32))).toBeUndefined();
    expect(base64SignatureAsHex(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(base64SignatureAsHex(Buffer.alloc(33).toString('base64'))).toBeUndefined();
    expect(base64SignatureAsHex('')).toBeUndefined();
  });
});
