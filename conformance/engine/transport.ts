/**
 * The runner's only way to the target: rate-limited, timed, counted, recorded.
 * A target that hangs, resets or answers garbage gives an observation, never a throw.
 */
import { Agent, type Dispatcher } from 'undici';
import { sendRaw, type HttpProtocol, type RawRequest, type RawResponse } from '../../src/client/http.js';
import { isSpotcheckError } from '../../src/core/errors.js';
import { classify, type Observation } from '../../src/core/response.js';
import { routeKey, type Built, type SigningFacts } from './requests.js';
import { createGate } from './gate.js';
import { flipFirstDigit } from './sig-edits.js';

/** One request as sent, what came back, and how its signature was made (for the curl reproduction). */
export interface Exchange extends SigningFacts {
  request: RawRequest;
  observation: Observation;
  /** The HTTP version that carried it (`h2` only over TLS, when ALPN chose it). */
  protocol?: HttpProtocol;
}

/** Answered exchanges per route (`batch/json`, `v1/query`, ...; `other` for requests of no route) and protocol. */
export type RouteProtocols = Record<string, Partial<Record<HttpProtocol, number>>>;

/** Each dispatcher's transports' counts: the CLI, which made the dispatcher, reads them for the report. */
const protocolsByDispatcher = new WeakMap<Dispatcher, RouteProtocols>();

/** The protocols the transports using `dispatcher` met, per route (empty when none answered). */
export function routeProtocols(dispatcher: Dispatcher): RouteProtocols {
  return protocolsByDispatcher.get(dispatcher) ?? {};
}

/** The answer headers the reference comparison reads (RESULT-REFERENCE-ANSWER.headers); absent ones left out. */
export interface AnswerHeaders {
  contentType?: string;
  allow?: string;
  date?: string;
}

/** An answered exchange, when it was sent and answered (epoch ms, this machine's clock), and its headers read by the reference comparison. */
export interface Answered {
  exchange: Exchange;
  sentAt: number;
  receivedAt: number;
  headers: AnswerHeaders;
}

/** The headers of `AnswerHeaders` from a response's (lower-case names; a repeated header joined by ", "). */
export function answerHeaders(h: Record<string, string | string[] | undefined>): AnswerHeaders {
  const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);
  const [contentType, allow, date] = [one(h['content-type']), one(h.allow), one(h.date)];
  return {
    ...(contentType === undefined ? {} : { contentType }),
    ...(allow === undefined ? {} : { allow }),
    ...(date === undefined ? {} : { date }),
  };
}

export interface SendResult {
  observation: Observation;
  exchange: Exchange;
  /** The raw response, when one came. */
  response?: RawResponse;
}

/**
 * Where a request stands in the run's queue (conformance/engine/gate.ts): its priority (lower first)
 * and flow (whose request it is, for the fair share). Passed along by whoever sends on a
 * check's behalf; no place: priority 0 (the clock, discovery).
 */
export interface Place {
  priority: number;
  flow?: unknown;
  /** The check the request is sent for (named when the target stops answering). */
  check?: string;
}

/**
 * Send a request; `rebuild` makes it afresh (new timestamp, re-signed) when a 429 asks for a
 * retry; `place`: its queue place.
 */
export type Sender = (
  request: RawRequest,
  facts?: SigningFacts,
  rebuild?: () => Built,
  place?: Place,
) => Promise<SendResult>;

/** What the target's rate limiting cost the run (counted, never a verdict). */
export interface RateLimitStats {
  /** Answers that were 429, or 503 with Retry-After. */
  responses: number;
  /** Requests sent again after such an answer. */
  retried: number;
  /** Requests still rate-limited after the last retry (their checks are inconclusive). */
  gaveUp: number;
  /** Time spent waiting as told, ms. */
  waitedMs: number;
}

