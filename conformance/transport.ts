/**
 * The runner's only way to the target: rate-limited, timed, counted, recorded.
 * A target that hangs, resets or answers garbage gives an observation, never a throw.
 */
import type { Dispatcher } from 'undici';
import { sendRaw, type RawRequest, type RawResponse } from '../src/client/http.js';
import { isSpotcheckError } from '../src/errors.js';
import { classify, type Observation } from './observe.js';

/** One request as sent, what came back, and how its signature was made (for the curl reproduction). */
export interface Exchange {
  request: RawRequest;
  observation: Observation;
  /** The string the signature was computed over, when it is a genuine HMAC with the target's secret. */
  signedString?: string;
  /** The timestamp value used, so a reproduction can substitute a fresh one. */
  timestamp?: string;
  /** `timestamp` minus the local clock when the request was built (clock offset plus intended age). */
  timestampShiftMs?: number;
  /** The signature value sent. */
  signature?: string;
}

/** Extra facts about a request, carried into its exchange. */
export type SigningFacts = Pick<Exchange, 'signedString' | 'timestamp' | 'timestampShiftMs' | 'signature'>;

export interface SendResult {
  observation: Observation;
  exchange: Exchange;
  /** The raw response, when one came. */
  response?: RawResponse;
}

export type Sender = (request: RawRequest, facts?: SigningFacts) => Promise<SendResult>;

export interface TransportOptions {
  baseUrl: string;
  /** Requests per second; 0 = unlimited. */
  rate: number;
  timeoutMs: number;
  dispatcher?: Dispatcher;
  /** Called after every request (progress display). */
  onRequest?: (count: number) => void;
}

export interface Transport {
  send: Sender;
  /** Requests sent so far. */
  count(): number;
  /** Requests that got no answer within the timeout, and the first of them. */
  timeouts(): { count: number; first?: Exchange };
}

/** Make the rate-limited sender for one target. */
export function createTransport(opts: TransportOptions): Transport {
  let count = 0;
  let timeoutCount = 0;
  let firstTimeout: Exchange | undefined;
  let nextSlot = 0;
  const interval = opts.rate > 0 ? 1000 / opts.rate : 0;

  async function waitTurn(): Promise<void> {
    if (interval === 0) return;
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + interval;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  const send: Sender = async (request, facts = {}) => {
    await waitTurn();
    count++;
    opts.onRequest?.(count);
    try {
      const response = await sendRaw(opts.baseUrl, request, {
        timeoutMs: opts.timeoutMs,
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      });
      const observation = classify(response);
      return { observation, response, exchange: { request, observation, ...facts } };
    } catch (err) {
      if (!isSpotcheckError(err)) throw err;
      const observation: Observation = { verdict: 'no-answer', error: err.message, errorCode: err.code === 'ERR_TIMEOUT' ? 'ERR_TIMEOUT' : 'ERR_NETWORK' };
      const exchange: Exchange = { request, observation, ...facts };
      if (err.code === 'ERR_TIMEOUT') {
        timeoutCount++;
        firstTimeout ??= exchange;
      }
      return { observation, exchange };
    }
  };
  return { send, count: () => count, timeouts: () => (firstTimeout ? { count: timeoutCount, first: firstTimeout } : { count: timeoutCount }) };
}
