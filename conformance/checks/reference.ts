/**
 * RESULT-REFERENCE-ANSWER: every answer of the run against what the reference answers to the same
 * request (src/server/answer.ts `referenceReply`, read at the server's time by the measured clock).
 * The seed shows no error codes and no single-order answer (§7, §4.2): the core profile reports
 * how the answers compare (INFO); the reference profile pins them (D-ERROR-SHAPE, D-CHECK-ORDER,
 * the reference error codes, D-WIRE-NUMBERS, D-ENTRY-MSG, D-STATUS, D-STP-PLACEMENT,
 * D-SINGLE-RESPONSE). Left out: answers that depend on the moment (the reference's answer at the
 * earliest and the latest server time the request may have been read at differ), on what the
 * server holds (a duplicate newClientOrderId, -1141), and values it generates (orderId,
 * transactTime, accountId, a generated clientOrderId).
 */
import { codeValue, entriesOf, isRecord } from '../../src/core/response.js';
import { wireWith, type EndpointName, type WireProfile } from '../../src/core/wire.js';
import { referenceReply, type SentRequest } from '../../src/server/answer.js';
import type { Credential } from '../../src/server/policy.js';
import type { Reply } from '../../src/server/respond.js';
import type { Answered, AnswerHeaders } from '../engine/transport.js';
import type { CheckContext, CheckDefinition, Target } from '../judgement/types.js';
import { info } from './helpers.js';

/** The code the reference gives a newClientOrderId already used (D-DUPLICATE-CLIENT-ID): it depends on what the server holds. */
const DUPLICATE_CODE = -1141;
/** The code of a time-window refusal (§5.4): it depends on the moment. */
const TIME_CODE = -1021;
/** Values the server generates (D-ORDER-IDS; accountId is the account's): never compared. */
const GENERATED = new Set(['orderId', 'transactTime', 'accountId']);
/** A clientOrderId the reference generates (D-ORDER-IDS). */
const GENERATED_CLIENT_ID = /^spotcheck-\d+$/;
/** Slack on the measured clock, ms: the server may read a request a little before or after its bytes arrive. */
const READ_SLACK_MS = 100;

/** What one answer says, as compared: HTTP status, top-level code and fields, and each entry's code. */
interface Said {
  status: number;
  code: number | undefined;
  /** The top-level field names (D-ERROR-SHAPE: a refusal is `{code, msg}`). */
  fields: string;
  entries?: Array<number | undefined>;
  body: unknown;
}

function said(status: number, body: unknown): Said {
  const e = entriesOf(body);
  return {
    status,
    code: isRecord(body) ? codeValue(body.code) : undefined,
    fields: isRecord(body) ? Object.keys(body).sort().join(',') : typeof body,
    ...(e === undefined ? {} : { entries: e.map((x) => (isRecord(x) ? codeValue(x.code) : undefined)) }),
    body,
  };
}

const refused = (s: Said): boolean => s.status >= 400 || (s.code !== undefined && s.code !== 0);
const codes = (s: Said): string =>
  `HTTP ${s.status} code ${s.code ?? 'none'} {${s.fields}}${s.entries === undefined ? '' : ` entries [${s.entries.map((c) => c ?? 'none').join(', ')}]`}`;

/** The credentials the reference would hold: the target's key with TRADE, and its key without. */
function credentialsOf(t: Target): Credential[] {
  const out: Credential[] = [{ apiKey: t.apiKey, secret: t.secret, permissions: ['TRADE', 'USER_DATA'] }];
  if (t.noTradeKey !== undefined)
    out.push({ apiKey: t.noTradeKey.apiKey, secret: t.noTradeKey.secret, permissions: ['USER_DATA'] });
  return out;
}

/** The answer's JSON with generated values masked, for comparison by value. */
function masked(v: unknown, key?: string): unknown {
  if (key !== undefined && GENERATED.has(key)) return '<generated>';
  if (key === 'clientOrderId' && typeof v === 'string' && GENERATED_CLIENT_ID.test(v)) return '<generated>';
  if (Array.isArray(v)) return v.map((x) => masked(x));
  if (isRecord(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, masked(v[k], k)]),
    );
  return v;
}

