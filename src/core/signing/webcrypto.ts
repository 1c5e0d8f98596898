/**
 * HMAC-SHA256 through Web Crypto (`crypto.subtle`), the browser-safe adapter of the
 * injected primitive (§5.3 item 2). Used by the docs playground.
 */
import { signatureMatches, isSignatureShaped } from './hmac.js';

const utf8 = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  let out = '';
  for (const b of new Uint8Array(bytes)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Lower-case hex HMAC-SHA256 of `message` under `secret` via `crypto.subtle`. */
export async function webCryptoHmac(
  secret: string,
  message: string,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<string> {
  // Web Crypto refuses a zero-length key; HMAC pads keys with zero bytes, so one zero byte is the same key.
  const raw = secret === '' ? new Uint8Array(1) : utf8.encode(secret);
  const key = await subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await subtle.sign('HMAC', key, utf8.encode(message)));
}

/** Verify a signature with Web Crypto and the one compare of ./hmac.ts. */
export async function webCryptoVerify(secret: string, totalParams: string, signature: string): Promise<boolean> {
  return isSignatureShaped(signature) && signatureMatches(await webCryptoHmac(secret, totalParams), signature);
}
