/**
 * The placements of §5.3 and the shape of a signed request; the one builder that signs
 * is src/core/request.ts.
 */
import { encodePairs } from './query.js';

/** Where the signed parameters travel (§5.3): all in the query, all in a form body, or split. */
export type Placement = 'query' | 'body' | 'split';

/** Ordered request parameters (order is significant: the bytes signed are the bytes sent). */
export type Params = ReadonlyArray<readonly [string, string]>;

/** A request ready to send, with each intermediate value of its signature. */
export interface SignedRequest {
  /** Query string as sent (without the leading `?`), including the signature pair when it travels there. */
  query: string;
  /** Body as sent ('' for none). */
  body: string;
  /** Content type of the body, absent when there is none. */
  contentType?: 'application/x-www-form-urlencoded' | 'application/json';
  /** Query without signature, body, totalParams and signature. */
  steps: { queryWithoutSignature: string; body: string; totalParams: string; signature: string };
}

/**
 * Encode ordered parameters into query and form body for a placement (§5.3), without
 * the signature: `split` puts the first `splitAt` (default half, rounded up) in the query.
 */
export function placeParams(params: Params, placement: Placement, splitAt?: number): { query: string; body: string } {
  const cut =
    placement === 'query' ? params.length : placement === 'body' ? 0 : (splitAt ?? Math.ceil(params.length / 2));
  return { query: encodePairs(params.slice(0, cut)), body: encodePairs(params.slice(cut)) };
}
