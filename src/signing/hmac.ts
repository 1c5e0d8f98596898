/**
 * HMAC-SHA256 signing and verification (§5.3 items 2 and 3).
 *
 * HMAC (RFC 2104) is computed from two one-shot SHA-256 calls of `node:crypto`,
 * `H((K ^ opad) || H((K ^ ipad) || m))`, with the padded keys prepared once per
 * secret. That skips the per-call HMAC object and key set-up of `createHmac`, which is
 * most of the cost for request-sized messages (see `npm run bench`). The property
 * tests check it against `createHmac` for any secret and payload.
 */
import { hash } from 'node:crypto';
import { isSignatureShaped, signatureMatches } from '../core/signing/hmac.js';

const BLOCK = 64;
const DIGEST = 32;
const KEY_CACHE_LIMIT = 64;
/** Messages up to this size reuse one scratch buffer; larger ones get their own. */
const SCRATCH_LIMIT = 256 * 1024;

interface PaddedKey {
  /** K ^ ipad, one block. */
  inner: Buffer;
  /** K ^ opad followed by room for the inner digest. */
  outer: Buffer;
}

const keyCache = new Map<string, PaddedKey>();

/** The padded keys for a secret (the secret is case-sensitive, taken as UTF-8), prepared once and reused. */
function paddedKey(secret: string): PaddedKey {
  let k = keyCache.get(secret);
  if (k === undefined) {
    let raw = Buffer.from(secret, 'utf8');
    if (raw.length > BLOCK) raw = hash('sha256', raw, 'buffer');
    const inner = Buffer.alloc(BLOCK, 0x36);
    const outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);
    for (let i = 0; i < raw.length; i++) {
      inner[i] = (inner[i] ?? 0) ^ (raw[i] ?? 0);
      outer[i] = (outer[i] ?? 0) ^ (raw[i] ?? 0);
    }
    if (keyCache.size >= KEY_CACHE_LIMIT) {
      const oldest = keyCache.keys().next().value;
      if (oldest !== undefined) keyCache.delete(oldest);
    }
    k = { inner, outer };
    keyCache.set(secret, k);
  }
  return k;
}

let scratch = Buffer.alloc(BLOCK + 4096);

/** The HMAC-SHA256 digest of a UTF-8 message, in lower-case hex. */
function hmacHex(secret: string, message: string): string {
  const key = paddedKey(secret);
  const need = BLOCK + message.length * 3;
  let buf = scratch;
  if (buf.length < need) {
    buf = Buffer.alloc(need);
    if (need <= SCRATCH_LIMIT) scratch = buf;
  }
  key.inner.copy(buf, 0);
  const n = buf.write(message, BLOCK, 'utf8');
  hash('sha256', buf.subarray(0, BLOCK + n), 'buffer').copy(key.outer, BLOCK);
  return hash('sha256', key.outer, 'hex');
}

/**
 * `signature` = lower-case hex HMAC-SHA256 of `totalParams` keyed with the secret
 * (§5.3 item 2). Both strings are taken as UTF-8.
 */
export function sign(secret: string, totalParams: string): string {
  return hmacHex(secret, totalParams);
}

/**
 * Whether `signature` is the signature of `totalParams` under `secret`: the core's one
 * compare (case-insensitive, §5.3 item 3, constant-time over the digits), false (never
 * a throw) for a value that is not 64 hex digits.
 */
export function verify(secret: string, totalParams: string, signature: string): boolean {
  return isSignatureShaped(signature) && signatureMatches(hmacHex(secret, totalParams), signature);
}
