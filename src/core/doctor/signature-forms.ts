/**
 * Other ways a client may have written the right HMAC (§5.3 item 2 says hexadecimal):
 * base64 (standard or URL-safe alphabet, padded or not). Browser-safe, no I/O.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The hexadecimal form of a signature written as the base64 of 32 bytes (an HMAC-SHA256),
 * or undefined when it is not one. A 64-digit hex signature is never read as base64
 * (it would be 48 bytes).
 */
export function base64SignatureAsHex(sig: string): string | undefined {
  const s = sig.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (s.length !== 43 || !/^[A-Za-z0-9+/]+$/.test(s)) return undefined;
  let bits = 0;
  let acc = 0;
  let hex = '';
  for (const c of s) {
    acc = ((acc << 6) | ALPHABET.indexOf(c)) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((acc >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  return hex.length === 64 ? hex : undefined;
}
