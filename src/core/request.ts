/**
 * The one request builder (§4.1, §4.2, §5.2, §5.3): signed requests in every placement
 * of an endpoint of a {@link WireProfile}, and, on demand, deliberately defective ones
 * (a parameter left out, another string signed, the signature rewritten or left out,
 * the request tampered after signing, another secret or key, no key header) so probes
 * carry exactly the defect they name. The HMAC primitive is injected.
 */
import type { HmacHex } from './signing/hmac.js';
import { encodePairs } from './signing/query.js';
import { placeParams, type Params, type SignedRequest } from './signing/build.js';
import { totalParams } from './signing/total-params.js';
import { SEED_WIRE, type EndpointName, type WireProfile } from './wire.js';

/** One request exactly as it goes on the wire (the client's `RawRequest` has this shape). */
export interface WireRequest {
  method: string;
  /** Path without query. */
  path: string;
  /** Raw query string without `?`. */
  query: string;
  /** Raw body ('' for none). */
  body: string;
  /** Header names and values, sent as given. */
  headers: Record<string, string>;
}

/** Deliberate defects; each applies after the genuine signing steps. */
export interface Defects {
  /** Leave these parameters out (by name) before signing. */
  omit?: ReadonlyArray<string>;
  /** Sign another string than the one sent (e.g. with `&` at the join). */
  signedString?: (totalParams: string, query: string, body: string) => string;
  /** Rewrite the signature value (flip a digit, change case, truncate). */
  signature?: (sig: string) => string;
  /** Leave the signature pair out. */
  omitSignature?: boolean;
  /** Rewrite the request after signing (change a signed byte). */
  tamper?: (req: WireRequest) => WireRequest;
}

/** What to build. */
export interface RequestSpec {
  /** Which endpoint of the wire profile. */
  endpoint: EndpointName;
  /**
   * Ordered parameters: for a form endpoint all of them (order fields and time
   * parameters); for the JSON-body batch the query parameters (time parameters).
   */
  params: Params;
  /** The JSON text of a JSON-body endpoint, sent and signed as is. */
  jsonText?: string;
  /** Form endpoints: all in the query, all in the form body, or split (§5.3). */
  placement?: 'query' | 'body' | 'split';
  /** For `split`: how many leading params go to the query (default: half, rounded up). */
  splitAt?: number;
  /**
   * Where the signature pair goes (§5.3 item 1: query or body). Default: the form body
   * for `body` placement, the query otherwise (a JSON body never carries it).
   */
  signatureIn?: 'query' | 'body';
  /** HMAC key. */
  secret: string;
  /** API key header value; `null` leaves the header out (§5.2). */
  apiKey: string | null;
  /** Extra headers, set last (e.g. another content type). */
  headers?: Readonly<Record<string, string>>;
  /** Deliberate defects (none for a valid request). */
  defects?: Defects;
}

/** A built request, the genuine signing steps and what was actually signed and sent. */
export interface BuiltRequest {
  request: WireRequest;
  /** The request as signed: query and body as sent, content type, and each step. */
  signed: SignedRequest;
  /** The string the signature was computed over (totalParams unless a defect changed it). */
  signedString: string;
  /** The signature value as sent (after any rewrite). */
  signature: string;
}

/** Build one request: place, sign (with `hmac`), attach the key, apply the defects. */
export function buildRequest(hmac: HmacHex, spec: RequestSpec, wire: WireProfile = SEED_WIRE): BuiltRequest {
  const ep = wire.endpoints[spec.endpoint];
  const d = spec.defects ?? {};
  const omit = new Set(d.omit ?? []);
  const params = omit.size === 0 ? spec.params : spec.params.filter(([k]) => !omit.has(k));
  const json = ep.bodyKind === 'json';
  const { query: q, body: b } = json
    ? { query: encodePairs(params), body: spec.jsonText ?? '' }
    : placeParams(params, spec.placement ?? 'query', spec.splitAt);
  const tp = totalParams(q, b);
  const signedString = d.signedString ? d.signedString(tp, q, b) : tp;
  const genuine = hmac(spec.secret, signedString);
  const signature = d.signature ? d.signature(genuine) : genuine;
  const inBody = !json && (spec.signatureIn ?? (spec.placement === 'body' ? 'body' : 'query')) === 'body';
  let query = q;
  let body = b;
  if (!d.omitSignature) {
    const pair = `${wire.signatureParam}=${signature}`;
    if (inBody) body = body === '' ? pair : `${body}&${pair}`;
    else query = query === '' ? pair : `${query}&${pair}`;
  }
  const contentType = json || body !== '' ? ep.contentType : undefined;
  const headers: Record<string, string> = {};
  if (spec.apiKey !== null) headers[wire.apiKeyHeader] = spec.apiKey;
  if (contentType !== undefined) headers['content-type'] = contentType;
  Object.assign(headers, spec.headers ?? {});
  let request: WireRequest = { method: ep.method, path: ep.path, query, body, headers };
  if (d.tamper) request = d.tamper(request);
  const signed: SignedRequest = {
    query,
    body,
    ...(contentType === undefined ? {} : { contentType }),
    steps: { queryWithoutSignature: q, body: b, totalParams: tp, signature: genuine },
  };
  return { request, signed, signedString, signature };
}
