/**
 * Authentication of a signed request (§5): API key, parameters, signature,
 * permission, time parameters and time window, in that order. Each rule is called
 * through the policy, whose defaults are the library's single implementations.
 */
import type { BodyKind, SigningSteps } from '../core/signing/total-params.js';
import { sign } from '../signing/hmac.js';
import { diagnose } from '../core/doctor/diagnose.js';
import { SIGNATURE_PARAM } from '../core/signing/query.js';
import type { Clock } from '../core/time.js';
import { checkTimeParams } from '../core/validation/time-params.js';
import { ApiCode, issueRejection, reject, type Rejection } from '../core/codes.js';
import { paramName, type CollectedParams } from './params.js';
import type { Credential, ServerPolicy } from './policy.js';
import type { Permission, WireProfile } from '../core/wire.js';

/** What the server knows that authentication needs. */
export interface AuthDeps {
  /** Rule seams (defaults: the library). */
  policy: ServerPolicy;
  /** Accepted keys. */
  credentials: ReadonlyArray<Credential>;
  /** Server time (§5.4). */
  clock: Clock;
  /** The served wire: API-key header name (§5.2), paths, each endpoint's permission (§5.1). */
  wire: WireProfile;
  /** Attach the signature doctor's diagnosis to a signature rejection (`serve --explain`; default off). */
  explain?: boolean;
}

/** One signed request as received. */
export interface SignedInput {
  /** Value of the API-key header, `X-SVC-APIKEY` on the seed's wire (undefined when absent). */
  apiKeyHeader: string | undefined;
  /** Decoded parameters that carry `signature`, `timestamp` and `recvWindow`. */
  params: CollectedParams;
  /** Signing steps over the bytes as received (§5.3 item 4). */
  steps: SigningSteps;
  /** Permission the endpoint needs (§5.1). */
  permission: Permission;
  /** The raw query and body as received, for the diagnosis (a signature pair left in is only visible here), with method and path. */
  raw?: { query: string; body: string; bodyKind: BodyKind; method?: string; path?: string };
}

/** The signature rejection, with the doctor's diagnosis when the server explains (§5.3). */
function signatureRejection(input: SignedInput, deps: AuthDeps, secret: string, signature: string): Rejection {
  const r = reject(
    'signature',
    401,
    ApiCode.SIGNATURE,
    'Signature for this request is not valid (SIG-HMAC-SHA256-HEX)',
  );
  if (deps.explain !== true || input.raw === undefined) return r;
  // The API key sent lets the doctor see a client that keyed the HMAC with it (API_KEY_AS_SECRET); it is never echoed.
  const d = diagnose(
    { ...input.raw, signature, ...(input.apiKeyHeader !== undefined ? { apiKey: input.apiKeyHeader } : {}) },
    secret,
    sign,
  );
  return d === null ? r : { ...r, diagnosis: d };
}

/** The authenticated caller and the server time used for the check. */
export type AuthOutcome =
  | { ok: true; credential: Credential; now: number; params: Map<string, string> }
  | { ok: false; rejection: Rejection };

function fail(rejection: Rejection): AuthOutcome {
  return { ok: false, rejection };
}

/** Run the §5 checks on one request; the first failing check decides the rejection. */
export function authorize(input: SignedInput, deps: AuthDeps): AuthOutcome {
  const { policy } = deps;
  // AUTH-APIKEY-REQUIRED, AUTH-APIKEY-UNKNOWN (§5.2)
  const auth = policy.authenticate(input.apiKeyHeader, deps.credentials);
  if (!auth.ok) {
    return auth.reason === 'missing'
      ? fail(
          reject(
            'auth',
            401,
            ApiCode.APIKEY_MISSING,
            `The ${deps.wire.apiKeyHeader} header is missing (AUTH-APIKEY-REQUIRED)`,
          ),
        )
      : fail(
          reject(
            'auth',
            401,
            ApiCode.APIKEY_REJECTED,
            `The API key in ${deps.wire.apiKeyHeader} is not known (AUTH-APIKEY-UNKNOWN)`,
          ),
        );
  }
  // D-DUPLICATE-PARAM
  if (!input.params.ok) {
    return fail(
      reject(
        'duplicate-param',
        400,
        ApiCode.DUPLICATE_PARAM,
        `Parameter ${paramName(input.params.duplicate)} was sent more than once (D-DUPLICATE-PARAM)`,
      ),
    );
  }
  const params = input.params.params;
  // SIG-REQUIRED (§5.3 item 1)
  const signature = params.get(SIGNATURE_PARAM);
  if (signature === undefined) {
    return fail(
      reject(
        'signature-missing',
        400,
        ApiCode.MISSING_PARAM,
        'Mandatory parameter "signature" was not sent (SIG-REQUIRED)',
      ),
    );
  }
  // SIG-HMAC-SHA256-HEX, SIG-CASE-INSENSITIVE, SIG-TOTALPARAMS-NO-SEPARATOR, AUTH-SECRET-BOUND (§5.3)
  if (!policy.verifySignature(auth.credential.secret, input.steps, signature)) {
    return fail(signatureRejection(input, deps, auth.credential.secret, signature));
  }
  // AUTH-PERMISSION (§5.1, D-PERMISSION)
  if (!auth.credential.permissions.includes(input.permission)) {
    return fail(
      reject(
        'permission',
        403,
        ApiCode.APIKEY_REJECTED,
        `This API key lacks the ${input.permission} permission (AUTH-PERMISSION)`,
      ),
    );
  }
  // TIME-TIMESTAMP-REQUIRED, ORDER-RECVWINDOW-FORMAT, D-RECVWINDOW-MAX (§5.4)
  const time = checkTimeParams(params.get('timestamp'), params.get('recvWindow'));
  const first = time.issues[0];
  if (first !== undefined) return fail(issueRejection('time-params', first));
  // TIME-WINDOW-PAST, TIME-WINDOW-LEAD, TIME-RECVWINDOW-DEFAULT (§5.4 item 3)
  const now = deps.clock();
  const verdict = policy.checkTime({ timestamp: time.timestamp ?? 0, recvWindow: time.recvWindow, serverTime: now });
  if (!verdict.accepted) {
    const why =
      verdict.reason === 'too-far-ahead'
        ? `is ${-verdict.age} ms ahead of the server time (must be under 1000 ms; TIME-WINDOW-LEAD)`
        : `is ${verdict.age} ms old, outside the recvWindow of ${verdict.recvWindow} ms (TIME-WINDOW-PAST)`;
    return fail(reject('time', 400, ApiCode.TIMESTAMP, `Timestamp for this request ${why}`));
  }
  return { ok: true, credential: auth.credential, now, params };
}
