/**
 * The requests checks send, built by the core's one builder (src/core/request.ts) with
 * its deliberate defects (another string signed, the signature rewritten or left out,
 * the request tampered after signing, another secret or key) so a negative case
 * carries exactly one defect. This file only maps the checks' options onto it and
 * records the signing facts for the report.
 */
import type { RawRequest } from '../../src/client/http.js';
import { buildRequest, type BuiltRequest, type Defects, type RequestSpec } from '../../src/core/request.js';
import { orderEndpoint, wireWith, type EndpointName, type WireProfile } from '../../src/core/wire.js';
import { sign } from '../../src/signing/hmac.js';
import type { Placement } from '../../src/core/signing/build.js';
import type { ApiVersion } from '../../src/core/validation/order.js';
import { isSignatureEdit } from './sig-edits.js';

/** Where a request goes: the endpoint and, for single orders, the placement (§5.3); the batch carries JSON. */
export interface Route {
  endpoint: EndpointName;
  placement: Placement | 'json';
}

/** A route as one word: the batch carries JSON, a single order travels in one placement (§5.3); a misspelt key is a compile error. */
export type RouteKey = 'batch/json' | `${Exclude<EndpointName, 'batch'>}/${Placement}`;

/** The route as one word, e.g. `v1.1/split` or `batch/json`: the key of positive controls. */
export function routeKey(r: Route): RouteKey {
  return `${r.endpoint}/${r.placement}` as RouteKey;
}

/** How a request was signed and where it went, carried into its exchange (for the curl reproduction). */
export interface SigningFacts {
  /** The string the signature was computed over, when it is a genuine HMAC with the target's secret. */
  signedString?: string;
  /** The timestamp value used, so a reproduction can substitute a fresh one. */
  timestamp?: string;
  /** `timestamp` minus the local clock when the request was built (clock offset plus intended age). */
  timestampShiftMs?: number;
  /** The signature value sent. */
  signature?: string;
  /** bash rewriting the genuine `$SIG` into the value sent (a deliberate signature defect, conformance/engine/sig-edits.ts). */
  signatureEdit?: string;
  /** Signed with the target's secret followed by this text (a deliberately wrong secret). */
  secretSuffix?: string;
  /** Signed with another secret the shell holds in this variable (the no-TRADE key's), instead of `$SPOTCHECK_SECRET`. */
  secretVariable?: string;
  /** The endpoint and placement the request went to (the key of its positive control). */
  route?: Route;
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
  /** Other secrets a printed curl can read from a shell variable (the no-TRADE key's), never printed. */
  namedSecrets?: ReadonlyArray<{ secret: string; variable: string }>;
  /** The recvWindow a request without its timestamp carries (default 5000, §5.4 item 2; the target's maximum when smaller). */
  defaultRecvWindow?: number;
}

/** The target's wire: the seed's, with its header name and paths (target description). */
function wireOf(f: RequestFactoryOptions): WireProfile {
  return wireWith(f.apiKeyHeader, f.paths);
}

/** Send-side facts of a built request, for the report and replay. */
function factsOf(
  b: BuiltRequest,
  opts: SignOptions,
  f: RequestFactoryOptions,
  timestamp: string | undefined,
  route: Route,
): SigningFacts {
  const facts: SigningFacts = { signature: b.signature, route };
  // The shell can redo the signature when it is made with the target's secret (or it plus a known suffix)
  // and any rewrite of it has a shell form (a printed curl re-signs, then applies the defect).
  const named = opts.secret === undefined ? undefined : f.namedSecrets?.find((n) => n.secret === opts.secret);
  const secretOk =
    opts.secret === undefined || named !== undefined || (opts.secret.startsWith(f.secret) && opts.secret !== f.secret);
  const editOk = opts.signature === undefined || isSignatureEdit(opts.signature);
  if (secretOk && editOk && !opts.omitSignature) {
    facts.signedString = b.signedString;
    if (named !== undefined) facts.secretVariable = named.variable;
    else if (opts.secret !== undefined) facts.secretSuffix = opts.secret.slice(f.secret.length);
    if (isSignatureEdit(opts.signature)) facts.signatureEdit = opts.signature.shell;
  }
  if (timestamp !== undefined) {
    facts.timestamp = timestamp;
    if (/^\d+$/.test(timestamp)) facts.timestampShiftMs = Number(timestamp) - Date.now();
  }
  return facts;
}

