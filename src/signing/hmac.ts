/**
 * HMAC-SHA256 signing and verification (§5.3 items 2 and 3).
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

const KEY_CACHE_LIMIT = 64;
const keyCache = new Map<string, KeyObject>();

/** The HMAC key for a secret, keyed once and reused (the secret is case-sensitive). */
function hmacKey(secret: string): KeyObject {
  let key = keyCache.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    if (keyCache.size >= KEY_CACHE_LIMIT) {
      const oldest = keyCache.keys().next().value;
      if (oldest !== undefined) keyCache.delete(oldest);
    }
    keyCache.set(secret, key);
  }
  return key;
}

/**
 * `signature` = lower-case hex HMAC-SHA256 of `totalParams` keyed with the secret
 * (§5.3 item 2). Both strings are taken as UTF-8.
 */
export function sign(secret: string, totalParams: string): string {
  return createHmac('sha256', hmacKey(secret)).update(totalParams, 'utf8').digest('hex');
}

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/** True when `s` has the form of a signature: 64 hex digits, any case. */
export function isSignatureShaped(s: string): boolean {
  return HEX_64.test(s);
}

/**
 * Whether `signature` is the signature of `totalParams` under `secret`:
 * case-insensitive (§5.3 item 3), constant-time over the digest, and false (never a
 * throw) for a value that is not 64 hex digits.
 */
export function verify(secret: string, totalParams: string, signature: string): boolean {
  if (!isSignatureShaped(signature)) return false;
  const expected = createHmac('sha256', hmacKey(secret)).update(totalParams, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
