/**
 * Request parameters as received: query string and form body decoded with the
 * signing module's `parsePairs`, duplicates detected (D-DUPLICATE-PARAM).
 */
import { parsePairs } from '../core/signing/query.js';

/** Decoded parameters by name, or the first name sent more than once. */
export type CollectedParams = { ok: true; params: Map<string, string> } | { ok: false; duplicate: string };

/**
 * Merge the parameters of the raw query and the raw form body. A name that occurs
 * twice, in one part or across both, is a duplicate (D-DUPLICATE-PARAM).
 */
export function collectParams(rawQuery: string, rawFormBody: string): CollectedParams {
  const params = new Map<string, string>();
  for (const part of [rawQuery, rawFormBody]) {
    for (const [name, value] of parsePairs(part)) {
      if (params.has(name)) return { ok: false, duplicate: name };
      params.set(name, value);
    }
  }
  return { ok: true, params };
}

/** Split a request target into its path and raw query (without `?`), nothing decoded. */
export function splitTarget(target: string): { path: string; rawQuery: string } {
  const q = target.indexOf('?');
  return q === -1 ? { path: target, rawQuery: '' } : { path: target.slice(0, q), rawQuery: target.slice(q + 1) };
}

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** Printable form of a parameter name in a message (cut, JSON-quoted). */
export function paramName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}
