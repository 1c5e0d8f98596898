/**
 * The core's request signing (src/core/signing/build.ts) bound to the node:crypto HMAC.
 */
import { signJsonBodyWith, signParamsWith, type Params, type SignedRequest, type SignParamsOptions } from '../core/signing/build.js';
import { sign } from './hmac.js';


/** Sign ordered parameters in one placement (§5.3) with node:crypto. */
export function signParams(opts: SignParamsOptions): SignedRequest {
  return signParamsWith(sign, opts);
}

/** Sign a JSON-body request (the batch endpoint, §4.1) with node:crypto. */
export function signJsonBody(secret: string, queryParams: Params, jsonText: string): SignedRequest {
  return signJsonBodyWith(sign, secret, queryParams, jsonText);
}
