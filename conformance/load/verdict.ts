/**
 * Verdicts under load, per route: one exchange (a signed request and its answer) is
 * counted into a {@link RouteTally}; {@link failuresOf} says which counts are correctness
 * failures. Pure, so the local engine, the Artillery processor bundle and `load report`
 * count the same way.
 *
 * - accepted: HTTP 2xx with `code` absent or 0 (§7 item 1, D-CODE-READING);
 * - refused, by HTTP status x `code`: a valid, correctly signed request refused is a failure,
 *   except load shedding (429, or 503 with Retry-After) and a time-window refusal whose time went by before
 *   or after the request left the client (§5.4, split from the send timestamps);
 * - bad signatures: refusals matching the target's bad-signature answer (§5.3), must be 0;
 * - batches: one result entry per order (§4.1 rule 4, §2.2), each entry's code, and its
 *   echoed client id at its position (`misalignedEntries`);
 * - 5xx other than shedding (429, or 503 with Retry-After: the core's answerVerdict, as `run` reads
 *   it); answers that are not the API's (no JSON object, unreadable code).
 */
import { answerVerdict, codeValue, entryPlaced } from '../../src/core/response.js';
import { readAnswer } from './answer.js';
import { LOAD_ROUTES, type LoadRoute } from './mix.js';

/** What one refusal looks like: an HTTP status and/or a `code`; an absent part matches anything. */
export interface RefusalShape {
  status?: number;
  code?: number;
}

/** The target's known refusals: the answer to a wrong signature and to a stale timestamp. */
export interface Fingerprints {
  signature: RefusalShape[];
  time: RefusalShape[];
}

/** The reference server's refusals (spec/decisions.md: -1022 signature, -1021 timestamp). */
export const REFERENCE_FINGERPRINTS: Fingerprints = { signature: [{ code: -1022 }], time: [{ code: -1021 }] };

/** Counts of one route. */
export interface RouteTally {
  /** Requests that got an answer or failed on the way. */
  requests: number;
  accepted: number;
  /** Refusals by `HTTP-status code` (`400 -1022`; `none` when the body has no readable code). */
  refused: Record<string, number>;
  /** Refusals with the target's bad-signature answer (must be 0). */
  badSignatures: number;
  /** Other refusals of a valid request (must be 0). */
  refusedValid: number;
  /** Time-window refusals by where the time went (§5.4). */
  timeWindow: {
    /** The request was already older than recvWindow when it went on the wire (the load generator's queue). */
    clientQueue: number;
    /** It left in time and its answer came after recvWindow: the time went in the network or the server. */
    networkServer: number;
    /** Signed, sent and answered inside recvWindow, refused for time anyway (a failure). */
    inWindow: number;
  };
  /** Load shedding, not a correctness verdict. */
  shed429: number;
  shed503: number;
  /** 5xx other than 503 (must be 0). */
  http5xx: number;
  /** 2xx answers that are not a JSON object or whose code is unreadable (must be 0). */
  badResponses: number;
  /** No answer (connection refused, reset, timeout): reported, counted apart. */
  transportErrors: number;
  /** Entries of accepted calls (batch result entries; a single order is one entry). */
  results: {
    entries: number;
    /** Accepted batches whose `result` is missing or not one entry per order (must be 0). */
    countMismatch: number;
    /** Entries echoing another client id than the one sent at their position (must be 0). */
    misalignedEntries: number;
    /** Entry codes, `0` for placed. */
    entryCodes: Record<string, number>;
    /** Entries of an accepted call refused (a valid order refused: must be 0). */
    refusedEntries: number;
  };
  ordersPlaced: number;
}

/** An empty tally. */
export function emptyTally(): RouteTally {
  return {
    requests: 0,
    accepted: 0,
    refused: {},
    badSignatures: 0,
    refusedValid: 0,
    timeWindow: { clientQueue: 0, networkServer: 0, inWindow: 0 },
    shed429: 0,
    shed503: 0,
    http5xx: 0,
    badResponses: 0,
    transportErrors: 0,
    results: { entries: 0, countMismatch: 0, misalignedEntries: 0, entryCodes: {}, refusedEntries: 0 },
    ordersPlaced: 0,
  };
}

