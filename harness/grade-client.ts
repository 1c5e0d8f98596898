/**
 * A client written the way an outside team writes one: plain `fetch` (undici) and
 * node:crypto's createHmac, none of the kit's code. Each typical mistake can be switched
 * on, so `spotcheck grade` can be shown to name it on its rule (and to pass the client
 * with none). It retries the way careful clients do: after a 429 it waits Retry-After,
 * after a 5xx, a timeout or the time error it re-signs (re-reading the server time from
 * the Date header after the time error) and sends again, at most twice.
 */
import { createHmac } from 'node:crypto';

/** The mistakes this client can make, each one alone. */
export const MISTAKES = [
  /** Signs only the query string of a split request (§5.3 item 4). */
  'unsigned-body',
  /** Signs the values before percent-encoding them; fetch encodes the space it sends. */
  'signed-before-encoding',
  /** Sends the form body as application/json. */
  'wrong-content-type',
  /** Timestamps 10 s in the past. */
  'stale-timestamp',
  /** A retry sends the very same bytes again. */
  'replayed-retry',
  /** A batch of 21 orders. */
  'batch-21',
  /** A batch mixing two symbols. */
  'mixed-symbols',
  /** recvWindow=60000 on every request. */
  'recv-window-60000',
  /** Signs the JSON batch as Python's json.dumps writes it (", " and ": "), sends it compact. */
  'json-dumps-spaces',
  /** Leaves out the X-SVC-APIKEY header. */
  'no-api-key',
  /** Writes prices as JSON numbers straight from a double: 1e-7. */
  'exponent-decimal',
  /** Reuses one client order id for every order. */
  'reused-client-id',
  /** Resends the whole batch when one entry failed. */
  'resend-whole-batch',
  /** API key and secret swapped: the secret in the header, the HMAC keyed with the API key. */
  'swapped-key-secret',
  /** Sends again at once after a 429, ignoring Retry-After. */
  'ignores-retry-after',
] as const;
export type Mistake = (typeof MISTAKES)[number];

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  secret: string;
  mistakes?: readonly Mistake[];
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
  /** Sends after the first, at most (default 2). */
  maxRetries?: number;
}

export interface Reply {
  status: number;
  json: unknown;
}

type Order = Record<string, string | number>;

/** One attempt's bytes: kept so a replaying client can send them again. */
interface Wire {
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
}

export class OutsideClient {
  private readonly o: ClientOptions;
  private readonly m: Set<Mistake>;
  /** Server time minus local time, ms, learnt from a Date header after a time error. */
  private offsetMs = 0;
  private ids = 0;
  /** What happened, for the test's eyes. */
  readonly log: string[] = [];

  constructor(o: ClientOptions) {
    this.o = o;
    this.m = new Set(o.mistakes ?? []);
  }

  /** A new client order id (the same one every time with `reused-client-id`). */
  nextId(prefix = 'o'): string {
    return this.m.has('reused-client-id') ? `${prefix}-same` : `${prefix}-${++this.ids}-${Date.now().toString(36)}`;
  }

  private now(): number {
    return Date.now() + this.offsetMs - (this.m.has('stale-timestamp') ? 10_000 : 0);
  }

  private hmac(s: string): string {
    const key = this.m.has('swapped-key-secret') ? this.o.apiKey : this.o.secret;
    return createHmac('sha256', key).update(s).digest('hex');
  }

  private headers(contentType?: string, scenario?: string): Record<string, string> {
    const h: Record<string, string> = {};
    if (!this.m.has('no-api-key')) h['X-SVC-APIKEY'] = this.m.has('swapped-key-secret') ? this.o.secret : this.o.apiKey;
    if (contentType !== undefined) h['Content-Type'] = contentType;
    if (scenario !== undefined) h['X-Spotcheck-Scenario'] = scenario;
    return h;
  }

  private timeParams(): string {
    const rw = this.m.has('recv-window-60000') ? '&recvWindow=60000' : '';
    return `timestamp=${this.now()}${rw}`;
  }

  private encode(v: string | number): string {
    return this.m.has('signed-before-encoding') ? String(v) : encodeURIComponent(String(v));
  }

  /** One single order: order fields in a form body, time and signature in the query (split), or all in the query. */
  private buildOrder(version: 'v1' | 'v1.1', order: Order, split: boolean, scenario?: string): Wire {
    const fields = Object.entries(order)
      .map(([k, v]) => `${k}=${this.encode(v)}`)
      .join('&');
    const path = `/api/${version}/spot/order`;
    if (split) {
      const query = this.timeParams();
      const signed = this.m.has('unsigned-body') ? query : query + fields;
      const ct = this.m.has('wrong-content-type') ? 'application/json' : 'application/x-www-form-urlencoded';
      return {
        url: `${this.o.baseUrl}${path}?${query}&signature=${this.hmac(signed)}`,
        init: { method: 'POST', headers: this.headers(ct, scenario), body: fields },
      };
    }
    const query = `${fields}&${this.timeParams()}`;
    return {
      url: `${this.o.baseUrl}${path}?${query}&signature=${this.hmac(query)}`,
      init: { method: 'POST', headers: this.headers(undefined, scenario) },
    };
  }

