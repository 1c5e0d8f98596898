/**
 * Route mutants for the self-test: the reference server behind the variant
 * proxy with one fault on one route only, where a check probing a single route would
 * miss it. Each names the family whose checks must catch it; test harness only.
 */
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { defaultPolicy } from '../src/server/policy.js';
import { verify } from '../src/signing/hmac.js';
import { API_KEY_HEADER } from '../src/core/wire.js';
import { checkTimeWindow } from '../src/core/time.js';
import type { RuleFamily } from '../src/core/rule-id.js';
import { resign, type ProxiedRequest, type VariantOptions } from './variants.js';
import type { RouteKey } from '../conformance/engine/requests.js';

/** The request's signature is not the one its text needs (a wrong signature was sent). */
function badlySigned(r: ProxiedRequest): boolean {
  const sig =
    /(?:^|&)signature=([0-9a-fA-F]*)/.exec(r.query)?.[1] ?? /(?:^|&)signature=([0-9a-fA-F]*)/.exec(r.body)?.[1];
  return (
    sig !== undefined &&
    sig.toLowerCase() !==
      (/(?:^|&)signature=([0-9a-f]*)/.exec(resign(r, DEMO_SECRET).query)?.[1] ??
        /(?:^|&)signature=([0-9a-f]*)/.exec(resign(r, DEMO_SECRET).body)?.[1])
  );
}

export interface RouteMutant {
  name: string;
  family: RuleFamily;
  /** The checks of that family that catch it (check IDs, or prefixes of them): the self-test runs these. */
  caughtBy: readonly string[];
  options: VariantOptions;
}

/** Rewrite the requests of one route; others pass untouched. */
function on(
  route: RouteKey,
  f: (r: ProxiedRequest) => ProxiedRequest | { answer: { status: number; body: unknown } },
): VariantOptions {
  return { rewrite: (r) => (r.route === route ? f(r) : r) };
}

/** Change one parameter of the signed text (query or form body), then re-sign. */
function setParam(
  r: ProxiedRequest,
  name: string,
  value: (v: string | undefined) => string | undefined,
): ProxiedRequest {
  const edit = (part: string): string => {
    const pairs = part.split('&').filter((p) => p !== '');
    const i = pairs.findIndex((p) => p.startsWith(`${name}=`));
    const next = value(i === -1 ? undefined : decodeURIComponent(pairs[i]?.slice(name.length + 1) ?? ''));
    if (i !== -1) pairs.splice(i, 1);
    if (next !== undefined) pairs.unshift(`${name}=${encodeURIComponent(next)}`);
    return pairs.join('&');
  };
  const inQuery =
    r.query.split('&').some((p) => p.startsWith(`${name}=`)) || r.body === '' || r.route.startsWith('batch');
  return resign(inQuery ? { ...r, query: edit(r.query) } : { ...r, body: edit(r.body) }, DEMO_SECRET);
}

const KEY = API_KEY_HEADER;

