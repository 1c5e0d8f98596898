/**
 * The HMAC primitive as an injected function (§5.3 item 2) and the one signature
 * compare (§5.3 item 3). No implementation of HMAC lives here: node:crypto
 * (src/signing/hmac.ts) and Web Crypto (./webcrypto.ts) are the adapters.
 */

/** Lower-case hex HMAC-SHA256 of `message` keyed with `secret`, both taken as UTF-8. */
export type HmacHex = (secret: string, message: string) => string;

/** The same primitive for environments where HMAC is asynchronous (Web Crypto). */
export type HmacHexAsync = (secret: string, message: string) => Promise<string>;

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/** True when `s` has the form of a signature: 64 hex digits, any case. */
export function isSignatureShaped(s: string): boolean {
  return HEX_64.test(s);
}

/**
 * The one signature compare: `given` matches the `expected` hex digest ignoring case
 * (§5.3 item 3), constant-time over the 64 digits, false (never a throw) for a value
 * that is not 64 hex digits.
 */
export function signatureMatches(expected: string, given: string): boolean {
  if (!isSignatureShaped(given) || expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= (expected.charCodeAt(i) | 0x20) ^ (given.charCodeAt(i) | 0x20);
  return diff === 0;
}

/** Verify with an injected primitive: the signature of `totalParams` under `secret`? */
export function verifyWith(hmac: HmacHex, secret: string, totalParams: string, signature: string): boolean {
  return isSignatureShaped(signature) && signatureMatches(hmac(secret, totalParams), signature);
}