/** How long a rate-limited answer asks to wait: Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface TransportOptions {
  baseUrl: string;
  /** Requests per second; 0 = unlimited. */
  rate: number;
  /** Requests in flight at most (default: no cap); a request waiting for its rate turn holds no place. */
  concurrency?: number;
  /** A request waiting past `afterMs` counts as of `priority` (conformance/engine/gate.ts; default: never). */
  overdue?: { afterMs: number; priority: number };
  timeoutMs: number;
  dispatcher?: Dispatcher;
  /** Called after every request (progress display). */
  onRequest?: (count: number) => void;
  /** Retries of a rate-limited request (default 3). */
  maxRetries?: number;
  /** Longest wait before a retry, ms, whatever Retry-After says (default 5000). */
  maxRetryWaitMs?: number;
  /** Epoch ms after which nothing is sent (the run's `--max-time`); a request in flight is cut at it. */
  deadline?: number;
  /** Largest response body read, bytes (default: sendRaw's 1 MiB); the rest is dropped and reported. */
  maxBodyBytes?: number;
  /** Timeouts at the full wait after which the wait is shortened from the measured answer times (default 3; Infinity: never). */
  shortenAfter?: number;
  /** The shortest wait it shortens to, ms (default MIN_SHORTENED_WAIT_MS). */
  minShortenedWaitMs?: number;
  /**
   * Liveness (design notes, "A run always ends"): after `after` requests in a row got no answer
   * (default 3), a known request on a fresh connection (`fresh()`, default a new Agent) decides
   * whether the target still answers; when it does not, the target is down: nothing more is sent
   * and the requests in flight are given up.
   */
  liveness?: { after?: number; fresh?: () => Dispatcher };
  /** When the run started (epoch ms): the silence's start when the target never answered. */
  startedAt?: number;
}

/** Why a request was not sent or was given up: the target had stopped answering (liveness judged it down). */
export const TARGET_DOWN_REASON =
  'the target had stopped answering (a liveness probe on a fresh connection got no answer either): not sent, or given up';

/** One request of the silence: sent while the target still answered (in flight at its last answer) or after. */
export interface SilentRequest {
  /** Order of sending over the run (the transport's count). */
  n: number;
  sentAt: number;
  check?: string;
  exchange: Exchange;
  /** What became of it, in words. */
  outcome: string;
}

/** The target stopped answering: since when, how it was judged, and the requests of the silence. */
export interface Silence {
  /** When the last answer of the run arrived (epoch ms), or the run's start when none did. */
  since: number;
  /** When the run judged the target down. */
  judgedAt: number;
  /** What the liveness probe on a fresh connection met. */
  probe: string;
  /** The requests in flight at the last answer or sent after it, in sending order (the first 10). */
  requests: SilentRequest[];
}

/** The liveness probe: the last answered request with its signature spoilt (refused, so it places nothing), else a bare POST to its path. */
export function livenessRequest(last: RawRequest | undefined, fallbackPath: string): RawRequest {
  if (last === undefined) return { method: 'POST', path: fallbackPath, query: '', body: '', headers: {} };
  const spoil = (s: string) =>
    s.replace(/(^|&)signature=([^&]*)/, (_m, p: string, v: string) => `${p}signature=${flipFirstDigit(v)}`);
  return { ...last, method: 'POST', query: spoil(last.query), body: spoil(last.body) };
}

/** How long a request waits for its answer unless told otherwise (`--timeout`), ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The shortest wait the runner shortens to after repeated silence, ms: a slow but answering target keeps its answers. */
export const MIN_SHORTENED_WAIT_MS = 2000;

/**
 * The wait after repeated silence: four times the slowest answer measured (at least `floorMs`,
 * at most the full timeout). Pure.
 */
export function shortenedWait(timeoutMs: number, slowestAnswerMs: number, floorMs = MIN_SHORTENED_WAIT_MS): number {
  return Math.min(timeoutMs, Math.max(floorMs, Math.ceil(4 * slowestAnswerMs)));
}

