/**
 * Query-string and form-body handling for signing (§5.3). Everything works on the
 * bytes as sent: no decoding, no sorting, no re-encoding of the pairs that stay.
 */
import { SpotcheckError } from '../errors.js';

/** Name of the signature parameter (§5.3 item 1). */
export const SIGNATURE_PARAM = 'signature';

/** Split a raw `a=1&b=2` string into its raw pairs (empty segments are kept out). */
export function rawPairs(raw: string): string[] {
  return raw === '' ? [] : raw.split('&').filter((p) => p !== '');
}

function isSignaturePair(pair: string): boolean {
  const eq = pair.indexOf('=');
  const name = eq === -1 ? pair : pair.slice(0, eq);
  return name === SIGNATURE_PARAM;
}

/**
 * The raw query string (or form body) with every `signature` pair and its one `&`
 * separator removed, every other byte left as sent, empty segments included (§5.3 item 5).
 * `a=1&signature=ff&b=2` gives `a=1&b=2`; `a=1&&b=2&signature=ff` gives `a=1&&b=2`.
 */
export function withoutSignature(raw: string): string {
  if (!raw.includes(SIGNATURE_PARAM)) return raw;
  return raw
    .split('&')
    .filter((p) => !isSignaturePair(p))
    .join('&');
}

/** The raw values of every `signature` pair in a raw query string or form body. */
export function signatureValues(raw: string): string[] {
  return rawPairs(raw)
    .filter(isSignaturePair)
    .map((p) => decodeComponent(p.slice(SIGNATURE_PARAM.length + 1)));
}

/** Percent-decode one component, `+` read as a space (form encoding); a malformed escape leaves the text as it is. */
export function decodeComponent(s: string): string {
  // nothing to decode (most components): as it is, without a regex and a decoder pass
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** True when every `%` in the string starts a valid escape and the escapes decode as UTF-8. */
export function isWellEncoded(s: string): boolean {
  try {
    decodeURIComponent(s.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/** Decoded name/value pairs of a raw query string or form body, in order, duplicates kept. */
export function parsePairs(raw: string): Array<[string, string]> {
  return rawPairs(raw).map((p) => {
    const eq = p.indexOf('=');
    return eq === -1 ? [decodeComponent(p), ''] : [decodeComponent(p.slice(0, eq)), decodeComponent(p.slice(eq + 1))];
  });
}

/** Text of RFC 3986 unreserved characters only, which percent-encoding leaves as they are. */
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

/**
 * Percent-encode one component the way the kit's signer sends it (RFC 3986 unreserved
 * kept, space as `%20`, UTF-8 escapes in upper case).
 * @throws SpotcheckError `ERR_INVALID_INPUT` for a string with a lone surrogate (no UTF-8 form).
 */
export function encodeComponent(s: string): string {
  // only unreserved characters (most components): as it is
  if (UNRESERVED.test(s)) return s;
  let encoded: string;
  try {
    encoded = encodeURIComponent(s);
  } catch {
    throw new SpotcheckError(
      'ERR_INVALID_INPUT',
      'cannot percent-encode a string holding a lone UTF-16 surrogate (it has no UTF-8 form)',
      {
        length: s.length,
      },
    );
  }
  return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Encode ordered pairs as `a=1&b=2`. */
export function encodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
}
