/**
 * Variant targets for the runner's self-test: the reference server behind a
 * loopback proxy that makes one legitimate choice the seed leaves open, or follows a
 * real deployment's shape — a path prefix, another API-key header, no batch endpoint,
 * one placement only, occasional 429s, 19-digit ids as JSON numbers, failed entries that
 * echo an order, a mixed-symbol batch answered entry by entry, a price filter. Request
 * bytes are forwarded unchanged, so signatures still verify. Test harness only: never
 * part of the package.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { API_KEY_HEADER } from '../src/core/wire.js';
import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../src/client/requests.js';
import { DEMO_CREDENTIALS } from '../src/server/credentials.js';
import { startServer, type RunningServer, type ServerOptions } from '../src/server/server.js';
import { sign, verify } from '../src/signing/hmac.js';
import { signingSteps } from '../src/core/signing/total-params.js';

/** What the proxy changes; every field is optional (none = a transparent proxy). */
export interface VariantOptions {
  /** Serve every path under this prefix (and nothing outside it). */
  prefix?: string;
  /** Read the API key from this header instead of X-SVC-APIKEY. */
  apiKeyHeader?: string;
  /** Answer 404 on the batch endpoint. */
  noBatch?: boolean;
  /** Single orders: refuse any signed parameter in the query string (form body only). */
  formBodyOnly?: boolean;
  /** Answer this share of requests (0..1) with 429 + Retry-After before they reach the server. */
  rate429?: number;
  /** Seconds in the Retry-After header of a 429 (default 0). */
  retryAfterSeconds?: number;
  /** Rewrite orderId and accountId as 19-digit JSON numbers. */
  numericIds?: boolean;
  /** Give every failed batch entry an `order` object echoing what was sent. */
  echoFailedEntries?: boolean;
  /** Answer a mixed-symbol batch with HTTP 200, code 0 and every entry failed (nothing placed). */
  mixedSymbolEntries?: boolean;
  /**
   * Refuse (HTTP 400, code -1013) any order whose price is not a multiple of this tick or is below `minPrice`.
   * `entries`: in a batch, refuse such orders entry by entry instead (the others are placed): `report` gives
   * each its own entry in place, `drop` leaves their entries out of `result` (a fault).
   */
  priceFilter?: { tick: string; minPrice: string; entries?: 'report' | 'drop' };
  /** Also serve this path as a v1 test-order endpoint (forwarded to v1 here; counted apart). */
  testOrderPath?: string;
  /** Rewrite the text of every answer from the server (response faults for the mutant self-test). */
  rewriteResponse?: (text: string) => string;
  /** Compress every answer with this Content-Encoding, whatever the request's Accept-Encoding says (RFC 9110 §12.5.3 allows it when none is sent). */
  compress?: 'gzip' | 'deflate' | 'br';
  /**
   * Serve an order lookup at this path (GET or POST, `origClientOrderId` in the query): 200 with
   * the order when a placed order bore that client id, 400 code -2013 otherwise. The placed ids
   * are read from the server's answers.
   */
  orderLookup?: string;
  /**
   * A small test account: every placed order reserves what it costs (a BUY price x quantity of
   * quote, a MARKET BUY its amount or quantity x `marketPrice`, a SELL its quantity of base) and an
   * order that no longer fits is refused for insufficient balance (code -2010: HTTP 400 for a single
   * order, its own entry in a batch, the others placed).
   */
  account?: { quote: number; base: number; marketPrice: number };
  /** Read the API-key header only under its exact name as written (a case-sensitive reader; a fault): any other spelling is no key. */
  apiKeyHeaderExactCase?: boolean;
  /** Send no HTTP Date header (nothing to measure the server's clock by). */
  noDateHeader?: boolean;
  /** While this says so, every request is read and never answered (a target that stops answering mid-run). */
  hold?: () => boolean;
  /** Options of the reference server behind the proxy. */
  server?: ServerOptions;
  /**
   * A fault on some routes only (route-mutant self-test): rewrite a request before
   * it reaches the server (e.g. add a missing key, or change a value and re-sign with
   * `resign`), or answer it directly.
   */
  rewrite?: (
    req: ProxiedRequest,
  ) => ProxiedRequest | { answer: { status: number; body: unknown }; forward?: ProxiedRequest };
}

