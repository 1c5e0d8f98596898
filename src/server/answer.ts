/**
 * What the reference answers to one request, once it is read: routing (§4, D-PREFIX), the body
 * limit (D-BODY-LIMIT) and the endpoint handlers (§4.1, §4.2). The server answers through these;
 * the kit's reference profile asks `referenceReply` what the reference would have answered to
 * each request a run sent (RESULT-REFERENCE-ANSWER).
 */
import { ApiCode, reject } from '../core/codes.js';
import { SEED_WIRE, type WireProfile } from '../core/wire.js';
import { handleBatch } from './batch.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import type { HandlerDeps, RequestInput } from './handler.js';
import { handleOrder } from './order.js';
import { splitTarget } from './params.js';
import { resolvePolicy, type Credential, type Endpoint } from './policy.js';
import { rejectionReply, type Reply } from './respond.js';
import { route, routesOf } from './router.js';
import { OrderStore } from './store.js';

/** The answer to a body larger than the limit (D-BODY-LIMIT): HTTP 413, code -1000. */
export function tooLargeReply(limit: number): Reply {
  return rejectionReply(
    reject('body-too-large', 413, ApiCode.REQUEST, `The body is larger than ${limit} bytes (D-BODY-LIMIT)`),
  );
}

/** The answer of an order endpoint to a request read whole. */
export function endpointReply(input: RequestInput, endpoint: Exclude<Endpoint, 'none'>, deps: HandlerDeps): Reply {
  const ep = deps.wire.endpoints[endpoint];
  return ep.bodyKind === 'json' ? handleBatch(input, ep, deps) : handleOrder(input, ep, deps);
}

/** One request as sent: method, target (path and query), headers by name in any letter case, body text. */
export interface SentRequest {
  method: string;
  target: string;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** Who the reference would know and what time it would read. */
export interface ReferenceSetting {
  credentials: ReadonlyArray<Credential>;
  /** The server's time the request is read at, ms. */
  now: number;
  /** The wire served (header name, paths); default the seed's. */
  wire?: WireProfile;
}

/**
 * The reference's answer to `req` read at `setting.now` by a fresh server (no order placed yet:
 * a newClientOrderId is a duplicate only within the request itself). Pure.
 */
export function referenceReply(req: SentRequest, setting: ReferenceSetting): Reply {
  const wire = setting.wire ?? SEED_WIRE;
  const { path, rawQuery } = splitTarget(req.target);
  const r = route(req.method, path, routesOf(wire));
  if (!r.ok) return r.reply;
  if (Buffer.byteLength(req.body) > DEFAULT_BODY_LIMIT) return tooLargeReply(DEFAULT_BODY_LIMIT);
  // as HTTP/1.1 reads headers: blanks around a value dropped (RFC 9110 §5.5, D-HEADER-OWS), repeats joined by ", "
  const header = (name: string): string | undefined => {
    const lower = name.toLowerCase();
    const values = Object.entries(req.headers)
      .filter(([k]) => k.toLowerCase() === lower)
      .map(([, v]) => v.replace(/^[ \t]+|[ \t]+$/g, ''));
    return values.length === 0 ? undefined : values.join(', ');
  };
  const accountIds = new Map(setting.credentials.map((c, i) => [c.apiKey, String(1_000_000_001 + i)]));
  return endpointReply(
    {
      rawQuery,
      body: req.body,
      contentType: header('content-type'),
      apiKeyHeader: header(wire.apiKeyHeader),
      path,
      method: req.method,
    },
    r.endpoint,
    {
      wire,
      policy: resolvePolicy(),
      credentials: setting.credentials,
      clock: () => setting.now,
      store: new OrderStore(64, 1),
      accountIdOf: (apiKey) => accountIds.get(apiKey) ?? '0',
    },
  );
}
