/**
 * The rules a client must keep (seed §2.1, §4.1, §5.2-§5.4, §8), each a pure function over
 * one recorded request and what the session saw before it. The signer, the validators,
 * the time rule and the doctor are the library's own: nothing here signs or validates twice.
 */
import { createHash } from 'node:crypto';
import { diagnose, type Diagnosis } from '../../src/core/doctor/diagnose.js';
import { verifyWith } from '../../src/core/signing/hmac.js';
import { parsePairs, rawPairs, SIGNATURE_PARAM } from '../../src/core/signing/query.js';
import { signingSteps, type BodyKind } from '../../src/core/signing/total-params.js';
import { checkTimeWindow, DEFAULT_RECV_WINDOW, MAX_LEAD_MS } from '../../src/core/time.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import type { Issue } from '../../src/core/validation/issue.js';
import { validateOrder } from '../../src/core/validation/order.js';
import { checkTimeParams, MAX_RECV_WINDOW } from '../../src/core/validation/time-params.js';
import { API_KEY_HEADER, endpointAt, SEED_WIRE, type EndpointSpec, type WireProfile } from '../../src/core/wire.js';
import { rule } from '../../src/rules.js';
import { sign } from '../../src/signing/hmac.js';

/** Stable IDs of the client rules (names, never positions). */
export const CLIENT_RULE_IDS = [
  'CLIENT-APIKEY-HEADER',
  'CLIENT-SIGNATURE',
  'CLIENT-PLACEMENT',
  'CLIENT-ENCODING',
  'CLIENT-CONTENT-TYPE',
  'CLIENT-TIMESTAMP',
  'CLIENT-RECVWINDOW',
  'CLIENT-RETRY-RESIGNED',
  'CLIENT-ID-UNIQUE',
  'CLIENT-ID-LENGTH',
  'CLIENT-BATCH-SIZE',
  'CLIENT-BATCH-ONE-SYMBOL',
  'CLIENT-DECIMAL-FORM',
  'CLIENT-ORDER-FIELDS',
  'CLIENT-BACKOFF',
] as const;
export type ClientRuleId = (typeof CLIENT_RULE_IDS)[number];

/** One client rule: its seed section, the server-side catalog rules it mirrors, and the requirement. */
export interface ClientRule {
  id: ClientRuleId;
  section: string;
  catalog: string[];
  requirement: string;
}

/** A rule's requirement on the wire served: the API-key header it names is that wire's (a target description may name another). */
export function requirementOn(rule: ClientRule, wire: WireProfile = SEED_WIRE): string {
  return rule.requirement.split(API_KEY_HEADER).join(wire.apiKeyHeader);
}

