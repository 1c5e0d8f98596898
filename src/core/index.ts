/**
 * The pure, browser-safe wire contract (no I/O, no node:): endpoint table, request
 * builder with deliberate defects, response classifier, signing steps with an injected
 * HMAC and the one signature compare. The error family, time rule, validators and
 * signing steps are exported by the library's main module under their usual names.
 */
export { ENDPOINTS, SEED_WIRE, LIMITS, orderEndpoint, endpointAt, type EndpointName, type EndpointSpec, type ParamPlacement, type WireProfile } from './wire.js';
export { buildRequest, type BuiltWireRequest, type Defects, type RequestSpec, type WireRequest } from './request.js';
export { classify, codeValue, type BodyCut, type Observation, type ResponseLike, type Verdict } from './response.js';
export { signatureMatches, verifyWith, type HmacHex, type HmacHexAsync } from './signing/hmac.js';
export { webCryptoHmac, webCryptoVerify } from './signing/webcrypto.js';
export { signParamsWith, signJsonBodyWith } from './signing/build.js';
export { diagnose, diagnoseAsync, candidates as doctorCandidates, firstDifference, DOCTOR_CODES, DOCTOR_SENTENCES, type Candidate as DoctorCandidate, type Diagnosis, type DoctorCode, type DoctorRequest, type FirstDifference } from './doctor/diagnose.js';