  private buildBatch(orders: Order[], scenario?: string): Wire {
    const body = JSON.stringify(orders);
    const signedBody = this.m.has('json-dumps-spaces') ? pythonDumps(orders) : body;
    const query = this.timeParams();
    return {
      url: `${this.o.baseUrl}/api/v1/spot/batchOrders?${query}&signature=${this.hmac(query + signedBody)}`,
      init: { method: 'POST', headers: this.headers('application/json', scenario), body },
    };
  }

  /** Send, and send again the careful way (or the replaying way) after a 429, 5xx, timeout or time error. */
  private async send(build: () => Wire, timeoutMs = this.o.timeoutMs ?? 10_000): Promise<Reply> {
    let wire = build();
    const max = this.o.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      let reply: Reply | undefined;
      let date: string | null = null;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(wire.url, { ...wire.init, signal: AbortSignal.timeout(timeoutMs) });
        const text = await res.text();
        date = res.headers.get('date');
        retryAfter = res.headers.get('retry-after');
        reply = { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
        this.log.push(`HTTP ${res.status}`);
      } catch (err) {
        this.log.push(`no answer: ${(err as Error).name}`);
      }
      const code = (reply?.json as { code?: unknown } | undefined)?.code;
      const retryable = reply === undefined || reply.status === 429 || reply.status >= 500 || code === -1021;
      if (!retryable || attempt >= max) return reply ?? { status: 0, json: undefined };
      // Retry-After, plus a little (timers may fire a millisecond early)
      if (reply?.status === 429 && !this.m.has('ignores-retry-after'))
        await sleep(Number(retryAfter ?? '1') * 1000 + 50);
      if (code === -1021 && date !== null) this.offsetMs = Date.parse(date) - Date.now();
      if (!this.m.has('replayed-retry')) wire = build();
    }
  }

  /** Place one order on v1 or v1.1 (split: fields in a form body). */
  placeOrder(
    version: 'v1' | 'v1.1',
    order: Order,
    opts: { split?: boolean; scenario?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    return this.send(() => this.buildOrder(version, order, opts.split ?? false, opts.scenario), opts.timeoutMs);
  }

  /** Place a batch; entries that failed are sent once more on their own (or the whole batch, a mistake). */
  async placeBatch(orders: Order[], opts: { scenario?: string } = {}): Promise<Reply> {
    const reply = await this.send(() => this.buildBatch(orders, opts.scenario));
    const result = (reply.json as { result?: Array<{ code?: number }> } | undefined)?.result;
    if (!Array.isArray(result) || result.every((e) => e.code === 0)) return reply;
    const again = this.m.has('resend-whole-batch') ? orders : orders.filter((_, i) => result[i]?.code !== 0);
    return this.send(() => this.buildBatch(again, opts.scenario));
  }

  /** A LIMIT order of this client's style (prices as strings, or doubles with `exponent-decimal`). */
  limit(symbol = 'BTCUSDT', id = this.nextId()): Order {
    return {
      symbol,
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: this.m.has('exponent-decimal') ? 1e-7 : '30000.5',
      newClientOrderId: id,
    };
  }

  /** A batch of `n` LIMIT orders (21 with `batch-21`; the second for ETHUSDT with `mixed-symbols`). */
  batch(n: number, prefix = 'b'): Order[] {
    const count = this.m.has('batch-21') ? 21 : n;
    return Array.from({ length: count }, (_, i) =>
      this.limit(this.m.has('mixed-symbols') && i === 1 ? 'ETHUSDT' : 'BTCUSDT', this.nextId(prefix)),
    );
  }
}

/** Python's `json.dumps(x)` with its default separators (", " and ": ") for flat objects of strings and numbers. */
export function pythonDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pythonDumps).join(', ')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pythonDumps(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The routine the harness grades: one LIMIT order on v1 (query), one split on v1.1, a
 * MARKET by amount on v1.1 and a batch of 20; each order with a client id holding a space
 * (which `signed-before-encoding` gets wrong).
 */
export async function routine(c: OutsideClient): Promise<Reply[]> {
  const out: Reply[] = [];
  out.push(await c.placeOrder('v1', { ...c.limit(), newClientOrderId: c.nextId('my order') }));
  out.push(await c.placeOrder('v1.1', c.limit(), { split: true }));
  out.push(
    await c.placeOrder('v1.1', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      amount: '100',
      newClientOrderId: c.nextId(),
    }),
  );
  out.push(await c.placeBatch(c.batch(20)));
  return out;
}