export const routeMutants: readonly RouteMutant[] = [
  {
    name: 'API key not required on v1.1 split',
    family: 'AUTH',
    caughtBy: ['AUTH-APIKEY-REQUIRED'],
    options: on('v1.1/split', (r) =>
      r.headers[KEY] === undefined ? { ...r, headers: { ...r.headers, [KEY]: DEMO_API_KEY } } : r,
    ),
  },
  {
    name: 'signature never checked in the v1 form body placement',
    family: 'SIG',
    caughtBy: ['SIG-HMAC-SHA256-HEX.flipped-bit'],
    options: on('v1/body', (r) => resign(r, DEMO_SECRET)),
  },
  {
    name: 'case-sensitive signature on v1.1 query',
    family: 'SIG',
    caughtBy: ['SIG-CASE-INSENSITIVE'],
    options: on('v1.1/query', (r) =>
      /signature=[0-9a-f]*[A-F]/.test(r.query)
        ? { ...r, query: r.query.replace(/signature=[0-9a-fA-F]*/, 'signature=0') }
        : r,
    ),
  },
  {
    name: "'&' at the query/body join accepted on v1.1 split",
    family: 'SIG',
    caughtBy: ['SIG-TOTALPARAMS-NO-SEPARATOR'],
    // Whatever the client signed over, the proxy re-signs correctly: a server verifying another string.
    options: on('v1.1/split', (r) => resign(r, DEMO_SECRET)),
  },
  {
    name: 'no time check on v1.1 body',
    family: 'TIME',
    caughtBy: ['TIME-WINDOW-PAST.hour', 'TIME-WINDOW-LEAD.hour'],
    options: on('v1.1/body', (r) => setParam(r, 'timestamp', () => String(Date.now()))),
  },
  {
    name: 'timestamp not required on v1 split',
    family: 'TIME',
    caughtBy: ['TIME-TIMESTAMP-REQUIRED'],
    options: on('v1/split', (r) => setParam(r, 'timestamp', (v) => v ?? String(Date.now()))),
  },
  {
    name: 'recvWindow format unchecked on v1 body (a bad one dropped)',
    family: 'ORDER',
    caughtBy: ['ORDER-RECVWINDOW-FORMAT'],
    options: on('v1/body', (r) =>
      setParam(r, 'recvWindow', (v) => (v === undefined || /^\d+$/.test(v) ? v : undefined)),
    ),
  },
  {
    name: '256-character client ids cut to 255 on v1.1 split',
    family: 'ORDER',
    caughtBy: ['ORDER-CLIENT-ID-LENGTH'],
    options: on('v1.1/split', (r) => setParam(r, 'newClientOrderId', (v) => v?.slice(0, 255))),
  },
  {
    name: 'side not validated on v1.1',
    family: 'ORDER',
    caughtBy: ['ORDER-SIDE-ENUM'],
    options: {
      server: {
        policy: {
          validateOrder: (input, o) =>
            defaultPolicy
              .validateOrder(input, o)
              .filter((i) => !(o.version === 'v1.1' && i.ruleId === 'ORDER-SIDE-ENUM')),
        },
      },
    },
  },
  {
    name: 'MARKET orders refused in the v1.1 form body',
    family: 'ORDER',
    caughtBy: ['ORDER-V11-ENDPOINT'],
    options: on('v1.1/body', (r) =>
      /(^|&)type=MARKET/.test(r.body) ? { answer: { status: 400, body: { code: -1130, msg: 'type' } } } : r,
    ),
  },
  {
    name: 'an order refused for a wrong signature is placed all the same on v1.1 body',
    family: 'ROBUST',
    caughtBy: ['ROBUST-REJECT-PLACES-NOTHING.reuse'],
    options: on('v1.1/body', (r) =>
      badlySigned(r)
        ? { answer: { status: 401, body: { code: -1022, msg: 'signature' } }, forward: resign(r, DEMO_SECRET) }
        : r,
    ),
  },
  {
    name: 'signature verified over the parameters re-serialised, not as sent',
    family: 'SIG',
    caughtBy: ['SIG-HMAC-SHA256-HEX.encoded'],
    options: {
      server: {
        policy: {
          // A common server bug: parse the form, serialise it again, verify that text.
          verifySignature: (secret, steps, sig) =>
            steps.body.startsWith('[')
              ? defaultPolicy.verifySignature(secret, steps, sig)
              : verify(
                  secret,
                  new URLSearchParams(steps.queryWithoutSignature).toString() +
                    new URLSearchParams(steps.body).toString(),
                  sig,
                ),
        },
      },
    },
  },
  {
    name: 'a content type with parameters refused on the batch',
    family: 'SIG',
    caughtBy: ['SIG-HMAC-SHA256-HEX.http'],
    options: on('batch/json', (r) =>
      (r.headers['content-type'] ?? '').includes(';')
        ? { answer: { status: 415, body: { code: -1000, msg: 'content type' } } }
        : r,
    ),
  },
  {
    name: 'recvWindow ignored (always 5000), and no Date header to measure the clock by',
    family: 'TIME',
    caughtBy: ['TIME-RECVWINDOW-HONOURED.width'],
    options: {
      noDateHeader: true,
      server: { policy: { checkTime: (i) => checkTimeWindow({ ...i, recvWindow: undefined }) } },
    },
  },
  {
    name: 'a 60 s default window, and no Date header to measure the clock by',
    family: 'TIME',
    caughtBy: ['TIME-RECVWINDOW-DEFAULT.width'],
    options: {
      noDateHeader: true,
      server: { policy: { checkTime: (i) => checkTimeWindow({ ...i, recvWindow: i.recvWindow ?? 60_000 }) } },
    },
  },
  {
    name: 'a wrong signature and a stale timestamp cancel out on v1 body (accepted, re-stamped)',
    family: 'ROBUST',
    caughtBy: ['ROBUST-REJECT-PLACES-NOTHING.combined'],
    options: on('v1/body', (r) => {
      const ts = /(?:^|&)timestamp=(\d+)/.exec(r.body)?.[1] ?? /(?:^|&)timestamp=(\d+)/.exec(r.query)?.[1];
      return badlySigned(r) && ts !== undefined && Number(ts) < Date.now() - 600_000
        ? setParam(r, 'timestamp', () => String(Date.now()))
        : r;
    }),
  },
  {
    name: 'a chunked body refused (411) on v1.1 split',
    family: 'SIG',
    caughtBy: ['SIG-HMAC-SHA256-HEX.http'],
    options: on('v1.1/split', (r) =>
      r.headers['transfer-encoding'] === 'chunked'
        ? { answer: { status: 411, body: { code: -1000, msg: 'length required' } } }
        : r,
    ),
  },
  {
    name: 'transactTime in seconds',
    family: 'RESULT',
    caughtBy: ['RESULT-TRANSACT-TIME-MS'],
    options: {
      rewriteResponse: (t) =>
        t.replace(/"transactTime":"(\d+)"/g, (_m, ms: string) => `"transactTime":"${Math.floor(Number(ms) / 1000)}"`),
    },
  },
  {
    name: 'executedQty above origQty',
    family: 'RESULT',
    caughtBy: ['RESULT-EXECUTED-QTY'],
    options: { rewriteResponse: (t) => t.replace(/"executedQty":"[0-9.]+"/g, '"executedQty":"999999999"') },
  },
  {
    name: 'a 500 for malformed parameter text on v1 query',
    family: 'ROBUST',
    caughtBy: ['ROBUST-NO-5XX.malformed-form'],
    options: on('v1/query', (r) =>
      r.query.includes('%zz') ? { answer: { status: 500, body: { code: -1, msg: 'parse error' } } } : r,
    ),
  },
];
