/**
 * The pure, browser-safe wire contract (no I/O, no node:), the package's `spotcheck/core`
 * entry: endpoint table, request builder with deliberate defects, response classifier,
 * signing steps with an injected HMAC and the one signature compare, time rule,
 * validators, errors, rule IDs and the wire types. The main entry re-exports all of it.
 * @module spotcheck/core
 */
export { isSignatureShaped, signatureMatches, verifyWith, type HmacHex, type HmacHexAsync } from './signing/hmac.js';
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
} from './signing/query.js';
export {
  totalParams,
  signedBody,
  signingSteps,
  guessBodyKind,
  type BodyKind,
  type SigningSteps,
} from './signing/total-params.js';
export { placeParams, type Placement, type Params, type SignedRequest } from './signing/build.js';
export { type Issue, issue, describeValue, assertNoIssues } from './validation/issue.js';
export { validateOrder, type ApiVersion, type ValidateOrderOptions } from './validation/order.js';
export { validateBatch, splitBatchIssues, MAX_BATCH_ORDERS } from './validation/batch.js';
export { plainDecimal } from './validation/decimal.js';
export { checkTimeParams, MAX_RECV_WINDOW, type TimeParams } from './validation/time-params.js';
export {
  parseDecimal,
  parseLong,
  charLength,
  MAX_CLIENT_ORDER_ID,
  SIDES,
  ORDER_TYPES,
  STP_MODES,
  TIME_IN_FORCE_VALUES,
} from './validation/fields.js';
export {
  checkTimeWindow,
  DEFAULT_RECV_WINDOW,
  MAX_LEAD_MS,
  type Clock,
  systemClock,
  type TimeWindowInput,
  type TimeWindowVerdict,
} from './time.js';
export { isSpotcheckError, type SpotcheckErrorCode, SpotcheckError, ApiError } from './errors.js';
export {
  ENDPOINTS,
  ENDPOINT_NAMES,
  SEED_WIRE,
  LIMITS,
  orderEndpoint,
  endpointAt,
  type EndpointName,
  type EndpointSpec,
  type Permission,
  type WireProfile,
  API_KEY_HEADER,
} from './wire.js';
export { buildRequest, type BuiltRequest, type Defects, type RequestSpec, type WireRequest } from './request.js';
export { classify, codeValue, type BodyCut, type Observation, type ResponseLike, type Verdict } from './response.js';
export { webCryptoHmac, webCryptoVerify } from './signing/webcrypto.js';
export {
  diagnose,
  diagnoseAsync,
  candidates as doctorCandidates,
  firstDifference,
  firstDifferenceLines,
  DIFFERENCE_OPEN,
  DIFFERENCE_CLOSE,
  DOCTOR_CODES,
  DOCTOR_SENTENCES,
  DOCTOR_FIXES,
  type Candidate as DoctorCandidate,
  type Diagnosis,
  type DoctorCode,
  type DoctorRequest,
  type FirstDifference,
} from './doctor/diagnose.js';
export { type RuleId, RULE_IDS, type RuleFamily, RULE_FAMILIES } from './rule-id.js';
export { ApiCode, type RejectionKind, type Rejection } from './codes.js';
export type {
  Side,
  OrderType,
  StpMode,
  DecimalString,
  Decimal,
  Integer,
  DigitString,
  Long,
  ClientOrderId,
  TimeInForce,
  SymbolName,
  OrderFields,
  BatchOrderItem,
  BatchOrderRequest,
  OrderRequestV1,
  OrderRequestV11,
  OrderResponse,
  BatchResultEntry,
  BatchOrderResponse,
  ErrorResponse,
  SingleOrderResponse,
} from './types.js';