/** The media type of a Content-Type value: lower-cased, parameters dropped (RFC 9110 §8.3.1). */
const mediaType = (v: string | undefined): string | undefined => v?.split(';')[0]?.trim().toLowerCase();
/** An Allow value as a set of methods (RFC 9110 §10.2.1): upper-cased, sorted, blanks dropped. */
const methods = (v: string | undefined): string | undefined =>
  v
    ?.split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== '')
    .sort()
    .join(', ');

/** What the comparisons need to know of the run. */
type Setting = { credentials: ReadonlyArray<Credential>; wire: WireProfile; offsetMs: number; uncertaintyMs: number };

/** The request of an exchange as the reference reads it. */
function sentRequest(a: Answered): SentRequest {
  const r = a.exchange.request;
  return {
    method: r.method,
    target: r.query === '' ? r.path : `${r.path}?${r.query}`,
    headers: r.headers,
    body: r.body,
  };
}

/** Whether an exchange got an answer to compare. */
function answeredAtAll(a: Answered): boolean {
  const o = a.exchange.observation;
  return !(
    o.status === undefined ||
    o.verdict === 'no-answer' ||
    o.verdict === 'rate-limited' ||
    o.verdict === 'not-sent'
  );
}

/** The reference's answer at the earliest moment the server may have read the request (the two comparisons share it). */
export function earliestReply(a: Answered, setting: Setting): Reply {
  return referenceReply(sentRequest(a), {
    credentials: setting.credentials,
    wire: setting.wire,
    now: a.sentAt + setting.offsetMs - setting.uncertaintyMs - READ_SLACK_MS,
  });
}

/**
 * The headers of one answer against the reference's (RESULT-REFERENCE-ANSWER.headers): the media
 * type (application/json on every answer, D-ERROR-SHAPE), `Allow` as a set of methods (RFC 9110
 * §15.5.6: the reference sends it on every 405), and a `Date` (RFC 9110 §6.6.1) naming a second
 * the server's clock, as measured, may have read while the request was out. Pure.
 */
export function compareHeaders(
  a: Answered,
  setting: Setting,
  ref: Reply = earliestReply(a, setting),
): { same: boolean; expected: string; received: string } | undefined {
  if (!answeredAtAll(a)) return undefined;
  // Allow comes from routing alone (§4, D-PREFIX): the same at every moment
  const h: AnswerHeaders = a.headers;
  const refAllow = methods(Object.entries(ref.headers ?? {}).find(([k]) => k.toLowerCase() === 'allow')?.[1]);
  const dateMs = h.date === undefined ? NaN : Date.parse(h.date);
  // the Date names the second the server wrote the answer in: floored, so up to a second before its time
  const earliest = a.sentAt + setting.offsetMs - setting.uncertaintyMs - READ_SLACK_MS - 1000;
  const latest = a.receivedAt + setting.offsetMs + setting.uncertaintyMs + READ_SLACK_MS;
  const dateOk = Number.isFinite(dateMs) && dateMs >= earliest && dateMs <= latest;
  const expected = `Content-Type application/json; Allow ${refAllow ?? 'none'}; a Date within the request's time`;
  const received = `Content-Type ${mediaType(h.contentType) ?? 'none'}; Allow ${methods(h.allow) ?? 'none'}; Date ${h.date ?? 'none'}${h.date !== undefined && !dateOk ? " (outside the request's time)" : ''}`;
  const same = mediaType(h.contentType) === 'application/json' && methods(h.allow) === refAllow && dateOk;
  return { same, expected, received };
}

/** One answer against the reference's, or why it is not compared. */
type Comparison =
  | { kind: 'not-compared'; why: 'moment' | 'held' | 'no-answer' }
  | { kind: 'refusal' | 'accepted'; same: boolean; expected: string; received: string };

