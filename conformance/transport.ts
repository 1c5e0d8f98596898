/**
 * The runner's only way to the target: rate-limited, timed, counted, recorded.
 * A target that hangs, resets or answers garbage gives an observation, never a throw.
 */
import type { Dispatcher } from 'undici';
import { sendRaw, type HttpProtocol, type RawRequest, type RawResponse } from '../src/client/http.js';
import { isSpotcheckError } from '../src/core/errors.js';
import { classify, type Observation } from '../src/core/response.js';
import { routeKey, type Built, type SigningFacts } from './requests.js';
import { createGate } from './gate.js';

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
 * Where a request stands in the run's queue (conformance/gate.ts): its priority (lower first)
 * and flow (whose request it is, for the fair share). Passed along by whoever sends on a
 * check's behalf; no place: priority 0 (the clock, discovery).
 */
export interface Place {
  priority: number;
  flow?: unknown;
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
  /** A request waiting past `afterMs` counts as of `priority` (conformance/gate.ts; default: never). */
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
  /** Hold every request but priority 0 until the function resolved is called; resolves once the others in flight ended (conformance/gate.ts). */
  quiet(): Promise<() => void>;
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
  const timeLeft = (): number => (opts.deadline === undefined ? Infinity : opts.deadline - Date.now());
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
    const queued = Date.now();
    const leave = await gate.enter(place?.priority ?? 0, place?.flow);
    try {
      // A request that queued long leaves with a fresh timestamp, re-signed (unless its check fixed one on purpose).
      const fresh = Date.now() - queued >= REFRESH_AFTER_MS ? rebuild?.() : undefined;
      return await (fresh === undefined ? sendNow(request, facts) : sendNow(fresh.request, fresh.facts));
    } finally {
      leave();
    }
  };

  const sendNow = async (request: RawRequest, facts: SigningFacts): Promise<SendResult> => {
    const left = timeLeft();
    if (left <= 0) return deadlineResult(request, facts);
    // the per-request deadline never outlives the run's
    const wait = waitNow();
    const timeoutMs = Math.min(wait, Math.max(1, Math.ceil(left)));
    count++;
    opts.onRequest?.(count);
    const sentAt = Date.now();
    try {
      const response = await sendRaw(opts.baseUrl, request, {
        timeoutMs,
        ...(opts.maxBodyBytes === undefined ? {} : { maxBodyBytes: opts.maxBodyBytes }),
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      });
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
      const observation: Observation = {
        verdict: 'no-answer',
        error: err.message,
        errorCode: err.code === 'ERR_TIMEOUT' ? 'ERR_TIMEOUT' : 'ERR_NETWORK',
      };
      const exchange: Exchange = { request, observation, ...facts };
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
  };
}
