/**
 * The reference error codes and HTTP statuses (spec/decisions.md, "Reference error
 * codes"; D-ERROR-SHAPE) and the mapping from validation issues to them.
 */
import type { Issue } from './validation/issue.js';
import type { Diagnosis } from './doctor/diagnose.js';

/** Reference error codes (spec/decisions.md). `0` is success (§7 item 1). */
export const ApiCode = {
  /** Processed (§7 item 1). */
  OK: 0,
  /** Unknown path, wrong method, body too large, wrong content type, unparsable HTTP (the kit's own). */
  REQUEST: -1000,
  /** Timestamp outside the recvWindow or too far ahead (§5.4). */
  TIMESTAMP: -1021,
  /** Signature does not match (§5.3). */
  SIGNATURE: -1022,
  /** A parameter was sent more than once (D-DUPLICATE-PARAM). */
  DUPLICATE_PARAM: -1101,
  /** A mandatory parameter is missing. */
  MISSING_PARAM: -1102,
  /** A value is not valid for its parameter. */
  INVALID_VALUE: -1130,
  /** Duplicate newClientOrderId (D-DUPLICATE-CLIENT-ID). */
  DUPLICATE_CLIENT_ID: -1141,
  /** More than 20 orders in one batch (§4.1 rule 1). */
  BATCH_TOO_LARGE: -1193,
  /** Orders of more than one symbol in one batch (§4.1 rule 2). */
  BATCH_MIXED_SYMBOLS: -1194,
  /** `X-SVC-APIKEY` missing (§5.2). */
  APIKEY_MISSING: -2014,
  /** Unknown API key, or the key lacks the permission (§5.1, §5.2). */
  APIKEY_REJECTED: -2015,
} as const;

/**
 * Why a request was refused; passed to `ServerPolicy.finalizeResponse` so fault
 * injection can target one kind of rejection.
 */
export type RejectionKind =
  | 'not-found'
  | 'method'
  | 'body-too-large'
  | 'content-type'
  | 'http-parse'
  | 'timeout'
  | 'overloaded'
  | 'auth'
  | 'permission'
  | 'duplicate-param'
  | 'signature-missing'
  | 'signature'
  | 'time-params'
  | 'time'
  | 'malformed-json'
  | 'validation'
  | 'duplicate-client-id'
  | 'internal';

/** A refusal of a whole call: HTTP status (D-ERROR-SHAPE), reference code and message. */
export interface Rejection {
  /** Why, for `finalizeResponse`. */
  kind: RejectionKind;
  /** HTTP status under the `http-status` error style. */
  status: number;
  /** Reference error code (negative). */
  code: number;
  /** Message for people, naming the rule. */
  msg: string;
  /** Why the signature did not verify, when the server explains (`serve --explain`); never holds the secret. */
  diagnosis?: Diagnosis;
}

/** Build a rejection. */
export function reject(kind: RejectionKind, status: number, code: number, msg: string): Rejection {
  return { kind, status, code, msg };
}

/** The code for one issue: a missing value is -1102; batch size -1193; mixed symbols -1194; anything else -1130. */
export function issueCode(i: Issue): number {
  if (i.ruleId === 'BATCH-MAX-ORDERS') return ApiCode.BATCH_TOO_LARGE;
  if (i.ruleId === 'BATCH-SINGLE-SYMBOL') return ApiCode.BATCH_MIXED_SYMBOLS;
  if (i.missing) return ApiCode.MISSING_PARAM;
  return ApiCode.INVALID_VALUE;
}

/** A readable message for an issue, naming its rule ID. */
export function issueMessage(i: Issue): string {
  return `${i.message} (${i.ruleId})`;
}

/** The rejection of a whole call for its first issue (HTTP 400). */
export function issueRejection(kind: RejectionKind, i: Issue): Rejection {
  return reject(kind, 400, issueCode(i), issueMessage(i));
}