/** The core builder's spec for these options (defects included). */
function coreSpec(
  opts: SignOptions,
  f: RequestFactoryOptions,
): Pick<RequestSpec, 'secret' | 'apiKey' | 'headers' | 'defects'> {
  const defects: Defects = {};
  if (opts.signedString) defects.signedString = opts.signedString;
  if (opts.signature) defects.signature = opts.signature;
  if (opts.omitSignature) defects.omitSignature = true;
  if (opts.tamper) defects.tamper = opts.tamper;
  return {
    secret: opts.secret ?? f.secret,
    apiKey: opts.apiKey === undefined ? f.apiKey : opts.apiKey,
    headers: opts.headers ?? {},
    defects,
  };
}

export interface RequestFactory {
  /** A signed batch request (§4.1): time parameters and signature in the query, the JSON text as body. */
  batch(orders: unknown, opts?: SignOptions & { rawBody?: string }): Built;
  /** A signed single-order request (§4.2) in one placement (§5.3). */
  order(
    params: Record<string, unknown>,
    version: ApiVersion,
    placement: Placement,
    opts?: SignOptions & { splitAt?: number },
  ): Built;
  /** One order on a route (the route table's one builder): the batch's only element, or single-order parameters in the route's placement. */
  onRoute(route: Route, order: Record<string, unknown>, opts?: SignOptions & { splitAt?: number }): Built;
}

function timeParams(
  opts: SignOptions,
  f: RequestFactoryOptions,
): { pairs: Array<[string, string]>; timestamp?: string } {
  const pairs: Array<[string, string]> = [];
  let timestamp: string | undefined;
  if (opts.recvWindow !== undefined) pairs.push(['recvWindow', String(opts.recvWindow)]);
  // A request without its timestamp still carries a time parameter before its signature: the default
  // window, which changes nothing. Otherwise the signature pair would stand first in the query of a batch,
  // a second difference from an accepted request (a server finding the pair only after "&" refuses it
  // at the signature, and the probe never reaches its rule).
  else if (opts.omitTimestamp === true) pairs.push(['recvWindow', String(f.defaultRecvWindow ?? 5000)]);
  if (!opts.omitTimestamp) {
    timestamp = String(opts.timestamp ?? Math.round(f.serverNow()));
    pairs.push(['timestamp', timestamp]);
  }
  return timestamp === undefined ? { pairs } : { pairs, timestamp };
}

/** Make the request builders for one target: adapters over the core's one builder. */
export function createRequestFactory(f: RequestFactoryOptions): RequestFactory {
  const wire = wireOf(f);
  // A retry re-signs with a fresh timestamp unless the check fixed one on purpose.
  const fresh = (b: Built, again: () => Built, opts: SignOptions): Built =>
    opts.timestamp === undefined ? { ...b, rebuild: again } : b;
  const factory: RequestFactory = {
    batch(orders, opts = {}) {
      const { pairs, timestamp } = timeParams(opts, f);
      const spec = coreSpec(opts, f);
      // A target declaring query-only batch signatures is signed its way (reported once under SIG-BODY-COVERED).
      if (f.batchSignature === 'query-only' && spec.defects?.signedString === undefined)
        spec.defects = { ...spec.defects, signedString: (_tp, q) => q };
      const built = buildRequest(
        sign,
        { endpoint: 'batch', params: pairs, jsonText: opts.rawBody ?? JSON.stringify(orders), ...spec },
        wire,
      );
      const b = {
        request: built.request,
        facts: factsOf(built, opts, f, timestamp, { endpoint: 'batch', placement: 'json' }),
      };
      return fresh(b, () => factory.batch(orders, opts), opts);
    },
    order(params, version, placement, opts = {}) {
      const { pairs: tpairs, timestamp } = timeParams(opts, f);
      const pairs: Array<[string, string]> = Object.entries(params)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]);
      pairs.push(...tpairs);
      const spec: RequestSpec = {
        endpoint: orderEndpoint(version).name,
        params: pairs,
        placement,
        ...coreSpec(opts, f),
      };
      if (opts.splitAt !== undefined) spec.splitAt = opts.splitAt;
      const built = buildRequest(sign, spec, wire);
      const b = { request: built.request, facts: factsOf(built, opts, f, timestamp, { endpoint: version, placement }) };
      return fresh(b, () => factory.order(params, version, placement, opts), opts);
    },
    onRoute(route, order, opts = {}) {
      if (route.endpoint === 'batch') return factory.batch([order], opts);
      return factory.order(order, route.endpoint, route.placement === 'json' ? 'query' : route.placement, opts);
    },
  };
  return factory;
}