/**
 * Compare one answered exchange with the reference's answer read at the earliest and the latest
 * moment the server may have read it (`offsetMs` ± `uncertaintyMs`, READ_SLACK_MS): when the two
 * differ, the answer depends on the moment and is not compared. Pure.
 */
export function compareWithReference(
  a: Answered,
  setting: Setting,
  early: Reply = earliestReply(a, setting),
): Comparison {
  const o = a.exchange.observation;
  if (!answeredAtAll(a) || o.status === undefined) return { kind: 'not-compared', why: 'no-answer' };
  const r = a.exchange.request;
  const at = (now: number): Reply =>
    referenceReply(sentRequest(a), { credentials: setting.credentials, wire: setting.wire, now });
  let ref = said(early.status, early.body);
  // a refusal before the time check (D-CHECK-ORDER) is the same at any moment
  if (!refused(ref) || ref.code === TIME_CODE || (ref.entries ?? []).includes(TIME_CODE)) {
    const late = at(a.receivedAt + setting.offsetMs + setting.uncertaintyMs + READ_SLACK_MS);
    const l = said(late.status, late.body);
    // the same answer at both moments: the same status, codes and fields, and an accepted body alike (a refusal's words may name the time)
    const alike = refused(l)
      ? codes(l) === codes(ref)
      : JSON.stringify(masked(l.body)) === JSON.stringify(masked(ref.body)) && l.status === ref.status;
    if (!alike) return { kind: 'not-compared', why: 'moment' };
    ref = l;
  }
  const got = said(o.status, o.json);
  // a HEAD answer has no body (RFC 9110 §9.3.2): its status alone is compared
  if (r.method.toUpperCase() === 'HEAD') {
    const same = got.status === ref.status;
    return { kind: 'refusal', same, expected: `HTTP ${ref.status}`, received: `HTTP ${got.status}` };
  }
  if (got.code === DUPLICATE_CODE || (got.entries ?? []).includes(DUPLICATE_CODE))
    return { kind: 'not-compared', why: 'held' };
  if (
    refused(ref) ||
    refused(got) ||
    (got.entries ?? []).some((c) => c !== 0) ||
    (ref.entries ?? []).some((c) => c !== 0)
  )
    return {
      kind: 'refusal',
      same: codes(ref) === codes(got),
      expected: codes(ref),
      received: codes(got),
    };
  // by text on purpose: the reference profile pins how values are written (D-WIRE-NUMBERS: DECIMALs and
  // LONGs as the reference writes them); values by seed meaning are the RESULT rules' and the invariants'
  const expected = JSON.stringify(masked(ref.body));
  const received = JSON.stringify(masked(got.body));
  return { kind: 'accepted', same: expected === received && ref.status === got.status, expected, received };
}

/** Compare every answered exchange of the run; the counts and the first difference of each kind. */
function compareRun(ctx: CheckContext): {
  compared: Record<
    'refusal' | 'accepted' | 'headers',
    { same: number; differ: number; first?: { a: Answered; expected: string; received: string } }
  >;
  skipped: Record<'moment' | 'held' | 'no-answer', number>;
} {
  const p = ctx.target.profile;
  const paths =
    p === undefined
      ? {}
      : (Object.fromEntries(Object.entries(p.endpoints).map(([n, e]) => [n, e.path])) as Partial<
          Record<EndpointName, string>
        >);
  const setting = {
    credentials: credentialsOf(ctx.target),
    wire: wireWith(p?.apiKeyHeader, paths),
    offsetMs: ctx.clock.offsetMs ?? 0,
    // an unmeasured clock: only answers that do not depend on the moment within a minute are compared
    uncertaintyMs: ctx.clock.offsetMs === undefined ? 60_000 : (ctx.clock.uncertaintyMs ?? 0),
  };
  const compared = {
    refusal: { same: 0, differ: 0 },
    accepted: { same: 0, differ: 0 },
    headers: { same: 0, differ: 0 },
  } as ReturnType<typeof compareRun>['compared'];
  const skipped = { moment: 0, held: 0, 'no-answer': 0 };
  for (const a of ctx.answered()) {
    if (!answeredAtAll(a)) {
      skipped['no-answer']++;
      continue;
    }
    const early = earliestReply(a, setting);
    const h = compareHeaders(a, setting, early);
    if (h !== undefined) {
      const tally = compared.headers;
      if (h.same) tally.same++;
      else {
        tally.differ++;
        tally.first ??= { a, expected: h.expected, received: h.received };
      }
    }
    const c = compareWithReference(a, setting, early);
    if (c.kind === 'not-compared') {
      skipped[c.why]++;
      continue;
    }
    const tally = compared[c.kind];
    if (c.same) tally.same++;
    else {
      tally.differ++;
      tally.first ??= { a, expected: c.expected, received: c.received };
    }
  }
  return { compared, skipped };
}

