/**
 * The string that is signed (§5.3 item 4).
 */
import { withoutSignature } from './query.js';

/** How the request body is encoded: a form body may carry the signature pair, a JSON body never does. */
export type BodyKind = 'form' | 'json' | 'none';

/**
 * `totalParams`: the query string directly followed by the body, nothing inserted
 * between them (§5.3 item 4). Both arguments are taken as sent, already without
 * their signature pair.
 */
export function totalParams(queryWithoutSignature: string, bodyWithoutSignature: string): string {
  return queryWithoutSignature + bodyWithoutSignature;
}

/** The body as it enters `totalParams`: a form body loses its signature pair (§5.3 item 5); JSON is taken raw. */
export function signedBody(body: string, kind: BodyKind): string {
  return kind === 'form' ? withoutSignature(body) : body;
}

/**
 * The body kind of a raw body when nothing else says (a tool reading text typed by a
 * person): empty is `none`, text starting with `[` or `{` is `json`, anything else `form`.
 */
export function guessBodyKind(body: string): BodyKind {
  if (body === '') return 'none';
  const t = body.trimStart();
  return t.startsWith('[') || t.startsWith('{') ? 'json' : 'form';
}

/** The intermediate values of signing a request as received, for verification and for display. */
export interface SigningSteps {
  /** The raw query string without its `signature` pair. */
  queryWithoutSignature: string;
  /** The body as it enters totalParams. */
  body: string;
  /** query + body, no separator. */
  totalParams: string;
}

/** The signing steps for a request as received (raw query without `?`, raw body text). */
export function signingSteps(rawQuery: string, rawBody: string, kind: BodyKind): SigningSteps {
  const q = withoutSignature(rawQuery);
  const b = signedBody(rawBody, kind);
  return { queryWithoutSignature: q, body: b, totalParams: totalParams(q, b) };
}
