/**
 * The real client libraries of this API family the interop harness drives, each with
 * the package and version installed from the npm registry, how it addresses the API
 * (header and paths, adapted by the wrapper), and how it sends an order in each placement
 * it offers. A placement a library has no call for is `unsupported`. Facts about each
 * library come from its published source (the installed package), cited per driver.
 */
import type { ClientWire } from './proxy.js';
import type { OrderParams, Placement } from './scenarios.js';

/** What a driver gets: the loaded package, the wrapper's URL and the credentials. */
export interface DriverContext {
  /** The package's exports (CommonJS `module.exports`, or the ES module namespace). */
  mod: Record<string, unknown>;
  baseUrl: string;
  apiKey: string;
  secret: string;
}

/** Sends orders in one placement; resolves or rejects as the library does. */
export type Send = (client: unknown, orders: OrderParams[]) => Promise<unknown>;

export interface Driver {
  /** Name in the matrix, e.g. `ccxt (hashkey)`. */
  name: string;
  /** npm package and the version installed. */
  pkg: string;
  version: string;
  wire: ClientWire;
  create(ctx: DriverContext): unknown;
  send: Partial<Record<Placement, Send>>;
}

const SEED = { order: '/api/v1/spot/order', batch: '/api/v1/spot/batchOrders' } as const;

// biome-ignore lint/suspicious/noExplicitAny: third-party client classes are driven dynamically, without their types
type Any = Record<string, any>;

/** A ccxt exchange class with every API base URL pointed at the wrapper. */
function ccxtExchange(ctx: DriverContext, id: string): Any {
  const ccxt = (ctx.mod.default ?? ctx.mod) as Any;
  const ex = new ccxt[id]({ apiKey: ctx.apiKey, secret: ctx.secret, enableRateLimit: false, timeout: 10_000 }) as Any;
  // Only the origin is replaced: the library's own path prefix (e.g. `/api/v3`) stays.
  const point = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.replace(/^https?:\/\/[^/]+/, ctx.baseUrl)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, point(x)]))
        : v;
  ex.urls = { ...ex.urls, api: point(ex.urls.api) };
  return ex;
}

/** The function a package exports as its default (a CommonJS `exports.default` arrives as `default.default`). */
function unwrapDefault(mod: unknown): unknown {
  let m = mod;
  while (typeof m !== 'function' && m !== null && typeof m === 'object' && 'default' in m)
    m = (m as { default: unknown }).default;
  return m;
}

const one = (orders: OrderParams[]): OrderParams => {
  const [o] = orders;
  if (o === undefined) throw new Error('no order');
  return o;
};