/** The client rules, in report order (their requirements name the seed's wire; {@link requirementOn} another). */
export const CLIENT_RULES: Readonly<Record<ClientRuleId, ClientRule>> = {
  'CLIENT-APIKEY-HEADER': {
    id: 'CLIENT-APIKEY-HEADER',
    section: '5.2',
    catalog: ['AUTH-APIKEY-REQUIRED', 'AUTH-APIKEY-UNKNOWN'],
    requirement: 'Every signed request carries the X-SVC-APIKEY header with the issued API key.',
  },
  'CLIENT-SIGNATURE': {
    id: 'CLIENT-SIGNATURE',
    section: '5.3',
    catalog: ['SIG-REQUIRED', 'SIG-HMAC-SHA256-HEX', 'SIG-TOTALPARAMS-NO-SEPARATOR', 'SIG-BODY-COVERED'],
    requirement:
      'signature is the hex HMAC-SHA256, keyed with the secret, of the query string as sent directly followed by the body as sent, the signature pair left out.',
  },
  'CLIENT-PLACEMENT': {
    id: 'CLIENT-PLACEMENT',
    section: '4.1, 5.3',
    catalog: [
      'SIG-PLACEMENT-QUERY',
      'SIG-PLACEMENT-BODY',
      'SIG-PLACEMENT-SPLIT',
      'BATCH-TIME-IN-QUERY',
      'BATCH-JSON-BODY',
    ],
    requirement:
      'Single orders: parameters in the query string, a form body, or split, each name once. Batch: a JSON array body, timestamp, recvWindow and signature in the query string.',
  },
  'CLIENT-ENCODING': {
    id: 'CLIENT-ENCODING',
    section: '5.3',
    catalog: ['SIG-HMAC-SHA256-HEX'],
    requirement:
      'Query string and form body are percent-encoded name=value pairs joined by single `&` (no raw spaces, non-ASCII or malformed escapes).',
  },
  'CLIENT-CONTENT-TYPE': {
    id: 'CLIENT-CONTENT-TYPE',
    section: '4.1',
    catalog: ['BATCH-JSON-BODY'],
    requirement:
      'A batch body is sent as Content-Type: application/json; a single-order form body as application/x-www-form-urlencoded (D-CONTENT-TYPE).',
  },
  'CLIENT-TIMESTAMP': {
    id: 'CLIENT-TIMESTAMP',
    section: '5.4',
    catalog: ['TIME-TIMESTAMP-REQUIRED', 'TIME-WINDOW-PAST', 'TIME-WINDOW-LEAD'],
    requirement:
      'timestamp is the request time in milliseconds: not older than recvWindow and less than 1000 ms ahead of the server clock when the server receives it.',
  },
  'CLIENT-RECVWINDOW': {
    id: 'CLIENT-RECVWINDOW',
    section: '5.4 item 2',
    catalog: ['TIME-RECVWINDOW-RECOMMENDED', 'ORDER-RECVWINDOW-FORMAT'],
    requirement:
      'recvWindow, when sent, is a whole number of milliseconds of 5000 or less (the seed recommends it), and within the cap the target declares.',
  },
  'CLIENT-RETRY-RESIGNED': {
    id: 'CLIENT-RETRY-RESIGNED',
    section: '5.3, 5.4',
    catalog: ['TIME-WINDOW-PAST'],
    requirement:
      'A request sent again is built afresh: a new timestamp and a new signature. Sending the same bytes twice (a replay) is a finding.',
  },
  'CLIENT-ID-UNIQUE': {
    id: 'CLIENT-ID-UNIQUE',
    section: '2.1',
    catalog: ['ORDER-CLIENT-ID-DUPLICATE'],
    requirement:
      'A newClientOrderId names one order: never reused for another order, nor sent again once the order was placed, nor twice in one batch.',
  },
  'CLIENT-ID-LENGTH': {
    id: 'CLIENT-ID-LENGTH',
    section: '2.1, 8',
    catalog: ['ORDER-CLIENT-ID-LENGTH'],
    requirement: 'A newClientOrderId is 1 to 255 characters.',
  },
  'CLIENT-BATCH-SIZE': {
    id: 'CLIENT-BATCH-SIZE',
    section: '4.1 rule 1, 8',
    catalog: ['BATCH-MAX-ORDERS', 'BATCH-EMPTY'],
    requirement: 'A batch holds 1 to 20 orders.',
  },
  'CLIENT-BATCH-ONE-SYMBOL': {
    id: 'CLIENT-BATCH-ONE-SYMBOL',
    section: '4.1 rule 2',
    catalog: ['BATCH-SINGLE-SYMBOL'],
    requirement: 'All orders of one batch are for the same symbol.',
  },
  'CLIENT-DECIMAL-FORM': {
    id: 'CLIENT-DECIMAL-FORM',
    section: '2.1',
    catalog: ['ORDER-DECIMAL-FORMAT'],
    requirement:
      'quantity, price and amount are positive decimals in plain notation (a JSON number or decimal string in a batch; digits and one point in a form), never an exponent or a comma.',
  },
  'CLIENT-ORDER-FIELDS': {
    id: 'CLIENT-ORDER-FIELDS',
    section: '2.1, 4.2',
    catalog: ['ORDER-SYMBOL-REQUIRED', 'ORDER-SIDE-ENUM', 'ORDER-TYPE-ENUM', 'ORDER-PRICE-REQUIRED-LIMIT'],
    requirement:
      'Each order has the fields of its endpoint version: symbol, side, type, quantity (v1), amount only on v1.1 MARKET, price for LIMIT and LIMIT_MAKER.',
  },
  'CLIENT-BACKOFF': {
    id: 'CLIENT-BACKOFF',
    section: '8',
    catalog: [],
    requirement:
      'After a 429 with Retry-After, the client waits at least that long before it sends again (RFC 9110 §10.2.3; the seed shows no rate limits, §8).',
  },
};

