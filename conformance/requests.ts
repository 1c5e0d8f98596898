/**
 * Building the requests checks send: signed with the library's signer (no second
 * implementation), then optionally tampered with after signing so a negative case
 * carries exactly one defect. The client's builders (src/client/requests.ts) make
 * only well-formed requests; checks also need a missing timestamp, a raw body text,
 * a signature over another string, so this factory takes those hooks and sends
 * through the client's raw exchange.
 */
import { API_KEY_HEADER, type RawRequest } from '../src/client/http.js';
import { encodePairs, placeParams, sign, totalParams, type Placement } from '../src/signing/index.js';
import type { ApiVersion } from '../src/validation/index.js';
import type { SigningFacts } from './transport.js';
import type { EndpointName } from './target/description.js';

import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../src/client/requests.js';

/** The endpoint paths, as the client has them (§4.1, §4.2). */
export { BATCH_ORDERS_PATH as BATCH_PATH, ORDER_PATHS };
const BATCH_PATH = BATCH_ORDERS_PATH;

/** Where a request goes: the endpoint and, for single orders, the placement (§5.3); the batch carries JSON. */
export interface Route {
  endpoint: EndpointName;
  placement: Placement | 'json';
}

/** The route as one word, e.g. `v1.1/split` or `batch/json`: the key of positive controls. */
export function routeKey(r: Route): string {
  return `${r.endpoint}/${r.placement}`;
}

/** A request ready to send, the facts of its signature, and how to build it afresh (a new timestamp, re-signed) for a retry. */
export interface Built {
  request: RawRequest;
  facts: SigningFacts;
  rebuild?: () => Built;
}

/** Options shared by every signed request. */
export interface SignOptions {
  /** Timestamp to send (default: the estimated server time now). */
  timestamp?: number | string;
  /** Leave the timestamp out entirely. */
  omitTimestamp?: boolean;
  recvWindow?: number | string;
  /** API key header value; null leaves the header out (default: the target's key). */
  apiKey?: string | null;
  /** Secret to sign with (default: the target's). */
  secret?: string;
  /** Rewrite the signature value after signing (flip a bit, change case, truncate). */
  signature?: (sig: string) => string;
  /** Leave the signature pair out. */
  omitSignature?: boolean;
  /** Compute the signature over a different string than the one sent (e.g. with `&` at the join). */
  signedString?: (totalParams: string, query: string, body: string) => string;
  /** Rewrite the request after signing (change a signed byte). */
  tamper?: (req: RawRequest) => RawRequest;
  /** Extra headers (e.g. a different content type). */
  headers?: Record<string, string>;
}

export interface RequestFactoryOptions {
  apiKey: string;
  secret: string;
  /** The estimated server time now. */
  serverNow: () => number;
  /** Name of the API-key header (default the seed's, §5.2). */
  apiKeyHeader?: string;
  /** Path of each endpoint (default the seed's, §4). */
  paths?: Readonly<Record<EndpointName, string>>;
  /** What a batch signature covers (default the seed's query + body, §5.3 item 4). */
  batchSignature?: 'query+body' | 'query-only';
}

