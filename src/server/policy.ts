/**
 * The rule seams of the reference server. Production uses `defaultPolicy`, which
 * only delegates to the library's one implementation of each rule; the conformance
 * self-test builds deliberately broken servers by overriding one member.
 */
import { verify } from '../signing/hmac.js';
import type { SigningSteps } from '../core/signing/total-params.js';
import { checkTimeWindow, type TimeWindowInput, type TimeWindowVerdict } from '../core/time.js';
import { validateBatch } from '../core/validation/batch.js';
import type { Issue } from '../core/validation/issue.js';
import { validateOrder, type ValidateOrderOptions } from '../core/validation/order.js';
import type { RejectionKind } from '../core/codes.js';
import type { EndpointName, Permission } from '../core/wire.js';

/** One API key with its secret and permissions (§5.1, §5.2). */
export interface Credential {
  /** The value of `X-SVC-APIKEY`. */
  apiKey: string;
  /** HMAC key of this API key; never printed. */
  secret: string;
  /** What the key may call (§5.1); the order endpoints need `TRADE`. */
  permissions: ReadonlyArray<Permission>;
}

/** Which endpoint answered: the three served paths, or `none` for anything else. */
export type Endpoint = EndpointName | 'none';

/** A response about to be written. A string body is written as is (not JSON-encoded). */
export interface OutgoingResponse {
  /** HTTP status. */
  status: number;
  /** JSON-encodable body, or a string written as is. */
  body: unknown;
}

/** What `finalizeResponse` is told about the response. */
export interface ResponseContext {
  /** The endpoint that answered. */
  endpoint: Endpoint;
  /** Set when the whole call was refused, naming why. */
  rejection?: RejectionKind;
}

/** Outcome of looking up the API key header. */
export type AuthResult = { ok: true; credential: Credential } | { ok: false; reason: 'missing' | 'unknown' };

/** The rule seams; each default delegates to the library. */
export interface ServerPolicy {
  /** AUTH-APIKEY-REQUIRED / AUTH-APIKEY-UNKNOWN (§5.2): the credential for the header value (undefined = header missing). */
  authenticate(apiKeyHeader: string | undefined, credentials: ReadonlyArray<Credential>): AuthResult;
  /** SIG-* (§5.3): default `verify(secret, steps.totalParams, signature)`. */
  verifySignature(secret: string, steps: SigningSteps, signature: string): boolean;
  /** TIME-* (§5.4): default `checkTimeWindow`; `recvWindow` is undefined when the request omitted it. */
  checkTime(input: TimeWindowInput): TimeWindowVerdict;
  /** BATCH-* / ORDER-* (§4.1): default `validateBatch`. */
  validateBatch(body: unknown): Issue[];
  /** ORDER-* (§2.1): default `validateOrder` (single-order endpoints). */
  validateOrder(input: unknown, opts: ValidateOrderOptions): Issue[];
  /** Last step before a response is written; default identity. */
  finalizeResponse(res: OutgoingResponse, ctx: ResponseContext): OutgoingResponse;
}

/**
 * AUTH-APIKEY-REQUIRED, AUTH-APIKEY-UNKNOWN (§5.2): an absent or empty header is
 * missing; a value that is no configured key is unknown.
 */
function authenticate(apiKeyHeader: string | undefined, credentials: ReadonlyArray<Credential>): AuthResult {
  if (apiKeyHeader === undefined || apiKeyHeader === '') return { ok: false, reason: 'missing' };
  const credential = credentials.find((c) => c.apiKey === apiKeyHeader);
  return credential === undefined ? { ok: false, reason: 'unknown' } : { ok: true, credential };
}

/** The production policy: the library's signer, time window and validators. */
export const defaultPolicy: Readonly<ServerPolicy> = Object.freeze({
  authenticate,
  verifySignature: (secret: string, steps: SigningSteps, signature: string) =>
    verify(secret, steps.totalParams, signature),
  checkTime: checkTimeWindow,
  validateBatch,
  validateOrder,
  finalizeResponse: (res: OutgoingResponse) => res,
});

/** `defaultPolicy` with the given members replaced. */
export function resolvePolicy(overrides: Partial<ServerPolicy> = {}): ServerPolicy {
  return { ...defaultPolicy, ...overrides };
}
