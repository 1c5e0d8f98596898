/**
 * The wire contract of the seed as data: endpoints (§4.1, §4.2, §9), the API-key header
 * (§5.2), the signature parameter (§5.3) and the limits and defaults (§4.1, §8, §5.4).
 * The builder and the server take a {@link WireProfile}, so a target described otherwise
 * (another header name, other paths) is a different object, not different code.
 */
import { MAX_BATCH_ORDERS } from './validation/batch.js';
import { MAX_CLIENT_ORDER_ID } from './validation/fields.js';
import { SIGNATURE_PARAM } from './signing/query.js';
import { DEFAULT_RECV_WINDOW, MAX_LEAD_MS } from './time.js';

/** Name of an endpoint of the seed: the batch (§4.1) and the single order of each parameter-set version (§4.2, §9). */
export type EndpointName = 'batch' | 'v1' | 'v1.1';

/** The endpoint names, batch first. */
export const ENDPOINT_NAMES: readonly EndpointName[] = ['batch', 'v1', 'v1.1'];

/** Security types of §5.1 that need an API key: the permissions a key may hold. */
export type Permission = 'TRADE' | 'USER_DATA' | 'USER_STREAM' | 'MARKET_DATA';

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
  /** Security type of the endpoint, the permission the key needs (§5.1, §5.3: order creation is TRADE). */
  permission: Permission;
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
export const LIMITS: Readonly<
  Record<'maxBatchOrders' | 'maxClientOrderId' | 'maxOrderId' | 'defaultRecvWindow' | 'maxLeadMs', number>
> = Object.freeze({
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
    permission: 'TRADE',
    version,
  });

/** The endpoints the seed names (§4.1, §4.2, §9). */
export const ENDPOINTS: Readonly<Record<EndpointName, EndpointSpec>> = Object.freeze({
  batch: endpoint('batch', '/api/v1/spot/batchOrders', 'v1', 'json'),
  v1: endpoint('v1', '/api/v1/spot/order', 'v1', 'form'),
  'v1.1': endpoint('v1.1', '/api/v1.1/spot/order', 'v1.1', 'form'),
});

/** The wire the seed describes. */
export const SEED_WIRE: WireProfile = Object.freeze({
  apiKeyHeader: API_KEY_HEADER,
  signatureParam: SIGNATURE_PARAM,
  endpoints: ENDPOINTS,
});

/** A deployment's wire: the seed's, with its own API-key header and endpoint paths (a target description), built in this one place. */
export function wireWith(
  apiKeyHeader: string | undefined,
  paths: Partial<Record<EndpointName, string>> = {},
): WireProfile {
  const endpoints = { ...SEED_WIRE.endpoints };
  for (const [name, path] of Object.entries(paths) as Array<[EndpointName, string | undefined]>)
    if (path !== undefined) endpoints[name] = { ...endpoints[name], path };
  return { ...SEED_WIRE, apiKeyHeader: apiKeyHeader ?? SEED_WIRE.apiKeyHeader, endpoints };
}

/** The single-order endpoint of a parameter-set version. */
export function orderEndpoint(version: 'v1' | 'v1.1', wire: WireProfile = SEED_WIRE): EndpointSpec {
  return wire.endpoints[version];
}

/** The endpoint served at `path`, if any. */
export function endpointAt(path: string, wire: WireProfile = SEED_WIRE): EndpointSpec | undefined {
  return Object.values(wire.endpoints).find((e) => e.path === path);
}