/** A request as the proxy sees it, by route. */
export interface ProxiedRequest {
  /** `batch/json`, `v1/query`, ... (the placement read from where the parameters are). */
  route: string;
  query: string;
  body: string;
  headers: Record<string, string>;
}

/** The same request with its signature recomputed over its text as it now stands (§5.3), where the signature stood. */
export function resign(req: ProxiedRequest, secret: string): ProxiedRequest {
  const isBatch = req.route.startsWith('batch');
  const steps = signingSteps(req.query, req.body, isBatch ? 'json' : req.body === '' ? 'none' : 'form');
  const pair = `signature=${sign(secret, steps.totalParams)}`;
  const put = (part: string) =>
    [...part.split('&').filter((p) => p !== '' && !p.startsWith('signature=')), pair].join('&');
  return /(^|&)signature=/.test(req.query) || isBatch || req.body === ''
    ? { ...req, query: put(req.query) }
    : { ...req, body: put(req.body) };
}

/** The route of a request: the batch path, or a single-order path with the placement its parameters show. */
function routeOf(path: string, query: string, body: string): string {
  if (path === BATCH_ORDERS_PATH) return 'batch/json';
  const version = path.includes('/v1.1/') ? 'v1.1' : 'v1';
  const signed = (s: string) => s.split('&').filter((p) => p !== '' && !p.startsWith('signature=')).length > 0;
  return `${version}/${signed(query) && signed(body) ? 'split' : signed(body) ? 'body' : 'query'}`;
}

/** A started variant: the proxy's URL and the reference server behind it. */
export interface RunningVariant {
  url: string;
  server: RunningServer;
  /** Requests answered 429 by the proxy. */
  throttled(): number;
  /** Requests that reached the v1 order endpoint, and the test-order path. */
  v1Requests(): { real: number; test: number };
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

/** A small deterministic PRNG so a variant's 429s are the same every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Scaled-integer multiple test of two decimal strings. */
function onTick(price: string, tick: string, minPrice: string): boolean {
  const scale = Math.max(...[price, tick, minPrice].map((s) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0)));
  const big = (s: string) => {
    const [i = '0', f = ''] = s.split('.');
    return BigInt(i + f.padEnd(scale, '0'));
  };
  if (!/^[0-9]+(\.[0-9]+)?$/.test(price)) return true; // not a decimal: the server's own validation answers
  const p = big(price);
  return p >= big(minPrice) && p % big(tick) === 0n;
}

