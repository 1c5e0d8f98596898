/**
 * The requests checks send, built by the core's one builder (src/core/request.ts) with
 * its deliberate defects (another string signed, the signature rewritten or left out,
 * the request tampered after signing, another secret or key) so a negative case
 * carries exactly one defect. This file only maps the checks' options onto it and
 * records the signing facts for the report.
 */
import type { RawRequest } from '../src/client/http.js';
import { buildRequest, type BuiltWireRequest, type Defects, type RequestSpec } from '../src/core/request.js';
import { orderEndpoint } from '../src/core/wire.js';
import { sign, type Placement } from '../src/signing/index.js';
import type { ApiVersion } from '../src/validation/index.js';
import type { SigningFacts } from './transport.js';

import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../src/client/requests.js';

/** The endpoint paths, as the client has them (§4.1, §4.2). */
export { BATCH_ORDERS_PATH as BATCH_PATH, ORDER_PATHS };

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

/** Send-side facts of a built request, for the report and replay. */
function factsOf(b: BuiltWireRequest, opts: SignOptions, timestamp: string | undefined): SigningFacts {
  const facts: SigningFacts = { signature: b.signature };
  if (opts.secret === undefined && !opts.signature && !opts.omitSignature) facts.signedString = b.signedString;
  if (timestamp !== undefined) {
    facts.timestamp = timestamp;
    if (/^\d+$/.test(timestamp)) facts.timestampShiftMs = Number(timestamp) - Date.now();
  }
  return facts;
}

/** The core builder's spec for these options (defects included). */
function coreSpec(opts: SignOptions, f: RequestFactoryOptions): Pick<RequestSpec, 'secret' | 'apiKey' | 'headers' | 'defects'> {
  const defects: Defects = {};
  if (opts.signedString) defects.signedString = opts.signedString;
  if (opts.signature) defects.signature = opts.signature;
  if (opts.omitSignature) defects.omitSignature = true;
  if (opts.tamper) defects.tamper = opts.tamper;
  return { secret: opts.secret ?? f.secret, apiKey: opts.apiKey === undefined ? f.apiKey : opts.apiKey, headers: opts.headers ?? {}, defects };
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

/** Make the request builders for one target: adapters over the core's one builder. */
export function createRequestFactory(f: RequestFactoryOptions): RequestFactory {
  return {
    batch(orders, opts = {}) {
      const { pairs, timestamp } = timeParams(opts, f);
      const built = buildRequest(sign, { endpoint: 'batchOrders', params: pairs, jsonText: opts.rawBody ?? JSON.stringify(orders), ...coreSpec(opts, f) });
      return { request: built.request, facts: factsOf(built, opts, timestamp) };
    },
    order(params, version, placement, opts = {}) {
      const { pairs: tpairs, timestamp } = timeParams(opts, f);
      const pairs: Array<[string, string]> = Object.entries(params)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]);
      pairs.push(...tpairs);
      const spec: RequestSpec = { endpoint: orderEndpoint(version).name, params: pairs, placement, ...coreSpec(opts, f) };
      if (opts.splitAt !== undefined) spec.splitAt = opts.splitAt;
      const built = buildRequest(sign, spec);
      return { request: built.request, facts: factsOf(built, opts, timestamp) };
    },
  };
}
