/** Request signing (§5.3): one pure function per step. */
export { sign, verify, isSignatureShaped } from './hmac.js';
export {
  SIGNATURE_PARAM,
  withoutSignature,
  signatureValues,
  parsePairs,
  rawPairs,
  decodeComponent,
  encodeComponent,
  encodePairs,
  isWellEncoded,
} from './query.js';
export { totalParams, signedBody, signingSteps, guessBodyKind, type BodyKind, type SigningSteps } from './total-params.js';
export { signParams, signJsonBody, placeParams, type Placement, type Params, type SignedRequest, type SignParamsOptions } from './build.js';
