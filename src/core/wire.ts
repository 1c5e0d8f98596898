/**
 * The wire contract of the seed as data: endpoints (§4.1, §4.2, §9), the API-key header
 * (§5.2), the signature parameter (§5.3) and the limits and defaults (§4.1, §8, §5.4).
 * Builders and the server take a {@link WireProfile}, so a target described otherwise
 * (another header name, path prefix, offered placements) is a different object, not
 * different code.
 */
import { MAX_BATCH_ORDERS } from './validation/batch.js';
import { MAX_CLIENT_ORDER_ID } from './validation/fields.js';
import { SIGNATURE_PARAM } from './signing/query.js';
import { DEFAULT_RECV_WINDOW, MAX_LEAD_MS } from './time.js';

/** Name of an endpoint of the seed. */
export type EndpointName = 'batchOrders' | 'order-v1' | 'order-v1.1';

/** Where the signed parameters may travel: query, form body, split, or query + JSON body (batch). */
export type ParamPlacement = 'query' | 'body' | 'split' | 'json-body';

/** One endpoint of the contract. */
export interface EndpointSpec {
  /** Stable name. */
  name: EndpointName;
  /** HTTP method (§4: POST). */
  method: 'POST';
  /** Path without query. */
  path: string;
  /** What the body is: ordered form parameters, or raw JSON text (§4.1). */
  bodyKind: 'form' | 'json';
  /** Media type of the body (D-CONTENT-TYPE). */
  contentType: 'application/x-www-form-urlencoded' | 'application/json';
  /** Placements of the signed parameters this endpoint accepts (§5.3). */
  placements: ReadonlyArray<ParamPlacement>;
  /** Where `timestamp`/`recvWindow` may go. */
  timeParamsIn: ReadonlyArray<'query' | 'body'>;
  /** Where the `signature` pair may go. */
  signatureIn: ReadonlyArray<'query' | 'body'>;
  /** Permission the key needs (§5.1). */
  permission: 'SPOT_TRADE';
  /** Parameter set version (§4.2, §9). */
  version: 'v1' | 'v1.1';
}

/** A description of a target's wire: the seed's is {@link SEED_WIRE}. */
export interface WireProfile {
  /** Header carrying the API key (§5.2). */
  apiKeyHeader: string;
  /** Name of the signature parameter (§5.3). */
  signatureParam: string;
  /** Endpoints by name. */
  endpoints: Readonly<Record<EndpointName, EndpointSpec>>;
}

/** Header name of the API key (§5.2). */
export const API_KEY_HEADER = 'X-SVC-APIKEY';

/** Seed limits and defaults (§4.1, §8, §5.4). */
export const LIMITS: Readonly<Record<'maxBatchOrders' | 'maxClientOrderId' | 'maxOrderId' | 'defaultRecvWindow' | 'maxLeadMs', number>> = Object.freeze({
  /** Orders per batch (§4.1 rule 1). */
  maxBatchOrders: MAX_BATCH_ORDERS,
  /** Characters of a newClientOrderId (§8). */
  maxClientOrderId: MAX_CLIENT_ORDER_ID,
  /** Characters of an orderId (§8). */
  maxOrderId: 20,
  /** recvWindow when absent, ms (§5.4). */
  defaultRecvWindow: DEFAULT_RECV_WINDOW,
  /** A timestamp may lead the server clock by less than this, ms (§5.4). */
  maxLeadMs: MAX_LEAD_MS,
});

const endpoint = (name: EndpointName, path: string, version: 'v1' | 'v1.1', bodyKind: 'form' | 'json'): EndpointSpec =>
  Object.freeze<EndpointSpec>({
    name,
    method: 'POST',
    path,
    bodyKind,
    contentType: bodyKind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
    placements: bodyKind === 'json' ? ['json-body'] : ['query', 'body', 'split'],
    timeParamsIn: bodyKind === 'json' ? ['query'] : ['query', 'body'],
    signatureIn: bodyKind === 'json' ? ['query'] : ['query', 'body'],
    permission: 'SPOT_TRADE',
    version,
  });

/** The endpoints the seed names (§4.1, §4.2, §9). */
export const ENDPOINTS: Readonly<Record<EndpointName, EndpointSpec>> = Object.freeze({
  batchOrders: endpoint('batchOrders', '/api/v1/spot/batchOrders', 'v1', 'json'),
  'order-v1': endpoint('order-v1', '/api/v1/spot/order', 'v1', 'form'),
  'order-v1.1': endpoint('order-v1.1', '/api/v1.1/spot/order', 'v1.1', 'form'),
});

/** The wire the seed describes. */
export const SEED_WIRE: WireProfile = Object.freeze({
  apiKeyHeader: API_KEY_HEADER,
  signatureParam: SIGNATURE_PARAM,
  endpoints: ENDPOINTS,
});

/** The single-order endpoint of a parameter-set version. */
export function orderEndpoint(version: 'v1' | 'v1.1', wire: WireProfile = SEED_WIRE): EndpointSpec {
  return wire.endpoints[version === 'v1' ? 'order-v1' : 'order-v1.1'];
}

/** The endpoint served at `path`, if any. */
export function endpointAt(path: string, wire: WireProfile = SEED_WIRE): EndpointSpec | undefined {
  return Object.values(wire.endpoints).find((e) => e.path === path);
}
