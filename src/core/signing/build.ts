/**
 * Building signed requests in each placement of §5.3. The HMAC primitive is injected
 * (node:crypto in src/signing/hmac.ts, Web Crypto in ./webcrypto.ts).
 */
import type { HmacHex } from './hmac.js';
import { encodePairs, SIGNATURE_PARAM } from './query.js';
import { totalParams } from './total-params.js';

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
  const cut = placement === 'query' ? params.length : placement === 'body' ? 0 : (splitAt ?? Math.ceil(params.length / 2));
  return { query: encodePairs(params.slice(0, cut)), body: encodePairs(params.slice(cut)) };
}

/** Input of {@link signParamsWith}. */
export interface SignParamsOptions {
  /** The secret key (HMAC key, case-sensitive). */
  secret: string;
  /** Ordered parameters, without `signature`. */
  params: Params;
  /** Where the parameters travel. */
  placement: Placement;
  /** For `split`: how many leading params go to the query (default: half, rounded up). */
  splitAt?: number;
  /**
   * Where the signature pair travels (§5.3 item 1: query or body). Default: the form
   * body for `body`, the query otherwise (the published split examples use the body).
   */
  signatureIn?: 'query' | 'body';
}

/**
 * Sign ordered parameters in one placement (§5.3). The signature pair is appended to
 * the query, or to the form body for `body` placement (see `signatureIn`).
 */
export function signParamsWith(hmac: HmacHex, opts: SignParamsOptions): SignedRequest {
  const { placement } = opts;
  const { query: q, body: b } = placeParams(opts.params, placement, opts.splitAt);
  const tp = totalParams(q, b);
  const signature = hmac(opts.secret, tp);
  const pair = `${SIGNATURE_PARAM}=${signature}`;
  const inQuery = (opts.signatureIn ?? (placement === 'body' ? 'body' : 'query')) === 'query';
  const query = inQuery ? (q === '' ? pair : `${q}&${pair}`) : q;
  const body = inQuery ? b : b === '' ? pair : `${b}&${pair}`;
  return {
    query,
    body,
    ...(body === '' ? {} : { contentType: 'application/x-www-form-urlencoded' as const }),
    steps: { queryWithoutSignature: q, body: b, totalParams: tp, signature },
  };
}

/**
 * Sign a JSON-body request (the batch endpoint, §4.1): the query carries
 * `timestamp`/`recvWindow` and the signature; the body is the JSON text exactly as sent.
 */
export function signJsonBodyWith(hmac: HmacHex, secret: string, queryParams: Params, jsonText: string): SignedRequest {
  const q = encodePairs(queryParams);
  const tp = totalParams(q, jsonText);
  const signature = hmac(secret, tp);
  return {
    query: q === '' ? `${SIGNATURE_PARAM}=${signature}` : `${q}&${SIGNATURE_PARAM}=${signature}`,
    body: jsonText,
    contentType: 'application/json',
    steps: { queryWithoutSignature: q, body: jsonText, totalParams: tp, signature },
  };
}
