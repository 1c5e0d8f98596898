/**
 * The time-window rule of §5.4 as a pure function; the server time is injected.
 */

/** Default recvWindow in milliseconds (§5.4 item 2, §8). */
export const DEFAULT_RECV_WINDOW = 5000;
/** A timestamp may lead the server time by less than this many milliseconds (§5.4 item 3, §8). */
export const MAX_LEAD_MS = 1000;

/** A source of the current time in epoch milliseconds. */
export type Clock = () => number;

/** The system clock. */
export const systemClock: Clock = () => Date.now();

/** Input of {@link checkTimeWindow}: the request's time parameters and the server time. */
export interface TimeWindowInput {
  /** Request timestamp, epoch ms. */
  timestamp: number;
  /** recvWindow in ms; default 5000 when undefined. */
  recvWindow?: number | undefined;
  /** Server time, epoch ms. */
  serverTime: number;
}

/** Outcome of {@link checkTimeWindow}: accepted, or refused with its reason and rule ID. */
export type TimeWindowVerdict =
  | { accepted: true; age: number; recvWindow: number }
  | {
      accepted: false;
      reason: 'too-old' | 'too-far-ahead';
      ruleId: 'TIME-WINDOW-PAST' | 'TIME-WINDOW-LEAD';
      age: number;
      recvWindow: number;
    };

/**
 * Processed iff `timestamp < serverTime + 1000` and `serverTime - timestamp <= recvWindow`
 * (§5.4 item 3). `age` is `serverTime - timestamp` (negative when the timestamp leads).
 */
export function checkTimeWindow(input: TimeWindowInput): TimeWindowVerdict {
  const recvWindow = input.recvWindow ?? DEFAULT_RECV_WINDOW;
  const age = input.serverTime - input.timestamp;
  if (!(input.timestamp < input.serverTime + MAX_LEAD_MS)) {
    return { accepted: false, reason: 'too-far-ahead', ruleId: 'TIME-WINDOW-LEAD', age, recvWindow };
  }
  if (!(age <= recvWindow)) {
    return { accepted: false, reason: 'too-old', ruleId: 'TIME-WINDOW-PAST', age, recvWindow };
  }
  return { accepted: true, age, recvWindow };
}