/** A request that waited this long in the run's queue, ms, is built afresh before it goes (its timestamp would have aged). */
export const REFRESH_AFTER_MS = 500;

/** Why a request was not sent or was cut short: the run's deadline. */
export const DEADLINE_REASON = 'the run deadline (--max-time) was reached: not sent or cut short';

export interface Transport {
  send: Sender;
  /** Requests sent so far. */
  count(): number;
  /** Requests that got no answer within the timeout, and the first of them. */
  timeouts(): { count: number; first?: Exchange };
  /** Rate limiting met so far. */
  rateLimits(): RateLimitStats;
  /** Requests not sent, or cut short, because the run's deadline passed. */
  cutByDeadline(): number;
  /** The wait per request now, and whether it was shortened after repeated silence. */
  wait(): { timeoutMs: number; shortenedToMs?: number };
  /** Answered exchanges per route and protocol. */
  protocols(): RouteProtocols;
  /** Every answered exchange so far, in the order answered (RESULT-REFERENCE-ANSWER reads them). */
  answered(): readonly Answered[];
  /** Hold every request but priority 0 until the function resolved is called; resolves once the others in flight ended (conformance/engine/gate.ts). */
  quiet(): Promise<() => void>;
  /** Set when the target stopped answering (liveness): nothing more is sent. */
  silence(): Silence | undefined;
  /** Move the run's deadline (epoch ms): a default one set once the round trips are measured. */
  setDeadline(at: number): void;
}

/** What became of a request given up with no answer, in words. */
function describeGiveUp(o: Observation): string {
  return o.errorCode === 'ERR_TIMEOUT'
    ? `no answer within the wait (${o.error ?? ''})`
    : `the connection failed: ${o.error ?? ''}`;
}