/** One run's comparison, shared by the two checks (both run last, over the same answers). */
const runs = new WeakMap<object, { answers: number; result: ReturnType<typeof compareRun> }>();
function comparison(ctx: CheckContext): ReturnType<typeof compareRun> {
  const key = ctx.answered();
  let c = runs.get(key);
  // compared again when an answer came in since (another last-run check sent a request)
  if (c === undefined || c.answers !== key.length) {
    c = { answers: key.length, result: compareRun(ctx) };
    runs.set(key, c);
  }
  return c.result;
}

function judged(ctx: CheckContext, kind: 'refusal' | 'accepted' | 'headers', noun: string, as: string) {
  const { compared, skipped } = comparison(ctx);
  const t = compared[kind];
  const total = t.same + t.differ;
  const left = `of ${ctx.answered().length} answers; not compared: ${skipped.moment} depending on the moment, ${skipped.held} on a newClientOrderId already held`;
  if (t.first === undefined)
    return info(`${t.same} of ${total} ${noun} ${as} the reference's to the same request (${left})`, true);
  const r = t.first.a.exchange.request;
  return info(
    `${t.differ} of ${total} ${noun} differ from the reference's to the same request; first: ${r.method} ${r.path}: reference ${t.first.expected}, received ${t.first.received} (${left})`,
    false,
    t.first.a.exchange,
  );
}

export const referenceChecks: CheckDefinition[] = [
  {
    id: 'RESULT-REFERENCE-ANSWER',
    ruleId: 'RESULT-REFERENCE-ANSWER',
    title:
      'every refusal of the run carries the HTTP status and codes (top level and per entry) the reference gives the same request (D-ERROR-SHAPE, D-CHECK-ORDER, the reference error codes; pinned by the reference profile)',
    runLast: true,
    async run(ctx) {
      return judged(ctx, 'refusal', 'refusals', 'carry the status, codes and fields of');
    },
  },
  {
    id: 'RESULT-REFERENCE-ANSWER.accepted',
    ruleId: 'RESULT-REFERENCE-ANSWER',
    title:
      'every accepted answer of the run writes the fields the reference writes for the same request, generated ids and times aside (D-WIRE-NUMBERS, D-ENTRY-MSG, D-STATUS, D-STP-PLACEMENT, D-SINGLE-RESPONSE; pinned by the reference profile)',
    runLast: true,
    async run(ctx) {
      return judged(ctx, 'accepted', 'accepted answers', 'are written as');
    },
  },
  {
    id: 'RESULT-REFERENCE-ANSWER.headers',
    ruleId: 'RESULT-REFERENCE-ANSWER',
    title:
      "every answer of the run carries the headers the reference sends: Content-Type application/json (D-ERROR-SHAPE), Allow on a 405 (RFC 9110 §15.5.6), a Date within the request's time (RFC 9110 §6.6.1; pinned by the reference profile)",
    runLast: true,
    async run(ctx) {
      return judged(ctx, 'headers', 'answers', 'carry the headers of');
    },
  },
];
