/**
 * The signed client of the spot API over undici (§4, §5): one call per request,
 * rejections thrown as `ApiError` with the server's code and msg, a timeout, and
 * never a retry (placing an order is not idempotent).
 */
import type { Dispatcher } from 'undici';
import { ApiError, SpotcheckError } from '../core/errors.js';
import type { Placement } from '../core/signing/build.js';
import { systemClock, type Clock } from '../core/time.js';
import type { BatchOrderItem, BatchOrderResponse, SingleOrderResponse } from '../core/types.js';
import type { ApiVersion } from '../core/validation/order.js';
import { sendRaw, type RawRequest, type RawResponse } from './http.js';
import { batchOrdersRequest, orderRequest, type NewOrderV1, type NewOrderV11, type SigningAuth } from './requests.js';
import { classify, isRecord } from '../core/response.js';

/** Default time to wait for an answer, ms. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;

/** Options of `SpotClient`. */
export interface SpotClientOptions {
  /** e.g. `http://127.0.0.1:8080`; paths are appended. */
  baseUrl: string;
  /** Sent in `X-SVC-APIKEY` (§5.2). */
  apiKey: string;
  /** HMAC key (§5.3); kept in memory only, never printed. */
  secret: string;
  /** recvWindow sent with every request (omitted when not given: server default 5000). */
  recvWindow?: number;
  /** Source of `timestamp` (§5.4); default the system clock. */
  clock?: Clock;
  /** undici dispatcher (pool, agent, mock). */
  dispatcher?: Dispatcher;
  /** Headers and body timeout, ms (default 10 s). */
  timeoutMs?: number;
}

/** Options of `SpotClient.order`. */
export interface OrderCallOptions<V extends ApiVersion = ApiVersion> {
  /** `v1` (default) or `v1.1` (§4.2, §9). */
  version?: V;
  /** Where the signed parameters go (§5.3); default `query`. */
  placement?: Placement;
}

/** A client bound to one server and one key. */
export class SpotClient {
  /** Base URL requests go to. */
  readonly baseUrl: string;
  /** The API key sent with every request. */
  readonly apiKey: string;
  readonly #secret: string;
  readonly #recvWindow: number | undefined;
  readonly #clock: Clock;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #timeoutMs: number;

  constructor(opts: SpotClientOptions) {
    if (opts.apiKey === '' || opts.secret === '')
      throw new SpotcheckError('ERR_INVALID_INPUT', 'SpotClient needs an API key and a secret');
    this.baseUrl = opts.baseUrl;
    this.apiKey = opts.apiKey;
    this.#secret = opts.secret;
    this.#recvWindow = opts.recvWindow;
    this.#clock = opts.clock ?? systemClock;
    this.#dispatcher = opts.dispatcher;
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  }

  /**
   * Create up to 20 orders of one symbol (§4.1). Resolves with the response whose
   * `result` holds each order's own code and msg (a failed entry is data, not a throw);
   * a refused call throws `ApiError`.
   */
  async batchOrders(orders: ReadonlyArray<BatchOrderItem>): Promise<BatchOrderResponse> {
    const { request } = batchOrdersRequest(orders, this.#auth());
    return expectObject<BatchOrderResponse>(await this.#send(request));
  }

  /** Create one v1 order (§4.2) in the given placement; a refusal throws `ApiError`. */
  order(order: NewOrderV1, opts?: OrderCallOptions<'v1'>): Promise<SingleOrderResponse>;
  /** Create one v1.1 order (§4.2, §9) in the given placement; a refusal throws `ApiError`. */
  order(order: NewOrderV11, opts: OrderCallOptions<'v1.1'> & { version: 'v1.1' }): Promise<SingleOrderResponse>;
  /** Create one order (§4.2): version `v1` by default, placement `query` by default. */
  async order(order: NewOrderV1 | NewOrderV11, opts: OrderCallOptions = {}): Promise<SingleOrderResponse> {
    const { request } = orderRequest(
      order,
      { version: opts.version ?? 'v1', placement: opts.placement ?? 'query' },
      this.#auth(),
    );
    return expectObject<SingleOrderResponse>(await this.#send(request));
  }

  #auth(): SigningAuth {
    return {
      apiKey: this.apiKey,
      secret: this.#secret,
      timestamp: Math.floor(this.#clock()),
      recvWindow: this.#recvWindow,
    };
  }

  #send(request: RawRequest): Promise<RawResponse> {
    return sendRaw(this.baseUrl, request, {
      timeoutMs: this.#timeoutMs,
      ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
    });
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * The JSON object of an answer the core's classifier (src/core/response.ts) calls
 * `accepted`: 2xx with `code` absent or 0. A non-2xx answer, or a non-zero `code` (the
 * HTTP-200 error style), throws `ApiError` with the server's code and msg; a 2xx that
 * is not a JSON object, or whose `code` is unreadable (D-CODE-READING), throws
 * `ERR_BAD_RESPONSE`.
 */
export function expectObject<T>(res: RawResponse): T {
  const o = classify(res);
  if (o.verdict === 'accepted') return res.json as T;
  const inRange = res.status >= 200 && res.status < 300;
  if (o.verdict === 'bad-response' && inRange) {
    const what = isRecord(res.json)
      ? `top-level code ${JSON.stringify(res.json.code)} is not a number`
      : 'answer is not a JSON object';
    throw new SpotcheckError('ERR_BAD_RESPONSE', `HTTP ${res.status} ${what}`, {
      status: res.status,
      text: res.text.slice(0, 200),
    });
  }
  const body = res.json;
  const code = field(body, 'code');
  const msg = field(body, 'msg');
  const apiCode = typeof code === 'number' || typeof code === 'string' ? code : undefined;
  const apiMsg =
    typeof msg === 'string' ? msg : body === undefined && res.text !== '' ? res.text.slice(0, 200) : undefined;
  throw new ApiError(res.status, apiCode, apiMsg);
}
