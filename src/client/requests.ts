/**
 * Building signed requests for the order endpoints (§4.1, §4.2) as raw requests: a thin
 * adapter over the core's one builder (src/core/request.ts) with the node:crypto HMAC,
 * so the client, the runner and the docs show the very bytes that are sent.
 */
import { ORDER_FIELDS } from '../core/validation/fields.js';
import { buildRequest, type BuiltRequest } from '../core/request.js';
import type { Params, Placement } from '../core/signing/build.js';
import { sign } from '../signing/hmac.js';
import type { BatchOrderItem, Decimal, OrderRequestV1, OrderRequestV11 } from '../core/types.js';
import type { ApiVersion } from '../core/validation/order.js';
import { plainDecimal } from '../core/validation/decimal.js';
import { ENDPOINTS, orderEndpoint } from '../core/wire.js';

/** Path of the batch endpoint (§4.1), from the core's wire table. */
export const BATCH_ORDERS_PATH = ENDPOINTS.batch.path;

/** Paths of the single-order endpoints by version (§4.2, §9), from the core's wire table. */
export const ORDER_PATHS: Readonly<Record<ApiVersion, string>> = Object.freeze({
  v1: orderEndpoint('v1').path,
  'v1.1': orderEndpoint('v1.1').path,
});

/** A v1 order as the caller gives it: the time parameters are added when signing. */
export type NewOrderV1 = Omit<OrderRequestV1, 'timestamp' | 'recvWindow'>;
/** A v1.1 order as the caller gives it. */
export type NewOrderV11 = Omit<OrderRequestV11, 'timestamp' | 'recvWindow'>;

/** Who signs and the time parameters (§5.3, §5.4). */
export interface SigningAuth {
  /** Sent in `X-SVC-APIKEY` (§5.2). */
  apiKey: string;
  /** HMAC key (§5.3); never sent. */
  secret: string;
  /** Request time, epoch ms. */
  timestamp: number;
  /** Sent only when given (the server default is 5000). */
  recvWindow?: number | undefined;
}

/** A DECIMAL as parameter text: strings as given, numbers in plain notation (never an exponent). */
export function decimalParam(v: Decimal): string {
  return typeof v === 'string' ? v : plainDecimal(v);
}

function timeParams(auth: SigningAuth): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (auth.recvWindow !== undefined) out.push(['recvWindow', String(auth.recvWindow)]);
  out.push(['timestamp', String(auth.timestamp)]);
  return out;
}

const DECIMAL_FIELDS: ReadonlySet<string> = new Set(['quantity', 'amount', 'price']);

/** Order fields as ordered parameters (§2.1), absent fields left out, then recvWindow and timestamp. */
export function orderParams(order: NewOrderV1 | NewOrderV11, auth: SigningAuth): Params {
  const o = order as Readonly<Record<string, unknown>>;
  const out: Array<[string, string]> = [];
  for (const name of ORDER_FIELDS) {
    const v = o[name];
    if (v === undefined) continue;
    out.push([name, DECIMAL_FIELDS.has(name) && typeof v === 'number' ? decimalParam(v) : String(v)]);
  }
  return [...out, ...timeParams(auth)];
}

/** Batch elements as the builder takes them: typed orders, or any object (to send invalid ones on purpose). */
export type BatchElement = BatchOrderItem | Readonly<Record<string, unknown>>;

/**
 * The signed batch request (§4.1): timestamp/recvWindow and the signature in the
 * query, the JSON array as body, signed as sent (SIG-BODY-COVERED).
 */
export function batchOrdersRequest(orders: ReadonlyArray<BatchElement>, auth: SigningAuth): BuiltRequest {
  return buildRequest(sign, {
    endpoint: 'batch',
    params: timeParams(auth),
    jsonText: JSON.stringify(orders),
    secret: auth.secret,
    apiKey: auth.apiKey,
  });
}

/** The signed single-order request in one placement of §5.3 (query, form body, or split). */
export function orderRequest(
  order: NewOrderV1 | NewOrderV11,
  opts: { version: ApiVersion; placement: Placement },
  auth: SigningAuth,
): BuiltRequest {
  return buildRequest(sign, {
    endpoint: orderEndpoint(opts.version).name,
    params: orderParams(order, auth),
    placement: opts.placement,
    secret: auth.secret,
    apiKey: auth.apiKey,
  });
}
