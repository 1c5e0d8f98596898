/**
 * The requests of a load run, built by the core's one builder (src/core/request.ts) with
 * the HMAC injected, so the same code signs in the local engine and in the Artillery
 * processor bundle. Each request carries fresh client ids and is signed over its bytes
 * at the moment it is built (§5.3, §5.4): callers build it when it can go on the wire.
 */
import type { HmacHex } from '../../src/core/signing/hmac.js';
import { buildRequest, type WireRequest } from '../../src/core/request.js';
import { orderEndpoint, SEED_WIRE, type WireProfile } from '../../src/core/wire.js';
import { routeParts, type LoadRoute } from './mix.js';

/** The order values of a load run (the target's accepted values; the defaults suit the reference server). */
export interface LoadOrderValues {
  symbol: string;
  price: string;
  quantity: string;
}

/** Everything needed to build load requests for one target. */
export interface LoadBuildOptions {
  hmac: HmacHex;
  apiKey: string;
  secret: string;
  /** The target's wire (header name, paths); default the seed's. */
  wire?: WireProfile;
  order: LoadOrderValues;
  /** Orders per batch (1..20, §4.1). */
  batchSize: number;
  /** recvWindow sent with every request, ms (§5.4; the seed's default 5000). */
  recvWindow: number;
  /** The target signs batches over the query only (a declared deviation from §5.3 item 4). */
  batchQueryOnly?: boolean;
}

/** A request built for a load run and what the verdict needs to know of it. */
export interface LoadRequest {
  route: LoadRoute;
  request: WireRequest;
  /** The signed timestamp, ms. */
  timestamp: number;
  recvWindow: number;
  /** newClientOrderId of each order, in the order sent. */
  clientIds: string[];
}

/** Default order values (accepted by the reference server). */
export const DEFAULT_ORDER: LoadOrderValues = { symbol: 'BTCUSDT', price: '42000.00', quantity: '0.01' };

/**
 * A source of client ids unique to this run and this process: `prefix` then a counter in
 * base 36 (short, well under the 255 characters of §8).
 */
export function clientIdSource(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${(n++).toString(36)}`;
}

/** A run prefix: `ld` and random base-36 digits, so two runs (or two Artillery workers) never share an id. */
export function runPrefix(random: () => number = Math.random): string {
  return `ld${Math.floor(random() * 36 ** 8)
    .toString(36)
    .padStart(8, '0')}-`;
}

/** How many orders a request of `route` carries. */
export function ordersPerRequest(route: LoadRoute, batchSize: number): number {
  return route === 'batch' ? batchSize : 1;
}

/** The run's order values and the start of an order's JSON text for each side (up to the client id). */
interface BatchTemplate {
  values: LoadOrderValues;
  heads: readonly [string, string];
}

const templates = new WeakMap<LoadOrderValues, BatchTemplate>();

/**
 * The JSON text of a batch of the run's orders (§4.1), sides alternating BUY and SELL,
 * with these client ids: `JSON.stringify` of the order objects, assembled from text made
 * once per order values (only the client ids change from one batch to the next).
 */
export function batchJson(order: LoadOrderValues, clientIds: readonly string[]): string {
  let t = templates.get(order);
  if (
    t === undefined ||
    t.values.symbol !== order.symbol ||
    t.values.quantity !== order.quantity ||
    t.values.price !== order.price
  ) {
    const head = (side: string): string => {
      const o = { symbol: order.symbol, side, type: 'LIMIT', quantity: order.quantity, price: order.price };
      return `${JSON.stringify({ ...o, timeInForce: 'GTC' }).slice(0, -1)},"newClientOrderId":`;
    };
    t = { values: { ...order }, heads: [head('BUY'), head('SELL')] };
    templates.set(order, t);
  }
  let out = '[';
  for (let i = 0; i < clientIds.length; i++) {
    if (i > 0) out += ',';
    out += `${t.heads[i % 2]}${JSON.stringify(clientIds[i])}}`;
  }
  return `${out}]`;
}

/** Build and sign one request of `route` with `timestamp` (ms) and ids from `nextId`. */
export function buildLoadRequest(
  o: LoadBuildOptions,
  route: LoadRoute,
  timestamp: number,
  nextId: () => string,
): LoadRequest {
  const wire = o.wire ?? SEED_WIRE;
  const { endpoint, placement } = routeParts(route);
  const time: Array<[string, string]> = [
    ['recvWindow', String(o.recvWindow)],
    ['timestamp', String(timestamp)],
  ];
  if (endpoint === 'batch') {
    const clientIds = Array.from({ length: o.batchSize }, nextId);
    const built = buildRequest(
      o.hmac,
      {
        endpoint: 'batch',
        params: time,
        jsonText: batchJson(o.order, clientIds),
        secret: o.secret,
        apiKey: o.apiKey,
        ...(o.batchQueryOnly === true ? { defects: { signedString: (_tp: string, q: string) => q } } : {}),
      },
      wire,
    );
    return { route, request: built.request, timestamp, recvWindow: o.recvWindow, clientIds };
  }
  const id = nextId();
  const params: Array<[string, string]> = [
    ['symbol', o.order.symbol],
    ['side', 'BUY'],
    ['type', 'LIMIT'],
    ['timeInForce', 'GTC'],
    ['quantity', o.order.quantity],
    ['price', o.order.price],
    ['newClientOrderId', id],
    ...time,
  ];
  const built = buildRequest(
    o.hmac,
    {
      endpoint: orderEndpoint(endpoint, wire).name,
      params,
      placement: placement as 'query' | 'body' | 'split',
      secret: o.secret,
      apiKey: o.apiKey,
    },
    wire,
  );
  return { route, request: built.request, timestamp, recvWindow: o.recvWindow, clientIds: [id] };
}
