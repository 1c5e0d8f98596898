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

import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../src/client/requests.js';

/** The endpoint paths, as the client has them (§4.1, §4.2). */
export { BATCH_ORDERS_PATH as BATCH_PATH, ORDER_PATHS };
const BATCH_PATH = BATCH_ORDERS_PATH;

/** A request ready to send and the facts of its signature. */
export interface Built {
  request: RawRequest;
  facts: SigningFacts;
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
}

function finish(
  base: { query: string; body: string; contentType: string | undefined; path: string },
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
  if (key !== null) headers[API_KEY_HEADER] = key;
  if (base.contentType !== undefined) headers['content-type'] = base.contentType;
  Object.assign(headers, opts.headers ?? {});
  let request: RawRequest = { method: 'POST', path: base.path, query, body, headers };
  if (opts.tamper) request = opts.tamper(request);
  const facts: SigningFacts = { signature: sig };
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
  return {
    batch(orders, opts = {}) {
      const { pairs, timestamp } = timeParams(opts, f);
      const bodyText = opts.rawBody ?? JSON.stringify(orders);
      const q = encodePairs(pairs);
      return finish({ query: q, body: bodyText, contentType: 'application/json', path: BATCH_PATH }, totalParams(q, bodyText), opts, f, timestamp);
    },
    order(params, version, placement, opts = {}) {
      const { pairs: tpairs, timestamp } = timeParams(opts, f);
      const pairs: Array<[string, string]> = Object.entries(params)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]);
      pairs.push(...tpairs);
      const { query: q, body: b } = placeParams(pairs, placement, opts.splitAt);
      return finish(
        { query: q, body: b, contentType: b === '' ? undefined : 'application/x-www-form-urlencoded', path: ORDER_PATHS[version] },
        totalParams(q, b),
        opts,
        f,
        timestamp,
      );
    },
  };
}
