/**
 * `POST /api/v1/spot/order` and `POST /api/v1.1/spot/order` (§4.2, §9).
 */
import { SIGNATURE_PARAM } from '../core/signing/query.js';
import { signingSteps } from '../core/signing/total-params.js';
import { authorize } from './auth.js';
import { ApiCode, issueRejection, reject } from '../core/codes.js';
import { methodAndPath, type HandlerDeps, type RequestInput } from './handler.js';
import { collectParams, mediaType } from './params.js';
import { placeOrder } from './place.js';
import { rejectionReply, type Reply } from './respond.js';
import { ENDPOINTS, type EndpointSpec } from '../core/wire.js';

/** Media type of a single-order body (D-CONTENT-TYPE). */
export const FORM_MEDIA_TYPE = ENDPOINTS.v1.contentType;

/** Parameters that are not order fields. */
const SIGNED_ONLY = new Set([SIGNATURE_PARAM, 'timestamp', 'recvWindow']);

/**
 * Handle one single-order request. SIG-PLACEMENT-QUERY, SIG-PLACEMENT-BODY,
 * SIG-PLACEMENT-SPLIT (§5.3): parameters come from the query, a form body, or both;
 * ORDER-V1-ENDPOINT / ORDER-V11-ENDPOINT pick the parameter set (§4.2). The answer
 * is the order data with `code: 0` (D-SINGLE-RESPONSE); a duplicate newClientOrderId
 * refuses the call with -1141 (D-DUPLICATE-CLIENT-ID).
 */
export function handleOrder(input: RequestInput, ep: EndpointSpec, deps: HandlerDeps): Reply {
  const { version } = ep;
  const hasBody = input.body !== '';
  // D-CONTENT-TYPE
  if (hasBody && mediaType(input.contentType) !== ep.contentType) {
    return rejectionReply(
      reject('content-type', 415, ApiCode.REQUEST, `An order body must be sent as Content-Type: ${ep.contentType}`),
    );
  }
  const auth = authorize(
    {
      apiKeyHeader: input.apiKeyHeader,
      params: collectParams(input.rawQuery, input.body),
      steps: signingSteps(input.rawQuery, input.body, hasBody ? 'form' : 'none'),
      permission: ep.permission,
      raw: { query: input.rawQuery, body: input.body, bodyKind: hasBody ? 'form' : 'none', ...methodAndPath(input) },
    },
    deps,
  );
  if (!auth.ok) return rejectionReply(auth.rejection);

  const fields = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of auth.params) if (!SIGNED_ONLY.has(name)) fields[name] = value;
  const first = deps.policy.validateOrder(fields, { version })[0];
  if (first !== undefined) return rejectionReply(issueRejection('validation', first));

  const placed = placeOrder(deps.store, fields, { accountId: deps.accountIdOf(auth.credential.apiKey), now: auth.now });
  if (!placed.ok) return rejectionReply(reject('duplicate-client-id', 400, placed.code, placed.msg));
  return { status: 200, body: { code: ApiCode.OK, ...placed.order } };
}