/** Make the rate-limited sender for one target. */
export function createTransport(opts: TransportOptions): Transport {
  let count = 0;
  let timeoutCount = 0;
  let firstTimeout: Exchange | undefined;
  /** Timeouts at the full wait, the slowest answer seen, and the wait once shortened. */
  let fullTimeouts = 0;
  let slowest = 0;
  let shortened: number | undefined;
  const waitNow = (): number => shortened ?? opts.timeoutMs;
  const protocols: RouteProtocols =
    opts.dispatcher === undefined ? {} : (protocolsByDispatcher.get(opts.dispatcher) ?? {});
  if (opts.dispatcher !== undefined) protocolsByDispatcher.set(opts.dispatcher, protocols);
  const gate = createGate({
    width: opts.concurrency ?? Infinity,
    rate: opts.rate,
    ...(opts.overdue === undefined ? {} : { overdue: opts.overdue }),
  });

  let cut = 0;
  const answered: Answered[] = [];
  let deadlineAt = opts.deadline;
  const timeLeft = (): number => (deadlineAt === undefined ? Infinity : deadlineAt - Date.now());

  // ---- liveness: requests in a row with no answer, a probe on a fresh connection, the silence
  const startedAt = opts.startedAt ?? Date.now();
  let lastAnswerAt: number | undefined;
  let lastAnsweredRequest: RawRequest | undefined;
  let streak = 0;
  let probing: Promise<void> | undefined;
  let silence: Silence | undefined;
  const inFlight = new Map<number, { sentAt: number; check?: string; exchange: Exchange; cancel: AbortController }>();
  /** Requests given up with no answer, in the order they ended (the last 50): the silence lists those it holds. */
  const gaveUp: SilentRequest[] = [];
  const downResult = (request: RawRequest, facts: SigningFacts): SendResult => {
    const observation: Observation = { verdict: 'not-sent', error: TARGET_DOWN_REASON };
    return { observation, exchange: { request, observation, ...facts } };
  };
  /** Whether the target still answers: the probe request on a fresh connection, waiting as long as its answers warrant. */
  const checkLiveness = async (fallbackPath: string): Promise<void> => {
    const dispatcher = opts.liveness?.fresh?.() ?? new Agent();
    const wait = shortenedWait(opts.timeoutMs, slowest, opts.minShortenedWaitMs);
    try {
      await sendRaw(opts.baseUrl, livenessRequest(lastAnsweredRequest, fallbackPath), { timeoutMs: wait, dispatcher });
      streak = 0; // it answers: slow or choosy, not down
    } catch (err) {
      if (silence !== undefined) return;
      const since = lastAnswerAt ?? startedAt;
      const held = [
        ...gaveUp.filter((g) => (g.exchange.observation.endedAt ?? 0) >= since),
        ...[...inFlight.entries()]
          .filter(([n]) => !gaveUp.some((g) => g.n === n))
          .map(([n, f]) => ({
            n,
            sentAt: f.sentAt,
            ...(f.check === undefined ? {} : { check: f.check }),
            exchange: f.exchange,
            outcome: 'still waiting for its answer when the target was judged down',
          })),
      ].sort((a, b) => a.n - b.n);
      silence = {
        since,
        judgedAt: Date.now(),
        probe: `${err instanceof Error ? err.message : String(err)} (waited ${wait} ms on a fresh connection)`,
        requests: held.slice(0, 10),
      };
      for (const f of inFlight.values()) f.cancel.abort();
    } finally {
      await dispatcher.close().catch(() => undefined);
      probing = undefined;
    }
  };
  const deadlineResult = (request: RawRequest, facts: SigningFacts): SendResult => {
    cut++;
    const observation: Observation = { verdict: 'not-sent', error: DEADLINE_REASON };
    return { observation, exchange: { request, observation, ...facts } };
  };

  const limits: RateLimitStats = { responses: 0, retried: 0, gaveUp: 0, waitedMs: 0 };
  const maxRetries = opts.maxRetries ?? 3;
  const maxWait = opts.maxRetryWaitMs ?? 5000;

  /** Send, and while the answer is a rate limit: wait as told (capped), rebuild with a fresh timestamp, resend (bounded). */
  const send: Sender = async (request, facts = {}, rebuild, place) => {
    let r = await sendOnce(request, facts, rebuild, place);
    for (let attempt = 1; r.observation.verdict === 'rate-limited'; attempt++) {
      limits.responses++;
      if (attempt > maxRetries) {
        limits.gaveUp++;
        break;
      }
      const wait = Math.min(maxWait, retryAfterMs(r.response?.headers['retry-after']) ?? 250 * 2 ** attempt);
      if (wait >= timeLeft()) {
        limits.gaveUp++;
        break;
      }
      limits.waitedMs += wait;
      await new Promise((res) => setTimeout(res, wait));
      limits.retried++;
      const next = rebuild?.();
      if (next !== undefined) {
        request = next.request;
        facts = next.facts;
        rebuild = next.rebuild;
      }
      r = await sendOnce(request, facts, rebuild, place);
    }
    return r;
  };

  const sendOnce = async (
    request: RawRequest,
    facts: SigningFacts,
    rebuild?: () => Built,
    place?: Place,
  ): Promise<SendResult> => {
    if (timeLeft() <= 0) return deadlineResult(request, facts);
    if (silence !== undefined) return downResult(request, facts);
    const queued = Date.now();
    const leave = await gate.enter(place?.priority ?? 0, place?.flow);
    try {
      // A request that queued long leaves with a fresh timestamp, re-signed (unless its check fixed one on purpose).
      const fresh = Date.now() - queued >= REFRESH_AFTER_MS ? rebuild?.() : undefined;
      return await (fresh === undefined
        ? sendNow(request, facts, place?.check)
        : sendNow(fresh.request, fresh.facts, place?.check));
    } finally {
      leave();
    }
  };

  const sendNow = async (request: RawRequest, facts: SigningFacts, check?: string): Promise<SendResult> => {
    const left = timeLeft();
    if (left <= 0) return deadlineResult(request, facts);
    if (silence !== undefined) return downResult(request, facts);
    // the per-request deadline never outlives the run's
    const wait = waitNow();
    const timeoutMs = Math.min(wait, Math.max(1, Math.ceil(left)));
    const n = ++count;
    opts.onRequest?.(count);
    const sentAt = Date.now();
    const cancel = new AbortController();
    inFlight.set(n, {
      sentAt,
      ...(check === undefined ? {} : { check }),
      exchange: { request, observation: { verdict: 'no-answer' }, ...facts },
      cancel,
    });
    try {
      const response = await sendRaw(opts.baseUrl, request, {
        timeoutMs,
        signal: cancel.signal,
        ...(opts.maxBodyBytes === undefined ? {} : { maxBodyBytes: opts.maxBodyBytes }),
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      });
      lastAnswerAt = Date.now();
      lastAnsweredRequest = request;
      streak = 0;
      const observation = classify(response);
      if (response.elapsedMs !== undefined) slowest = Math.max(slowest, response.elapsedMs);
      if (response.protocol !== undefined) {
        const counts = (protocols[facts.route === undefined ? 'other' : routeKey(facts.route)] ??= {});
        counts[response.protocol] = (counts[response.protocol] ?? 0) + 1;
      }
      const exchange: Exchange = {
        request,
        observation,
        ...facts,
        ...(response.protocol === undefined ? {} : { protocol: response.protocol }),
      };
      answered.push({ exchange, sentAt, receivedAt: Date.now(), headers: answerHeaders(response.headers) });
      return { observation, response, exchange };
    } catch (err) {
      if (!isSpotcheckError(err)) throw err;
      if (err.code === 'ERR_TIMEOUT' && timeoutMs < wait) return deadlineResult(request, facts);
      const cancelled = (err.details as { code?: string } | undefined)?.code === 'CANCELLED';
      const observation: Observation = {
        verdict: 'no-answer',
        error: cancelled ? `given up: ${TARGET_DOWN_REASON}` : err.message,
        errorCode: err.code === 'ERR_TIMEOUT' ? 'ERR_TIMEOUT' : 'ERR_NETWORK',
        endedAt: Date.now(),
      };
      const exchange: Exchange = { request, observation, ...facts };
      if (!cancelled) {
        gaveUp.push({
          n,
          sentAt,
          ...(check === undefined ? {} : { check }),
          exchange,
          outcome: describeGiveUp(observation),
        });
        if (gaveUp.length > 50) gaveUp.shift();
        // requests in a row with no answer: does the target still answer at all?
        if (++streak >= (opts.liveness?.after ?? 3) && probing === undefined && silence === undefined)
          probing = checkLiveness(request.path);
        if (probing !== undefined) await probing;
      }
      if (err.code === 'ERR_TIMEOUT') {
        timeoutCount++;
        firstTimeout ??= exchange;
        // Repeated silence: wait no longer than the target's measured answer times warrant (bounded, reported).
        if (shortened === undefined && ++fullTimeouts >= (opts.shortenAfter ?? 3) && slowest > 0) {
          const w = shortenedWait(opts.timeoutMs, slowest, opts.minShortenedWaitMs);
          if (w < opts.timeoutMs) shortened = w;
        }
      }
      return { observation, exchange };
    } finally {
      inFlight.delete(n);
    }
  };
  return {
    send,
    count: () => count,
    timeouts: () => (firstTimeout ? { count: timeoutCount, first: firstTimeout } : { count: timeoutCount }),
    rateLimits: () => ({ ...limits }),
    cutByDeadline: () => cut,
    wait: () =>
      shortened === undefined ? { timeoutMs: opts.timeoutMs } : { timeoutMs: opts.timeoutMs, shortenedToMs: shortened },
    protocols: () => structuredClone(protocols),
    answered: () => answered,
    quiet: () => gate.quiet(),
    silence: () => silence,
    setDeadline: (at: number) => {
      deadlineAt = at;
    },
  };
}
