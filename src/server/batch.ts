/**
 * `POST /api/v1/spot/batchOrders` (§4.1).
 */
import { signingSteps } from '../core/signing/total-params.js';
import type { BatchResultEntry } from '../core/types.js';
import { splitBatchIssues } from '../core/validation/batch.js';
import { authorize } from './auth.js';
import { ApiCode, issueCode, issueMessage, issueRejection, reject } from '../core/codes.js';
import { methodAndPath, type HandlerDeps, type RequestInput } from './handler.js';
import { collectParams, mediaType } from './params.js';
import { placeOrder, stpModeOf } from './place.js';
import { rejectionReply, type Reply } from './respond.js';
import type { EndpointSpec } from '../core/wire.js';
import { jsonNestingDepth, parseJsonLossless } from '../core/json.js';

/** Deepest nesting of arrays and objects a batch body may have (D-JSON-DEPTH; a valid batch has 2). */
export const MAX_JSON_DEPTH = 16;

/** Text of `result[].msg` for a placed order. */
export const ENTRY_OK_MSG = 'OK';

/**
 * Handle one batch request. BATCH-JSON-BODY: the body is JSON (§4.1). BATCH-TIME-IN-QUERY:
 * timestamp, recvWindow and signature come from the query only; SIG-BODY-COVERED: the
 * raw JSON text is signed as received (§5.3 item 4). D-BATCH-ATOMICITY: batch-level
 * faults refuse the call and place nothing; a per-order fault fails only that entry.
 * RESULT-ONE-PER-ORDER, RESULT-ENTRY-CODE-MSG: one entry per order in request order
 * with its own code and msg (§4.1 rule 4, §7 item 2; D-RESULT-ORDER); D-STP-PLACEMENT:
 * each entry carries stpMode and concentration; D-TOP-CODE: top-level code 0.
 */
export function handleBatch(input: RequestInput, ep: EndpointSpec, deps: HandlerDeps): Reply {
  // BATCH-JSON-BODY (§4.1), D-CONTENT-TYPE
  if (mediaType(input.contentType) !== ep.contentType) {
    return rejectionReply(
      reject(
        'content-type',
        415,
        ApiCode.REQUEST,
        'The batch body must be sent as Content-Type: application/json (BATCH-JSON-BODY)',
      ),
    );
  }
  const auth = authorize(
    {
      apiKeyHeader: input.apiKeyHeader,
      params: collectParams(input.rawQuery, ''),
      steps: signingSteps(input.rawQuery, input.body, 'json'),
      permission: ep.permission,
      raw: { query: input.rawQuery, body: input.body, bodyKind: 'json', ...methodAndPath(input) },
    },
    deps,
  );
  if (!auth.ok) return rejectionReply(auth.rejection);

  // D-JSON-DEPTH: refused before parsing, so no deep value reaches validation
  const depth = jsonNestingDepth(input.body, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    return rejectionReply(
      reject(
        'malformed-json',
        400,
        ApiCode.INVALID_VALUE,
        `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels; a batch is an array of flat order objects (D-JSON-DEPTH)`,
      ),
    );
  }
  let parsed: unknown;
  try {
    parsed = exactDecimals(JSON.parse(input.body), input.body);
  } catch {
    return rejectionReply(
      reject(
        'malformed-json',
        400,
        ApiCode.INVALID_VALUE,
        'The body is not valid JSON; expected a JSON array of orders (BATCH-JSON-BODY)',
      ),
    );
  }
  const { whole, byOrder } = splitBatchIssues(deps.policy.validateBatch(parsed));
  const first = whole[0];
  if (first !== undefined) return rejectionReply(issueRejection('validation', first));

  const orders: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const accountId = deps.accountIdOf(auth.credential.apiKey);
  const result: BatchResultEntry[] = orders.map((o, i) => {
    const stpMode = stpModeOf(o);
    const issue = byOrder.get(i)?.[0];
    if (issue !== undefined) return { code: issueCode(issue), msg: issueMessage(issue), stpMode, concentration: '' };
    const fields = typeof o === 'object' && o !== null ? (o as Record<string, unknown>) : {};
    const placed = placeOrder(deps.store, fields, { accountId, now: auth.now });
    if (!placed.ok) return { code: placed.code, msg: placed.msg, stpMode, concentration: '' };
    return { code: ApiCode.OK, msg: ENTRY_OK_MSG, order: placed.order, stpMode, concentration: '' };
  });
  return { status: 200, body: { code: ApiCode.OK, result } };
}

/** The order fields that are DECIMALs (§2.1). */
const DECIMAL_FIELDS = ['quantity', 'price', 'amount'] as const;

/**
 * D-DECIMALS: a decimal sent as a JSON integer past 2^53 is read by its digits, exactly, not as
 * the double nearest it (9007199254740993 is not 9007199254740992); every other value as
 * `JSON.parse` reads it, so a JSON number where a string belongs stays a number (D-JSON-TYPES).
 */
function exactDecimals(parsed: unknown, body: string): unknown {
  if (!Array.isArray(parsed)) return parsed;
  const exact = parseJsonLossless(body);
  if (!Array.isArray(exact)) return parsed;
  return parsed.map((o: unknown, i) => {
    const e: unknown = exact[i];
    if (typeof o !== 'object' || o === null || Array.isArray(o) || typeof e !== 'object' || e === null) return o;
    const out: Record<string, unknown> = { ...(o as Record<string, unknown>) };
    for (const f of DECIMAL_FIELDS)
      if (typeof out[f] === 'number' && typeof (e as Record<string, unknown>)[f] === 'string')
        out[f] = (e as Record<string, unknown>)[f];
    return out;
  });
}