function finish(
  base: { query: string; body: string; contentType: string | undefined; path: string; route: Route },
  tp: string,
  opts: SignOptions,
  f: RequestFactoryOptions,
  timestamp: string | undefined,
): Built {
  const secret = opts.secret ?? f.secret;
  const stringToSign = opts.signedString ? opts.signedString(tp, base.query, base.body) : tp;
  const genuine = sign(secret, stringToSign);
  const sig = opts.signature ? opts.signature(genuine) : genuine;
  // The signature pair travels in the query unless the query is empty and a form body exists.
  const inBody = base.query === '' && base.body !== '' && base.contentType === 'application/x-www-form-urlencoded';
  let query = base.query;
  let body = base.body;
  if (!opts.omitSignature) {
    const pair = `signature=${sig}`;
    if (inBody) body = `${body}&${pair}`;
    else query = query === '' ? pair : `${query}&${pair}`;
  }
  const headers: Record<string, string> = {};
  const key = opts.apiKey === undefined ? f.apiKey : opts.apiKey;
  if (key !== null) headers[f.apiKeyHeader ?? API_KEY_HEADER] = key;
  if (base.contentType !== undefined) headers['content-type'] = base.contentType;
  Object.assign(headers, opts.headers ?? {});
  let request: RawRequest = { method: 'POST', path: base.path, query, body, headers };
  if (opts.tamper) request = opts.tamper(request);
  const facts: SigningFacts = { signature: sig, route: base.route };
  if (opts.secret === undefined && !opts.signature && !opts.omitSignature) facts.signedString = stringToSign;
  if (timestamp !== undefined) {
    facts.timestamp = timestamp;
    if (/^\d+$/.test(timestamp)) facts.timestampShiftMs = Number(timestamp) - Date.now();
  }
  return { request, facts };
}

export interface RequestFactory {
  /** A signed batch request (§4.1): time parameters and signature in the query, the JSON text as body. */
  batch(orders: unknown, opts?: SignOptions & { rawBody?: string }): Built;
  /** A signed single-order request (§4.2) in one placement (§5.3). */
  order(params: Record<string, unknown>, version: ApiVersion, placement: Placement, opts?: SignOptions & { splitAt?: number }): Built;
}

function timeParams(opts: SignOptions, f: RequestFactoryOptions): { pairs: Array<[string, string]>; timestamp?: string } {
  const pairs: Array<[string, string]> = [];
  let timestamp: string | undefined;
  if (opts.recvWindow !== undefined) pairs.push(['recvWindow', String(opts.recvWindow)]);
  if (!opts.omitTimestamp) {
    timestamp = String(opts.timestamp ?? Math.round(f.serverNow()));
    pairs.push(['timestamp', timestamp]);
  }
  return timestamp === undefined ? { pairs } : { pairs, timestamp };
}

/** Make the request builders for one target. */
export function createRequestFactory(f: RequestFactoryOptions): RequestFactory {
  const path = (e: EndpointName) => f.paths?.[e] ?? (e === 'batch' ? BATCH_PATH : ORDER_PATHS[e]);
  // A retry re-signs with a fresh timestamp unless the check fixed one on purpose.
  const fresh = (b: Built, again: () => Built): Built => ({ ...b, rebuild: again });
  const factory: RequestFactory = {
    batch(orders, opts = {}) {
      const { pairs, timestamp } = timeParams(opts, f);
      const bodyText = opts.rawBody ?? JSON.stringify(orders);
      const q = encodePairs(pairs);
      // A target declaring query-only batch signatures is signed its way (reported once under SIG-BODY-COVERED).
      const tp = f.batchSignature === 'query-only' ? q : totalParams(q, bodyText);
      const built = finish({ query: q, body: bodyText, contentType: 'application/json', path: path('batch'), route: { endpoint: 'batch', placement: 'json' } }, tp, opts, f, timestamp);
      return opts.timestamp === undefined ? fresh(built, () => factory.batch(orders, opts)) : built;
    },
    order(params, version, placement, opts = {}) {
      const { pairs: tpairs, timestamp } = timeParams(opts, f);
      const pairs: Array<[string, string]> = Object.entries(params)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]);
      pairs.push(...tpairs);
      const { query: q, body: b } = placeParams(pairs, placement, opts.splitAt);
      const built = finish(
        { query: q, body: b, contentType: b === '' ? undefined : 'application/x-www-form-urlencoded', path: path(version), route: { endpoint: version, placement } },
        totalParams(q, b),
        opts,
        f,
        timestamp,
      );
      return opts.timestamp === undefined ? fresh(built, () => factory.order(params, version, placement, opts)) : built;
    },
  };
  return factory;
}