/** Prices of the orders a request carries (batch JSON body, or form/query parameters). */
function pricesOf(isBatch: boolean, query: string, body: string): string[] {
  if (isBatch) {
    try {
      const v = JSON.parse(body) as unknown;
      return Array.isArray(v)
        ? v.flatMap((o) =>
            o && typeof o === 'object' && 'price' in o ? [String((o as { price: unknown }).price)] : [],
          )
        : [];
    } catch {
      return [];
    }
  }
  return [...new URLSearchParams(query).entries(), ...new URLSearchParams(body).entries()]
    .filter(([k]) => k === 'price')
    .map(([, v]) => v);
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Start the reference server and the proxy in front of it, both on loopback. */
export async function startVariant(opts: VariantOptions, seed = 1): Promise<RunningVariant> {
  const server = await startServer({ port: 0, ...opts.server });
  const random = prng(seed);
  let throttled = 0;
  const v1 = { real: 0, test: 0 };
  const prefix = (opts.prefix ?? '').replace(/\/+$/, '');
  const keyHeader = (opts.apiKeyHeader ?? API_KEY_HEADER).toLowerCase();
  const credentials = opts.server?.credentials ?? DEMO_CREDENTIALS;
  /** Whether a request carries a valid signature of a known key (§5.3), as the server behind will judge it. */
  const signatureValid = (apiKey: string | undefined, query: string, body: string, isBatch: boolean): boolean => {
    const cred = credentials.find((c) => c.apiKey === apiKey);
    const sig =
      new URLSearchParams(query).get('signature') ?? (isBatch ? null : new URLSearchParams(body).get('signature'));
    if (cred === undefined || sig === null) return false;
    return verify(
      cred.secret,
      signingSteps(query, body, isBatch ? 'json' : body === '' ? 'none' : 'form').totalParams,
      sig,
    );
  };

  // The small account's balances (copied: the options stay as given).
  const account = opts.account === undefined ? undefined : { ...opts.account };
  // Client ids of placed orders, read from the answers (for the order lookup).
  const placedIds = new Set<string>();
  const notePlaced = (text: string): void => {
    try {
      const v = JSON.parse(text) as { code?: unknown; clientOrderId?: unknown; result?: unknown };
      if (Array.isArray(v.result)) {
        for (const e of v.result as Array<{ code?: unknown; order?: { clientOrderId?: unknown } }>)
          if (e.code === 0 && typeof e.order?.clientOrderId === 'string') placedIds.add(e.order.clientOrderId);
      } else if (v.code === 0 && typeof v.clientOrderId === 'string') placedIds.add(v.clientOrderId);
    } catch {
      // not JSON: nothing placed
    }
  };
  const proxy = createServer((req, res) => {
    res.sendDate = !opts.noDateHeader;
    void (async () => {
      const body = (await readAll(req)).toString('utf8');
      if (opts.hold?.() === true) return;
      let accountSpend: ((text: string) => void) | undefined;
      const [rawPath = '', query = ''] = (req.url ?? '').split(/\?(.*)/s, 2);
      if (!rawPath.startsWith(`${prefix}/`)) return json(res, 404, { code: -1000, msg: 'not found' });
      let path = rawPath.slice(prefix.length);
      if (opts.testOrderPath !== undefined && path === opts.testOrderPath) {
        v1.test++;
        path = ORDER_PATHS.v1;
      } else if (path === ORDER_PATHS.v1) v1.real++;
      if (opts.orderLookup !== undefined && path === opts.orderLookup) {
        const id = new URLSearchParams(query).get('origClientOrderId') ?? '';
        return placedIds.has(id)
          ? json(res, 200, { code: 0, clientOrderId: id, status: 'NEW' })
          : json(res, 400, { code: -2013, msg: 'Order does not exist.' });
      }
      const isBatch = path === BATCH_ORDERS_PATH;
      if (opts.noBatch && isBatch) return json(res, 404, { code: -1000, msg: 'not found' });
      if (opts.rate429 !== undefined && random() < opts.rate429) {
        throttled++;
        return json(
          res,
          429,
          { code: -1003, msg: 'too many requests' },
          { 'retry-after': String(opts.retryAfterSeconds ?? 0) },
        );
      }
      if (opts.formBodyOnly && !isBatch && query !== '')
        return json(res, 400, { code: -1102, msg: 'parameters must be sent in the request body' });
      let orders: unknown[] | undefined;
      if (isBatch) {
        try {
          const v = JSON.parse(body) as unknown;
          if (Array.isArray(v)) orders = v;
        } catch {
          orders = undefined;
        }
      }
      const headers: Record<string, string> = {};
      const exactKeyName = opts.apiKeyHeader ?? API_KEY_HEADER;
      const keyMisspelt =
        opts.apiKeyHeaderExactCase === true && !req.rawHeaders.some((n, i) => i % 2 === 0 && n === exactKeyName);
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v !== 'string' || k === 'host' || k === 'content-length' || k === 'connection') continue;
        if (k === API_KEY_HEADER.toLowerCase() && keyHeader !== k) continue; // the seed's header means nothing here
        if (k === keyHeader && keyMisspelt) continue; // not the name it looks for, letter for letter
        headers[k === keyHeader ? API_KEY_HEADER : k] = v;
      }
      if (opts.priceFilter && signatureValid(headers[API_KEY_HEADER], query, body, isBatch)) {
        // Like a real venue: the filter applies to authentic requests, after the signature check.
        const { tick, minPrice, entries } = opts.priceFilter;
        const passes = (o: unknown): boolean =>
          !(o && typeof o === 'object' && 'price' in o) ||
          onTick(String((o as { price: unknown }).price), tick, minPrice);
        if (entries !== undefined && orders !== undefined && !orders.every(passes)) {
          // Entry by entry: the orders that pass the filter are placed, each other one gets its own failed entry (or none).
          const kept = orders.filter(passes);
          let placedEntries: unknown[] = [];
          if (kept.length > 0) {
            const fwd = resign(
              { route: 'batch/json', query, body: JSON.stringify(kept), headers },
              credentials.find((c) => c.apiKey === headers[API_KEY_HEADER])?.secret ?? '',
            );
            const up = await request(`${server.url}${path}?${fwd.query}`, {
              method: 'POST',
              headers: fwd.headers,
              body: fwd.body,
            });
            const parsed = (await up.body.json()) as { result?: unknown[] };
            placedEntries = parsed.result ?? [];
          }
          const failed = { code: -1013, msg: 'Filter failure: PRICE_FILTER' };
          const result =
            entries === 'drop' ? placedEntries : orders.map((o) => (passes(o) ? placedEntries.shift() : failed));
          return json(res, 200, { code: 0, result });
        }
        if (pricesOf(isBatch, query, body).some((p) => !onTick(p, tick, minPrice)))
          return json(res, 400, { code: -1013, msg: 'Filter failure: PRICE_FILTER' });
      }
      if (account !== undefined && signatureValid(headers[API_KEY_HEADER], query, body, isBatch)) {
        const acct = account;
        const broke = { code: -2010, msg: 'Account has insufficient balance for requested action.' };
        const cost = (o: Record<string, unknown>): { quote: number; base: number } => {
          const qty = Number(o.quantity ?? 0) || 0;
          if (o.side === 'SELL') return { quote: 0, base: qty };
          if (o.type === 'MARKET')
            return { quote: o.amount !== undefined ? Number(o.amount) || 0 : qty * acct.marketPrice, base: 0 };
          return { quote: (Number(o.price ?? 0) || 0) * qty, base: 0 };
        };
        const fits = (c: { quote: number; base: number }) => c.quote <= acct.quote + 1e-9 && c.base <= acct.base + 1e-9;
        const spend = (c: { quote: number; base: number }) => {
          acct.quote -= c.quote;
          acct.base -= c.base;
        };
        const secret = credentials.find((c) => c.apiKey === headers[API_KEY_HEADER])?.secret ?? '';
        if (orders !== undefined) {
          // In a batch, each order that no longer fits gets its own failed entry; the others go through.
          let left = { quote: acct.quote, base: acct.base };
          const keep = orders.map((o) => {
            const c = cost((o ?? {}) as Record<string, unknown>);
            if (c.quote > left.quote + 1e-9 || c.base > left.base + 1e-9) return false;
            left = { quote: left.quote - c.quote, base: left.base - c.base };
            return true;
          });
          if (keep.some((k) => !k)) {
            const kept = orders.filter((_o, i) => keep[i]);
            let placedEntries: unknown[] = [];
            if (kept.length > 0) {
              const fwd = resign({ route: 'batch/json', query, body: JSON.stringify(kept), headers }, secret);
              const up = await request(`${server.url}${path}?${fwd.query}`, {
                method: 'POST',
                headers: fwd.headers,
                body: fwd.body,
              });
              const parsed = (await up.body.json()) as { code?: unknown; result?: unknown[] };
              if (up.statusCode !== 200) return json(res, up.statusCode, parsed);
              placedEntries = parsed.result ?? [];
            }
            const result = orders.map((o, i) => {
              if (!keep[i]) return broke;
              const e = placedEntries.shift() as { code?: unknown } | undefined;
              if (e?.code === 0) spend(cost((o ?? {}) as Record<string, unknown>));
              return e;
            });
            return json(res, 200, { code: 0, result });
          }
        } else if (!isBatch) {
          const o = Object.fromEntries([...new URLSearchParams(query), ...new URLSearchParams(body)]);
          if (o.symbol !== undefined && !fits(cost(o))) return json(res, 400, broke);
        }
        // Everything fits: forwarded below; what the answer shows placed is spent then.
        accountSpend = (text: string) => {
          try {
            const v = JSON.parse(text) as { code?: unknown; result?: Array<{ code?: unknown }> };
            if (orders !== undefined)
              (v.result ?? []).forEach(
                (e, i) => e.code === 0 && spend(cost((orders[i] ?? {}) as Record<string, unknown>)),
              );
            else if (v.code === 0)
              spend(cost(Object.fromEntries([...new URLSearchParams(query), ...new URLSearchParams(body)])));
          } catch {
            // not JSON: nothing placed
          }
        };
      }
      if (
        opts.mixedSymbolEntries &&
        orders !== undefined &&
        new Set(orders.map((o) => (o as { symbol?: unknown })?.symbol)).size > 1
      ) {
        // A legitimate reading of "mixed symbols are unsupported" (§4.1 rule 2): every entry fails, nothing is placed.
        return json(res, 200, {
          code: 0,
          result: orders.map(() => ({ code: -1194, msg: 'orders of one symbol only' })),
        });
      }
      let sent: ProxiedRequest = { route: routeOf(path, query, body), query, body, headers };
      if (opts.rewrite) {
        const r = opts.rewrite(sent);
        if ('answer' in r) {
          // `forward`: the request still reaches the server (e.g. an order placed) whatever the client is told.
          if (r.forward !== undefined) {
            const f = r.forward;
            const placedText = await (
              await request(`${server.url}${path}${f.query === '' ? '' : `?${f.query}`}`, {
                method: 'POST',
                headers: f.headers,
                body: f.body,
              })
            ).body.text();
            if (opts.orderLookup !== undefined) notePlaced(placedText);
          }
          return json(res, r.answer.status, r.answer.body);
        }
        sent = r;
      }
      // The body is forwarded whole, with its own length (undici sets it): the framing header stays behind.
      const { 'transfer-encoding': _framing, ...forwarded } = sent.headers;
      const up = await request(`${server.url}${path}${sent.query === '' ? '' : `?${sent.query}`}`, {
        method: (req.method ?? 'GET') as 'POST',
        headers: forwarded,
        body: sent.body,
      });
      let text = await up.body.text();
      accountSpend?.(text);
      if (opts.orderLookup !== undefined) notePlaced(text);
      if (opts.rewriteResponse) text = opts.rewriteResponse(text);
      if (opts.numericIds)
        text = text.replace(
          /"(orderId|accountId)":"(\d{1,16})"/g,
          (_m, k: string, d: string) => `"${k}":${`100${d.padStart(16, '0')}`}`,
        );
      if (opts.echoFailedEntries && orders !== undefined) {
        try {
          const parsed = JSON.parse(text) as { result?: unknown[] };
          if (Array.isArray(parsed.result)) {
            parsed.result = parsed.result.map((e, i) => {
              const entry = e as { code?: unknown; order?: unknown };
              const sent = (orders?.[i] ?? {}) as Record<string, unknown>;
              return entry.code !== 0 && entry.order === undefined
                ? {
                    ...entry,
                    order: {
                      symbol: sent.symbol,
                      side: sent.side,
                      type: sent.type,
                      clientOrderId: sent.newClientOrderId ?? '',
                      status: 'REJECTED',
                    },
                  }
                : entry;
            });
            text = JSON.stringify(parsed);
          }
        } catch {
          // not JSON: forwarded as is
        }
      }
      const compressed =
        opts.compress === undefined
          ? Buffer.from(text, 'utf8')
          : { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[opts.compress](Buffer.from(text, 'utf8'));
      const out: Record<string, string> = {
        'content-type': up.headers['content-type']?.toString() ?? 'application/json',
        'content-length': String(compressed.length),
      };
      if (opts.compress !== undefined) out['content-encoding'] = opts.compress;
      const date = up.headers.date;
      if (typeof date === 'string' && !opts.noDateHeader) out.date = date;
      res.writeHead(up.statusCode, out);
      res.end(compressed);
    })().catch((err: unknown) => {
      if (!res.headersSent)
        json(res, 502, { code: -1000, msg: `proxy: ${err instanceof Error ? err.message : String(err)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    throttled: () => throttled,
    v1Requests: () => ({ ...v1 }),
    async close() {
      // every connection ends now, a held request's too
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      await server.close();
    },
  };
}
