/**
 * Measuring the server's clock without any endpoint beyond the spec's (design
 * principle): the HTTP `Date` header (1 s resolution) bracketed by the local send and
 * receive times, intersected over samples spread across a second; or, when the user
 * names one (`--time-path`), a time endpoint answering `{"serverTime": ms}`.
 */
import type { RawRequest } from '../../src/client/http.js';
import { SpotcheckError } from '../../src/core/errors.js';
import type { Sender } from './transport.js';
import { clipWords } from '../report/words.js';

/** What is known of `serverTime - localTime`. */
export interface ClockEstimate {
  /** Best estimate of the offset, ms (undefined when it could not be measured). */
  offsetMs?: number;
  /** Half-width of the interval the offset is known to lie in, ms. */
  uncertaintyMs?: number;
  /** How it was measured. */
  method: 'date-header' | 'time-endpoint' | 'none';
  /** Why it could not be measured, or a remark. */
  note?: string;
  /** The server's time now, by the estimate. */
  serverNow(): number;
}

/** One sample: the offset lies in [low, high]. */
export interface OffsetBound {
  low: number;
  high: number;
}

/** Servers cache the Date string and refresh it on a timer that may run a little late. */
export const DATE_HEADER_SLACK_MS = 50;

/**
 * Bound from one Date-header sample: the server stamped a time in
 * [date, date + 1000 + slack) somewhere between local `sentAt` and `receivedAt`.
 */
export function dateHeaderBound(dateMs: number, sentAt: number, receivedAt: number): OffsetBound {
  return { low: dateMs - receivedAt, high: dateMs + 1000 + DATE_HEADER_SLACK_MS - sentAt };
}

/** Bound from a time endpoint sample (ms resolution). */
export function timeEndpointBound(serverTime: number, sentAt: number, receivedAt: number): OffsetBound {
  return { low: serverTime - receivedAt, high: serverTime - sentAt };
}

/** Intersect bounds; undefined when they contradict each other (a clock that jumps, or a lying header). */
export function intersect(bounds: readonly OffsetBound[]): OffsetBound | undefined {
  if (bounds.length === 0) return undefined;
  let low = -Infinity;
  let high = Infinity;
  for (const b of bounds) {
    low = Math.max(low, b.low);
    high = Math.min(high, b.high);
  }
  return low <= high ? { low, high } : undefined;
}

/** An estimate from a known interval, with the local clock injected. */
export function estimateFrom(
  bound: OffsetBound,
  method: ClockEstimate['method'],
  now: () => number = Date.now,
): ClockEstimate {
  const offsetMs = Math.round((bound.low + bound.high) / 2);
  return {
    offsetMs,
    uncertaintyMs: Math.ceil((bound.high - bound.low) / 2),
    method,
    serverNow: () => now() + offsetMs,
  };
}

/** The estimate when nothing could be measured: callers must skip time-sensitive checks. */
export function unknownClock(note: string, now: () => number = Date.now): ClockEstimate {
  return { method: 'none', note, serverNow: now };
}

export interface MeasureOptions {
  send: Sender;
  /** A request that is cheap and places nothing (e.g. an unsigned batch call). */
  probe: RawRequest;
  timePath?: string;
  /** Samples for the Date header method. */
  samples?: number;
  /**
   * Time the Date header samples are spread over, ms (default 1100: one tick of the
   * one-second header is then caught, narrowing the offset well below a second). 0 takes
   * them back to back: the offset is then known to about half a second, enough for
   * timestamps inside the window but not for the time checks.
   */
  spreadMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Called once with the estimate from the first Date header sample, before the spread
   * ends: the offset to about half a second plus a round trip, enough for timestamps
   * inside the window (discovery), not for the time checks.
   */
  onFirstEstimate?: (e: ClockEstimate) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

/** Measure the server clock offset. */
export async function measureClock(opts: MeasureOptions): Promise<ClockEstimate> {
  const sleep = opts.sleep ?? defaultSleep;
  if (opts.timePath !== undefined) {
    const bounds: OffsetBound[] = [];
    let last = 'no answer';
    for (let i = 0; i < 5; i++) {
      const { response, observation } = await opts.send({
        method: 'GET',
        path: opts.timePath,
        query: '',
        body: '',
        headers: {},
      });
      const t = (response?.json as { serverTime?: unknown } | undefined)?.serverTime;
      const ms = typeof t === 'number' ? t : typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : undefined;
      if (response && ms !== undefined) {
        bounds.push(timeEndpointBound(ms, response.sentAt, response.receivedAt));
        continue;
      }
      last =
        response === undefined
          ? `no answer (${observation.error ?? 'network error'})`
          : `HTTP ${response.status} ${clipWords(response.text, 120)}`;
      // an answer without serverTime is the wrong path, not bad luck: say so at once (a lost request is retried)
      if (response !== undefined) break;
    }
    const b = intersect(bounds);
    if (b) return estimateFrom(b, 'time-endpoint');
    throw new SpotcheckError(
      'ERR_USAGE',
      `the time path ${opts.timePath} (--time-path, or timePath in --config) did not answer {"serverTime": ms}: got ${last}. ` +
        'Give the path of the server-time endpoint, or leave --time-path out to measure the clock from the HTTP Date header.',
    );
  }
  const n = opts.samples ?? 12;
  const spacing = Math.ceil((opts.spreadMs ?? 1100) / n);
  const bounds: OffsetBound[] = [];
  let answered = 0;
  // Each sample leaves at its time in the spread, not after the one before returns: the spread
  // is what catches a tick of the header, and the round trips overlap.
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      if (spacing > 0 && i > 0) await sleep(i * spacing);
      // two answers without a usable Date header: the target sends none, no more samples
      if (answered >= 2 && bounds.length === 0) return;
      const { response } = await opts.send(opts.probe);
      answered++;
      const date = headerValue(response?.headers.date);
      const ms = date === undefined ? NaN : Date.parse(date);
      if (response && Number.isFinite(ms)) {
        const b = dateHeaderBound(ms, response.sentAt, response.receivedAt);
        bounds.push(b);
        if (bounds.length === 1) opts.onFirstEstimate?.(estimateFrom(b, 'date-header'));
      }
    }),
  );
  if (bounds.length === 0) {
    return unknownClock('the target sends no usable Date header; pass --time-path to name a time endpoint');
  }
  const b = intersect(bounds);
  if (b === undefined) return unknownClock('Date header samples contradict each other (the server clock jumps)');
  return estimateFrom(b, 'date-header');
}
