/**
 * Signing without defects (§5.3, §4.1) with the node:crypto HMAC: the core's one builder
 * (src/core/request.ts) with no defect and no key header, its signed query and body.
 */
import { buildRequest } from '../core/request.js';
import type { Params, Placement, SignedRequest } from '../core/signing/build.js';
import { sign } from './hmac.js';

/** Input of {@link signParams}. */
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

/** Sign ordered parameters in one placement (§5.3); the signature pair is appended to the query, or to the form body (see `signatureIn`). */
export function signParams(opts: SignParamsOptions): SignedRequest {
  return buildRequest(sign, {
    endpoint: 'v1',
    params: opts.params,
    placement: opts.placement,
    ...(opts.splitAt === undefined ? {} : { splitAt: opts.splitAt }),
    ...(opts.signatureIn === undefined ? {} : { signatureIn: opts.signatureIn }),
    secret: opts.secret,
    apiKey: null,
  }).signed;
}

/** Sign a JSON-body request (the batch endpoint, §4.1): the query carries `timestamp`/`recvWindow` and the signature; the body is the JSON text exactly as sent. */
export function signJsonBody(secret: string, queryParams: Params, jsonText: string): SignedRequest {
  return buildRequest(sign, { endpoint: 'batch', params: queryParams, jsonText, secret, apiKey: null }).signed;
}