export const DRIVERS: readonly Driver[] = [
  {
    // ccxt hashkey.sign: POST parameters form-encoded in the body; batch orders as a JSON body, only the query signed.
    name: 'ccxt (hashkey)',
    pkg: 'ccxt',
    version: '4.5.84',
    wire: { apiKeyHeader: 'X-HK-APIKEY', paths: { [SEED.order]: SEED.order, [SEED.batch]: SEED.batch } },
    create: (ctx) => ccxtExchange(ctx, 'hashkey'),
    send: {
      form: (c, orders) => (c as Any).privatePostApiV1SpotOrder({ ...one(orders) }),
      'batch-json': (c, orders) => (c as Any).privatePostApiV1SpotBatchOrders({ orders }),
    },
  },
  {
    // ccxt binance.sign: POST parameters form-encoded in the body, header X-MBX-APIKEY; spot has no batch endpoint.
    name: 'ccxt (binance)',
    pkg: 'ccxt',
    version: '4.5.84',
    wire: { apiKeyHeader: 'X-MBX-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) => ccxtExchange(ctx, 'binance'),
    send: { form: (c, orders) => (c as Any).privatePostOrder({ ...one(orders) }) },
  },
  {
    // ccxt mexc.sign (spot v3): POST parameters in the query string, header X-MEXC-APIKEY; its batch endpoint takes a query parameter, not a JSON body.
    name: 'ccxt (mexc)',
    pkg: 'ccxt',
    version: '4.5.84',
    wire: { apiKeyHeader: 'X-MEXC-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) => ccxtExchange(ctx, 'mexc'),
    send: { query: (c, orders) => (c as Any).spotPrivatePostOrder({ ...one(orders) }) },
  },
  {
    // ccxt toobit.sign: a form body, header X-BB-APIKEY; batch orders (an array) as a JSON body, signed body first, then the query string.
    name: 'ccxt (toobit)',
    pkg: 'ccxt',
    version: '4.5.84',
    wire: {
      apiKeyHeader: 'X-BB-APIKEY',
      paths: { '/api/v1/spot/order': SEED.order, '/api/v1/spot/batchOrders': SEED.batch },
    },
    create: (ctx) => ccxtExchange(ctx, 'toobit'),
    send: {
      form: (c, orders) => (c as Any).privatePostApiV1SpotOrder({ ...one(orders) }),
      'batch-json': (c, orders) => (c as Any).privatePostApiV1SpotBatchOrders(orders),
    },
  },
  {
    // @binance/connector Spot.newOrder: POST /api/v3/order, parameters in the query string, header X-MBX-APIKEY.
    name: '@binance/connector',
    pkg: '@binance/connector',
    version: '3.6.1',
    wire: { apiKeyHeader: 'X-MBX-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) =>
      new (ctx.mod.Spot as new (k: string, s: string, o: object) => unknown)(ctx.apiKey, ctx.secret, {
        baseURL: ctx.baseUrl,
        timeout: 10_000,
      }),
    send: {
      query: (c, orders) => {
        const { symbol, side, type, ...rest } = one(orders);
        return (c as Any).newOrder(symbol, side, type, rest);
      },
    },
  },
  {
    // binance (tiagosiebler) MainClient.submitNewOrder: POST /api/v3/order, header X-MBX-APIKEY; time sync off by its own option.
    name: 'binance',
    pkg: 'binance',
    version: '3.6.5',
    wire: { apiKeyHeader: 'X-MBX-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) =>
      new (ctx.mod.MainClient as new (o: object) => unknown)({
        api_key: ctx.apiKey,
        api_secret: ctx.secret,
        baseUrl: ctx.baseUrl,
        disableTimeSync: true,
        beautifyResponses: false,
      }),
    send: { query: (c, orders) => (c as Any).submitNewOrder({ ...one(orders) }) },
  },
  {
    // node-binance-api order(): POST /api/v3/order, parameters in a form body, header X-MBX-APIKEY; base URL from its `urls.base` option.
    name: 'node-binance-api',
    pkg: 'node-binance-api',
    version: '1.0.33',
    wire: { apiKeyHeader: 'X-MBX-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) => {
      const B = unwrapDefault(ctx.mod) as new (o: object) => unknown;
      return new B({
        APIKEY: ctx.apiKey,
        APISECRET: ctx.secret,
        urls: { base: `${ctx.baseUrl}/api/` },
        recvWindow: 5000,
      });
    },
    send: {
      form: (c, orders) => {
        const { symbol, side, type, quantity, price, ...rest } = one(orders);
        return (c as Any).order(type, side, symbol, Number(quantity), Number(price), rest);
      },
    },
  },
  {
    // binance-api-node order(): POST /api/v3/order, header X-MBX-APIKEY; base URL from its `httpBase` option.
    name: 'binance-api-node',
    pkg: 'binance-api-node',
    version: '0.13.10',
    wire: { apiKeyHeader: 'X-MBX-APIKEY', paths: { '/api/v3/order': SEED.order } },
    create: (ctx) => {
      const make = unwrapDefault(ctx.mod) as (o: object) => unknown;
      return make({ apiKey: ctx.apiKey, apiSecret: ctx.secret, httpBase: ctx.baseUrl });
    },
    send: { query: (c, orders) => (c as Any).order({ ...one(orders) }) },
  },
];