/** One exchange as the verdict reads it. */
export interface Exchange {
  /** The signed timestamp, ms (client clock). */
  timestamp: number;
  recvWindow: number;
  /** newClientOrderId of each order sent, in order. */
  clientIds: readonly string[];
  /** When the request went on the wire, ms (client clock); unknown: taken as the timestamp. */
  writtenAt?: number | undefined;
  /** When the answer (or the error) arrived, ms. */
  receivedAt: number;
  /** Batch (a `result` array is expected) or single order. */
  batch: boolean;
  status?: number | undefined;
  body?: string | undefined;
  /** Set when no answer came. */
  error?: string | undefined;
  /** The answer carried Retry-After (a 503 with it is shedding, without it a server error). */
  retryAfter?: boolean | undefined;
}

/** What an exchange came to, for the time series. */
export type Outcome = 'accepted' | 'shed' | 'refused' | 'failure' | 'error';

const matches = (shapes: readonly RefusalShape[], status: number, code: number | undefined): boolean =>
  shapes.some((s) => (s.status === undefined || s.status === status) && (s.code === undefined || s.code === code));

const bump = (r: Record<string, number>, k: string, n = 1): void => {
  r[k] = (r[k] ?? 0) + n;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The client id an answer echoes: `clientOrderId` of the entry's `order`, or of the entry itself. */
function echoedId(entry: Record<string, unknown>): unknown {
  const order = entry.order;
  if (isObject(order) && order.clientOrderId !== undefined) return order.clientOrderId;
  return entry.clientOrderId;
}

/** Count one result entry at position `i` (expected id `sent`); true when it placed an order (its code 0, the core's entryPlaced). */
function countEntry(t: RouteTally, entry: unknown, sent: string | undefined, single: boolean): boolean {
  t.results.entries++;
  const rec = isObject(entry) ? entry : {};
  const code = codeValue(rec.code);
  // a single order's answer is the accepted call itself; a batch entry is placed by its code alone (§7 item 2)
  const placed = single ? true : entryPlaced(rec);
  bump(t.results.entryCodes, rec.code === undefined ? (placed ? '0' : 'none') : String(code ?? 'unreadable'));
  const echoed = echoedId(rec);
  if (echoed !== undefined && echoed !== sent) t.results.misalignedEntries++;
  if (placed) t.ordersPlaced++;
  else t.results.refusedEntries++;
  return placed;
}

/** Count one exchange into `t`; returns its outcome. */
export function countExchange(t: RouteTally, x: Exchange, fp: Fingerprints): Outcome {
  const shed = x.status === 429 || (x.status === 503 && x.retryAfter === true);
  return countAnswer(t, x, shed ? undefined : readAnswer(x.body), fp);
}

/**
 * {@link countExchange} with the body already read: `json` is the parsed body or its
 * {@link readAnswer} reduction (the same verdict either way), undefined when it is not JSON.
 */
export function countAnswer(t: RouteTally, x: Exchange, json: unknown, fp: Fingerprints): Outcome {
  t.requests++;
  if (x.status === undefined || x.error !== undefined) {
    t.transportErrors++;
    return 'error';
  }
  const status = x.status;
  // the core's one classifier (src/core/response.ts answerVerdict), as `run` reads the same answer
  const verdict = answerVerdict(status, x.retryAfter === true, json);
  if (verdict === 'rate-limited') {
    if (status === 429) t.shed429++;
    else t.shed503++;
    return 'shed';
  }
  const hasCode = isObject(json) && json.code !== undefined;
  const code = hasCode ? codeValue((json as Record<string, unknown>).code) : undefined;
  if (verdict === 'server-error') {
    t.http5xx++;
    bump(t.refused, `${status} ${code ?? 'none'}`);
    return 'failure';
  }
  if (verdict === 'accepted' && isObject(json)) {
    t.accepted++;
    if (x.batch) {
      const result = json.result;
      if (!Array.isArray(result) || result.length !== x.clientIds.length) {
        t.results.countMismatch++;
        if (Array.isArray(result)) result.forEach((e, i) => countEntry(t, e, x.clientIds[i], false));
        return 'failure';
      }
      const before = t.results.misalignedEntries + t.results.refusedEntries;
      result.forEach((e, i) => countEntry(t, e, x.clientIds[i], false));
      return t.results.misalignedEntries + t.results.refusedEntries > before ? 'failure' : 'accepted';
    }
    const before = t.results.misalignedEntries;
    countEntry(t, json, x.clientIds[0], true);
    return t.results.misalignedEntries > before ? 'failure' : 'accepted';
  }
  if (verdict === 'bad-response') {
    t.badResponses++;
    return 'failure';
  }
  bump(t.refused, `${status} ${code ?? 'none'}`);
  if (matches(fp.time, status, code)) {
    const written = x.writtenAt ?? x.timestamp;
    if (written - x.timestamp > x.recvWindow) {
      t.timeWindow.clientQueue++;
      return 'refused';
    }
    if (x.receivedAt - x.timestamp > x.recvWindow) {
      t.timeWindow.networkServer++;
      return 'refused';
    }
    t.timeWindow.inWindow++;
    return 'failure';
  }
  if (matches(fp.signature, status, code)) t.badSignatures++;
  else t.refusedValid++;
  return 'failure';
}

/** One kind of correctness failure and how many times it happened on a route. */
export interface Failure {
  route: LoadRoute;
  kind: FailureKind;
  count: number;
}

/** The counts that must be 0, with what each means. */
export const FAILURE_KINDS = {
  badSignatures: 'valid signatures refused as bad (§5.3)',
  refusedValid: 'valid requests refused (not shedding, not time)',
  timeInWindow: 'refused for time though signed, sent and answered inside recvWindow (§5.4)',
  http5xx: 'HTTP 5xx answers other than shedding (429, or 503 with Retry-After)',
  badResponses: '2xx answers that are not a JSON object with a readable code (§7)',
  countMismatch: 'accepted batches without one result entry per order (§4.1 rule 4)',
  misalignedEntries: 'result entries echoing another client id than the one sent at their position (§2.2)',
  refusedEntries: 'valid orders refused inside an accepted call (§7 item 2)',
} as const;

export type FailureKind = keyof typeof FAILURE_KINDS;

/** The value of each failure kind in a tally. */
export function failureCounts(t: RouteTally): Record<FailureKind, number> {
  return {
    badSignatures: t.badSignatures,
    refusedValid: t.refusedValid,
    timeInWindow: t.timeWindow.inWindow,
    http5xx: t.http5xx,
    badResponses: t.badResponses,
    countMismatch: t.results.countMismatch,
    misalignedEntries: t.results.misalignedEntries,
    refusedEntries: t.results.refusedEntries,
  };
}

/** Every non-zero failure count, per route in report order. */
export function failuresOf(tallies: Partial<Record<LoadRoute, RouteTally>>): Failure[] {
  const out: Failure[] = [];
  for (const route of LOAD_ROUTES) {
    const t = tallies[route];
    if (t === undefined) continue;
    for (const [kind, count] of Object.entries(failureCounts(t)) as Array<[FailureKind, number]>)
      if (count > 0) out.push({ route, kind, count });
  }
  return out;
}

/** Add `b` into `a` (counts and count maps). */
export function mergeTally(a: RouteTally, b: RouteTally): RouteTally {
  const add = (x: Record<string, unknown>, y: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(y)) {
      if (typeof v === 'number') x[k] = ((x[k] as number | undefined) ?? 0) + v;
      else if (isObject(v)) add((x[k] ??= {}) as Record<string, unknown>, v);
    }
  };
  add(a as unknown as Record<string, unknown>, b as unknown as Record<string, unknown>);
  return a;
}

/** The sum of every route's tally. */
export function totalOf(tallies: Partial<Record<LoadRoute, RouteTally>>): RouteTally {
  const t = emptyTally();
  for (const r of LOAD_ROUTES) {
    const x = tallies[r];
    if (x !== undefined) mergeTally(t, x);
  }
  return t;
}