/** One request as the grading server received it (the bytes as sent; the secret is never part of it). */
export interface RecordedRequest {
  /** Order of arrival in the session, from 1. */
  seq: number;
  /** Server clock when the request was complete, epoch ms. */
  receivedAt: number;
  method: string;
  /** Path without the query. */
  path: string;
  /** Raw query string without `?`. */
  query: string;
  /** Raw body text. */
  body: string;
  /** Header names in lower case, values as sent (repeated ones joined with `, `). */
  headers: Record<string, string>;
}

/** What one request says, read once: endpoint, placement, parameters, orders, client ids. */
export interface RequestFacts {
  endpoint?: EndpointSpec;
  bodyKind: BodyKind;
  /** Where the signed parameters were: query string, body, or both. */
  placement: 'query' | 'body' | 'split' | 'none';
  /** Decoded parameters of query and form body, in order, duplicates kept. */
  pairs: Array<[string, string]>;
  signature?: string;
  timestamp?: string;
  recvWindow?: string;
  /** The orders of the request: the form/query fields of a single order, the array entries of a batch. */
  orders: unknown[];
  /** The batch body parsed, or undefined (not JSON, or not a batch). */
  batch?: unknown;
  /** Client order ids sent, in order. */
  clientOrderIds: string[];
}

const NOT_ORDER_FIELDS = new Set([SIGNATURE_PARAM, 'timestamp', 'recvWindow']);

/** The media type of a Content-Type value (lower case, no parameters). */
export function mediaTypeOf(v: string | undefined): string {
  return (v ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Read the facts of one recorded request (§4.1, §4.2, §5.3), its endpoint found among the paths `wire` serves. */
export function factsOf(r: RecordedRequest, wire: WireProfile = SEED_WIRE): RequestFacts {
  const endpoint = endpointAt(r.path, wire);
  const bodyKind: BodyKind =
    r.body === '' ? 'none' : endpoint?.bodyKind === 'json' || /^\s*[[{]/.test(r.body) ? 'json' : 'form';
  const q = parsePairs(r.query);
  const b = bodyKind === 'form' ? parsePairs(r.body) : [];
  const pairs = [...q, ...b];
  const get = (k: string): string | undefined => pairs.find(([n]) => n === k)?.[1];
  const qSigned = q.some(([k]) => k !== SIGNATURE_PARAM);
  const bSigned = b.some(([k]) => k !== SIGNATURE_PARAM) || bodyKind === 'json';
  const placement = qSigned && bSigned ? 'split' : qSigned ? 'query' : bSigned ? 'body' : 'none';
  let orders: unknown[] = [];
  let batch: unknown;
  if (bodyKind === 'json') {
    try {
      batch = JSON.parse(r.body);
      orders = Array.isArray(batch) ? batch : [batch];
    } catch {
      batch = undefined;
    }
  } else {
    const fields = Object.create(null) as Record<string, string>;
    for (const [k, v] of pairs) if (!NOT_ORDER_FIELDS.has(k)) fields[k] = v;
    if (Object.keys(fields).length > 0) orders = [fields];
  }
  const clientOrderIds = orders.flatMap((o) => {
    const id = typeof o === 'object' && o !== null ? (o as { newClientOrderId?: unknown }).newClientOrderId : undefined;
    return typeof id === 'string' ? [id] : [];
  });
  const out: RequestFacts = { bodyKind, placement, pairs, orders, clientOrderIds };
  if (endpoint !== undefined) out.endpoint = endpoint;
  if (batch !== undefined) out.batch = batch;
  const sig = get(SIGNATURE_PARAM);
  if (sig !== undefined) out.signature = sig;
  const ts = get('timestamp');
  if (ts !== undefined) out.timestamp = ts;
  const rw = get('recvWindow');
  if (rw !== undefined) out.recvWindow = rw;
  return out;
}

/** The outcome of one rule on one request. */
export interface RuleResult {
  rule: ClientRuleId;
  kept: boolean;
  /**
   * Not kept, but what it breaks is no MUST of the seed: a recommendation (§5.4 item 2), an open
   * point (spec/decisions.md) or another document's rule (RFC 9110 Retry-After). A warning: it
   * never makes the client BROKEN nor sets the exit code.
   */
  advisory?: true;
  /** What was wrong (a broken rule) or what was seen, one sentence. */
  detail: string;
  /** The signature doctor's reading of a wrong signature (CLIENT-SIGNATURE). */
  diagnosis?: Diagnosis;
}

/** What the session knows when a request arrives. */
export interface GradeContext {
  /** The API key and secret the server accepts (held in memory only). */
  apiKey: string;
  secret: string;
  /** Earlier requests by their exact bytes (method, path, query, body): their seq. */
  seenBytes: ReadonlyMap<string, number>;
  /** Client order ids already placed (accepted), and the order fields each was sent with. */
  placedIds: ReadonlySet<string>;
  /** Each client order id seen so far and the fields it was first sent with (a canonical text). */
  idFields: ReadonlyMap<string, string>;
  /** Earlier requests by their content (orders without time and signature, {@link contentKey}): their seq. */
  seenContent: ReadonlyMap<string, number>;
  /** When the last rate-limited answer allows the next request (server ms), if one is pending. */
  retryNotBefore?: number;
  /** The largest recvWindow the target declares (`--recv-window-cap`), ms. */
  recvWindowCap?: number;
  /** The wire served (API-key header name, paths): the seed's unless a target description says otherwise. */
  wire?: WireProfile;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** The identity of a request's exact bytes (a replay repeats it), as a digest: a long session keeps 43 characters per request. */
export function bytesKey(r: RecordedRequest): string {
  return digest(`${r.method} ${r.path}?${r.query}\n${r.body}`);
}

/** What a request asks for, without its time and signature: a retry of it has the same content. */
export function contentKey(r: RecordedRequest, f: RequestFacts): string {
  if (f.orders.length > 0)
    return digest(`${r.method} ${r.path} ${f.orders.map((o) => orderKey(withoutTime(o))).join('|')}`);
  const rest = f.pairs.filter(([k]) => !NOT_ORDER_FIELDS.has(k)).map(([k, v]) => `${k}=${v}`);
  return digest(`${r.method} ${r.path} ${rest.join('&')} ${f.bodyKind === 'json' ? r.body : ''}`);
}

/** An order's fields as one canonical text (same order with a fresh timestamp gives the same text). */
export function orderKey(o: unknown): string {
  if (typeof o !== 'object' || o === null) return JSON.stringify(o) ?? '';
  const rec = o as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(rec)
      .sort()
      .map((k) => [k, String(rec[k])]),
  );
}

const RFC3986_PAIR = /^(?:[A-Za-z0-9\-._~!$'()*,;:@/?=+]|%[0-9A-Fa-f]{2})*$/;

/** Why a raw query string or form body is not a clean percent-encoding, or undefined. */
export function encodingFault(raw: string, where: string): string | undefined {
  if (raw === '') return undefined;
  if (raw.startsWith('&') || raw.endsWith('&') || raw.includes('&&'))
    return `the ${where} has an empty segment (a stray \`&\`)`;
  for (const p of raw.split('&')) {
    if (!RFC3986_PAIR.test(p)) {
      const bad = [...p].find(
        (c, i) => !RFC3986_PAIR.test(c) && !(c === '%' && /^[0-9A-Fa-f]{2}/.test(p.slice(i + 1))),
      );
      return `the ${where} pair ${JSON.stringify(p.length > 60 ? `${p.slice(0, 60)}…` : p)} holds ${bad === '%' ? 'a malformed escape' : `an unencoded ${JSON.stringify(bad ?? '?')}`}`;
    }
    if (!p.includes('=')) return `the ${where} pair ${JSON.stringify(p)} has no \`=\``;
  }
  return undefined;
}

const result = (rule: ClientRuleId, kept: boolean, detail: string, diagnosis?: Diagnosis): RuleResult =>
  diagnosis === undefined ? { rule, kept, detail } : { rule, kept, detail, diagnosis };

/** A finding that is no seed MUST (a recommendation, an open point): a warning when not kept. */
const advice = (rule: ClientRuleId, kept: boolean, detail: string): RuleResult => ({
  rule,
  kept,
  detail,
  ...(kept ? {} : { advisory: true as const }),
});

/** Optional fields whose empty value some readings take as omitted (D-EMPTY-OPTIONAL). */
const OPTIONAL_FIELDS = new Set(['newClientOrderId', 'timeInForce', 'stpMode', 'recvWindow']);

/**
 * Whether an issue of the library's validators breaks no MUST of the seed: its rule is SHOULD or
 * INFO in spec/rules.json (the reference's own choices, D-AMOUNT-ELSEWHERE, D-V11-LIMIT-QUANTITY,
 * D-TIF-VALUES, D-EMPTY-BATCH, D-LONG-CANONICAL), an optional field sent empty (D-EMPTY-OPTIONAL),
 * or a decimal in exponent notation (D-DECIMALS).
 */
export function advisoryIssue(i: Issue): boolean {
  const field = i.path.at(-1);
  if (rule(i.ruleId).level !== 'MUST') return true;
  // (`received` is printable: an empty string reads '""', an empty id '0 characters')
  if (typeof field === 'string' && OPTIONAL_FIELDS.has(field) && (i.received === '""' || i.received === '0 characters'))
    return true;
  return i.ruleId === 'ORDER-DECIMAL-FORMAT' && /^"?[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+"?$/.test(i.received);
}

function issueText(i: Issue): string {
  return `${i.ruleId}: ${i.message}`;
}

/** Order-field issues of the request (§2.1, §4.1) from the library's validators, by client rule: a MUST of the seed broken, or only advice. */
function orderIssues(f: RequestFacts): Map<ClientRuleId, { texts: string[]; advisory: boolean }> {
  const out = new Map<ClientRuleId, { texts: string[]; advisory: boolean }>();
  const add = (rule: ClientRuleId, i: Issue): void => {
    const had = out.get(rule);
    out.set(rule, {
      texts: [...(had?.texts ?? []), issueText(i)],
      advisory: (had?.advisory ?? true) && advisoryIssue(i),
    });
  };
  if (f.endpoint === undefined) return out;
  const issues =
    f.endpoint.bodyKind === 'json'
      ? f.batch === undefined
        ? []
        : validateBatch(f.batch)
      : f.orders.flatMap((o) => validateOrder(o, { version: f.endpoint?.version ?? 'v1' }));
  for (const i of issues) {
    const rule: ClientRuleId =
      i.ruleId === 'ORDER-DECIMAL-FORMAT'
        ? 'CLIENT-DECIMAL-FORM'
        : i.ruleId === 'ORDER-CLIENT-ID-LENGTH'
          ? 'CLIENT-ID-LENGTH'
          : i.ruleId === 'BATCH-MAX-ORDERS' || i.ruleId === 'BATCH-EMPTY'
            ? 'CLIENT-BATCH-SIZE'
            : i.ruleId === 'BATCH-SINGLE-SYMBOL'
              ? 'CLIENT-BATCH-ONE-SYMBOL'
              : 'CLIENT-ORDER-FIELDS';
    add(rule, i);
  }
  return out;
}

/**
 * Grade one signed request against every client rule it exercises (§2.1, §4.1, §5.2-§5.4).
 * Rules it does not exercise are left out (a request without a client id says nothing of ids).
 */
export function gradeRequest(r: RecordedRequest, f: RequestFacts, ctx: GradeContext): RuleResult[] {
  const out: RuleResult[] = [];
  const header = (ctx.wire ?? SEED_WIRE).apiKeyHeader;
  const apiKeyHeader = r.headers[header.toLowerCase()];
  // CLIENT-APIKEY-HEADER (§5.2)
  out.push(
    apiKeyHeader === undefined
      ? result('CLIENT-APIKEY-HEADER', false, `no ${header} header`)
      : apiKeyHeader === ctx.secret
        ? result(
            'CLIENT-APIKEY-HEADER',
            false,
            `${header} holds the secret key, not the API key (key and secret swapped)`,
          )
        : apiKeyHeader !== ctx.apiKey
          ? result('CLIENT-APIKEY-HEADER', false, `${header} holds a key this server did not issue`)
          : result('CLIENT-APIKEY-HEADER', true, `${header} sent`),
  );
  // CLIENT-SIGNATURE (§5.3): over the bytes as sent, the doctor's diagnosis when wrong
  const steps = signingSteps(r.query, r.body, f.bodyKind);
  if (f.signature === undefined) out.push(result('CLIENT-SIGNATURE', false, 'no signature parameter (SIG-REQUIRED)'));
  else if (verifyWith(sign, ctx.secret, steps.totalParams, f.signature))
    out.push(result('CLIENT-SIGNATURE', true, 'signature verifies over the bytes as sent'));
  else {
    const d = diagnose(
      {
        query: r.query,
        body: r.body,
        bodyKind: f.bodyKind,
        signature: f.signature,
        method: r.method,
        path: r.path,
        // the issued key, whatever the header holds: a client that swapped key and secret keyed the HMAC with it
        apiKey: ctx.apiKey,
      },
      ctx.secret,
      sign,
    );
    out.push(
      result(
        'CLIENT-SIGNATURE',
        false,
        `signature does not verify over the bytes as sent${d === null ? '' : ` (doctor: ${[d.code, ...(d.also ?? [])].join(' + ')})`}`,
        d ?? undefined,
      ),
    );
  }
  // CLIENT-PLACEMENT (§4.1, §5.3)
  out.push(placementResult(r, f));
  // CLIENT-ENCODING (§5.3)
  const enc =
    encodingFault(r.query, 'query string') ?? (f.bodyKind === 'form' ? encodingFault(r.body, 'form body') : undefined);
  // (the seed gives no query syntax: D-EMPTY-PAIRS, D-MALFORMED-ESCAPE)
  if (r.query !== '' || f.bodyKind === 'form')
    out.push(advice('CLIENT-ENCODING', enc === undefined, enc ?? 'clean percent-encoding'));
  // CLIENT-CONTENT-TYPE (§4.1, D-CONTENT-TYPE)
  if (r.body !== '' && f.endpoint !== undefined) {
    const got = mediaTypeOf(r.headers['content-type']);
    const want = f.endpoint.contentType;
    const detail =
      got === want ? `Content-Type: ${want}` : `Content-Type ${got === '' ? 'missing' : got}, expected ${want}`;
    // the batch's is §4.1's ("Request header | Content-Type: application/json"); a single order's is D-CONTENT-TYPE
    out.push(
      f.endpoint.bodyKind === 'json'
        ? result('CLIENT-CONTENT-TYPE', got === want, detail)
        : advice('CLIENT-CONTENT-TYPE', got === want, `${detail} (D-CONTENT-TYPE)`),
    );
  }
  // CLIENT-TIMESTAMP (§5.4 items 1, 3, 4) and CLIENT-RECVWINDOW (§5.4 item 2)
  const time = checkTimeParams(f.timestamp, f.recvWindow);
  const tsIssue = time.issues.find((i) => i.path[0] === 'timestamp');
  if (tsIssue !== undefined)
    out.push(
      advisoryIssue(tsIssue)
        ? advice('CLIENT-TIMESTAMP', false, issueText(tsIssue))
        : result('CLIENT-TIMESTAMP', false, issueText(tsIssue)),
    );
  else if (time.timestamp !== undefined) {
    const v = checkTimeWindow({
      timestamp: time.timestamp,
      ...(time.recvWindow !== undefined ? { recvWindow: time.recvWindow } : {}),
      serverTime: r.receivedAt,
    });
    const skew = time.timestamp - r.receivedAt;
    out.push(
      v.accepted
        ? result('CLIENT-TIMESTAMP', true, `timestamp ${skew >= 0 ? '+' : ''}${skew} ms from the server clock`)
        : result(
            'CLIENT-TIMESTAMP',
            false,
            v.reason === 'too-far-ahead'
              ? `timestamp ${-v.age} ms ahead of the server clock (must be under ${MAX_LEAD_MS} ms; TIME-WINDOW-LEAD)`
              : `timestamp ${v.age} ms old, outside the recvWindow of ${v.recvWindow} ms (TIME-WINDOW-PAST)${/^\d{10}$/.test(f.timestamp ?? '') ? ': it is in seconds, not milliseconds' : ''}`,
          ),
    );
  }
  if (f.recvWindow !== undefined) {
    const rwIssue = time.issues.find((i) => i.path[0] === 'recvWindow');
    const rw = time.recvWindow;
    out.push(
      rwIssue !== undefined
        ? advisoryIssue(rwIssue)
          ? advice('CLIENT-RECVWINDOW', false, issueText(rwIssue))
          : result('CLIENT-RECVWINDOW', false, issueText(rwIssue))
        : rw !== undefined && (rw > DEFAULT_RECV_WINDOW || (ctx.recvWindowCap !== undefined && rw > ctx.recvWindowCap))
          ? // §5.4 item 2 only recommends 5000 or less; the largest a server takes is D-RECVWINDOW-MAX
            advice(
              'CLIENT-RECVWINDOW',
              false,
              `recvWindow ${rw} ms is above ${[
                ...(rw > DEFAULT_RECV_WINDOW ? [`the recommended ${DEFAULT_RECV_WINDOW}`] : []),
                ...(ctx.recvWindowCap !== undefined && rw > ctx.recvWindowCap
                  ? [`the declared cap of ${ctx.recvWindowCap}`]
                  : []),
                ...(rw > MAX_RECV_WINDOW ? [`the reference cap of ${MAX_RECV_WINDOW} (D-RECVWINDOW-MAX)`] : []),
              ].join(' and ')}`,
            )
          : result('CLIENT-RECVWINDOW', true, `recvWindow ${f.recvWindow} ms`),
    );
  }
  // CLIENT-RETRY-RESIGNED (§5.3, §5.4): a request whose bytes were sent before is a replay
  const earlier = ctx.seenBytes.get(bytesKey(r));
  const retryOf = ctx.seenContent.get(contentKey(r, f));
  // (no seed sentence forbids sending the same bytes twice: advice, though a server may place the order twice)
  if (earlier !== undefined)
    out.push(
      advice(
        'CLIENT-RETRY-RESIGNED',
        false,
        `byte-identical replay of request #${earlier}: same timestamp and signature; a retry must be re-signed with a fresh timestamp`,
      ),
    );
  else if (retryOf !== undefined)
    out.push(
      result(
        'CLIENT-RETRY-RESIGNED',
        true,
        `sent again after request #${retryOf}, built afresh (new timestamp and signature)`,
      ),
    );
  // CLIENT-ID-UNIQUE (§2.1, D-DUPLICATE-CLIENT-ID)
  if (f.clientOrderIds.length > 0) {
    const problems: string[] = [];
    const inBatch = new Set<string>();
    f.orders.forEach((o) => {
      const id = (o as { newClientOrderId?: unknown } | null)?.newClientOrderId;
      if (typeof id !== 'string') return;
      if (inBatch.has(id)) problems.push(`${JSON.stringify(id)} twice in one request`);
      inBatch.add(id);
      if (earlier !== undefined) return; // the replay is the finding, not the id
      if (ctx.placedIds.has(id)) problems.push(`${JSON.stringify(id)} was already placed by an earlier request`);
      else {
        const first = ctx.idFields.get(id);
        if (first !== undefined && first !== orderKey(withoutTime(o)))
          problems.push(`${JSON.stringify(id)} reused for a different order`);
      }
    });
    // (D-DUPLICATE-CLIENT-ID: the seed does not say an id names one order)
    out.push(
      advice(
        'CLIENT-ID-UNIQUE',
        problems.length === 0,
        problems.length === 0 ? `${f.clientOrderIds.length} client id(s), each naming one order` : problems.join('; '),
      ),
    );
  }
  // Order fields by the library's validators (§2.1, §4.1)
  const issues = orderIssues(f);
  const exercised: Array<[ClientRuleId, boolean]> = [
    ['CLIENT-ID-LENGTH', f.clientOrderIds.length > 0],
    ['CLIENT-BATCH-SIZE', f.endpoint?.bodyKind === 'json' && Array.isArray(f.batch)],
    ['CLIENT-BATCH-ONE-SYMBOL', f.endpoint?.bodyKind === 'json' && Array.isArray(f.batch) && f.batch.length > 1],
    ['CLIENT-DECIMAL-FORM', f.orders.some(hasDecimal)],
    ['CLIENT-ORDER-FIELDS', f.orders.length > 0 && f.endpoint !== undefined],
  ];
  for (const [rule, applies] of exercised) {
    const found = issues.get(rule);
    if (found !== undefined) {
      const t = found.texts;
      const detail = t.slice(0, 3).join('; ') + (t.length > 3 ? ` (+${t.length - 3} more)` : '');
      out.push(found.advisory ? advice(rule, false, detail) : result(rule, false, detail));
    } else if (applies) out.push(result(rule, true, keptDetail(rule, f)));
  }
  // CLIENT-BACKOFF (D-RATE-LIMIT-RETRY)
  if (ctx.retryNotBefore !== undefined) {
    const early = ctx.retryNotBefore - r.receivedAt;
    // (RFC 9110 §10.2.3, not the seed: the seed shows no rate limits, §8)
    out.push(
      advice(
        'CLIENT-BACKOFF',
        early <= 0,
        early <= 0 ? 'waited out the Retry-After' : `sent ${early} ms before the Retry-After had passed`,
      ),
    );
  }
  return out;
}

/** An order without the signed-only parameters (a retry changes those alone). */
export function withoutTime(o: unknown): unknown {
  if (typeof o !== 'object' || o === null) return o;
  const { timestamp: _t, recvWindow: _r, signature: _s, ...rest } = o as Record<string, unknown>;
  return rest;
}

function hasDecimal(o: unknown): boolean {
  return typeof o === 'object' && o !== null && ['quantity', 'price', 'amount'].some((k) => k in o);
}

function keptDetail(rule: ClientRuleId, f: RequestFacts): string {
  const n = Array.isArray(f.batch) ? f.batch.length : f.orders.length;
  switch (rule) {
    case 'CLIENT-BATCH-SIZE':
      return `${n} orders`;
    case 'CLIENT-BATCH-ONE-SYMBOL':
      return 'one symbol';
    case 'CLIENT-ID-LENGTH':
      return 'client ids within 255 characters';
    case 'CLIENT-DECIMAL-FORM':
      return 'decimals in plain notation';
    default:
      return `${n} order(s) with the fields of ${f.endpoint?.path ?? 'the endpoint'}`;
  }
}

function placementResult(r: RecordedRequest, f: RequestFacts): RuleResult {
  const names = f.pairs.map(([k]) => k);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined)
    return advice('CLIENT-PLACEMENT', false, `parameter ${JSON.stringify(dup)} sent twice (D-DUPLICATE-PARAM)`);
  if (f.endpoint?.bodyKind === 'json') {
    if (r.body === '')
      return result('CLIENT-PLACEMENT', false, 'batch without a body: the orders go in a JSON array body (§4.1)');
    if (f.batch === undefined || !Array.isArray(f.batch))
      return result('CLIENT-PLACEMENT', false, 'batch body is not a JSON array of orders (BATCH-JSON-BODY)');
    const inQuery = new Set(rawPairs(r.query).map((p) => p.split('=', 1)[0]));
    const missing = ['timestamp', SIGNATURE_PARAM].filter((k) => !inQuery.has(k));
    if (missing.length > 0)
      return result(
        'CLIENT-PLACEMENT',
        false,
        `batch ${missing.join(' and ')} not in the query string (BATCH-TIME-IN-QUERY)`,
      );
    return result('CLIENT-PLACEMENT', true, 'batch: JSON body, time and signature in the query');
  }
  if (f.endpoint !== undefined && f.bodyKind === 'json')
    return result(
      'CLIENT-PLACEMENT',
      false,
      `a JSON body on ${f.endpoint.path}: single orders take query or form parameters (§4.2)`,
    );
  return result(
    'CLIENT-PLACEMENT',
    true,
    `parameters in the ${f.placement === 'split' ? 'query string and body' : f.placement === 'body' ? 'form body' : 'query string'}`,
  );
}
