/**
 * A venue written the way an outside team would write one, independently of src/server: its
 * own request reader (URLSearchParams, JSON.parse), its own HMAC check (node:crypto), its own
 * answer shape (Binance-like single answers at the top level, HTTP 400 with `{code, msg}` for
 * every refusal, codes shared between refusals as real venues share them). Its `choices` are
 * the legitimate readings where the seed is silent and its `faults` the bugs other teams ship;
 * each is one line of its own code, never a switch on the reference server. Test harness only.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VenueChoices {
  /** Echo decimals as the venue stores them: `plain` as sent, `normalised` without trailing zeros, `padded` to 8 places. */
  decimals?: 'plain' | 'normalised' | 'padded';
  /** Symbols are matched in any letter case and echoed upper-case (one trading pair). */
  upperCaseSymbols?: boolean;
  /** §2.1 read literally: a v1.1 MARKET order needs both quantity and amount (D-V11-MARKET-SIZE). */
  marketNeedsBoth?: boolean;
  /**
   * A small test account: this much quote currency for BUY orders (price x quantity, or the
   * amount) and this much base currency for SELL orders, spent as orders are placed; an order
   * past it is refused with the code duplicates share on this venue (-2010).
   */
  balance?: { quote: number; base: number };
  /** No batch endpoint at all (404). */
  noBatch?: boolean;
}

export interface VenueFaults {
  /** Never answers a request whose signature has an upper-case hex letter (the socket is left open). */
  hangOnUpperSignature?: boolean;
  /** Never answers a request whose query or body has a percent-escape. */
  hangOnEscapes?: boolean;
  /** Takes any side value (an unknown side opens a position) and refuses further orders once a position is open. */
  anySide?: boolean;
  /** Refuses every BUY order (a business rule gone wrong), with the balance code. */
  refuseBuy?: boolean;
  /** Stores (and echoes) client ids lower-cased, as a case-insensitive id column would. */
  lowerCaseIds?: boolean;
  /** Refuses every order on the v1 single-order endpoint. */
  refuseV1?: boolean;
}

/**
 * How the venue reads what it is sent: the stock habits of the language it is written in
 * (harness/strangers/languages.ts). The defaults are strict: pattern checks before conversion.
 */
export interface VenueReaders {
  /** A DECIMAL text as a number, or undefined when it is none (the sign is checked after). */
  decimal(v: string): number | undefined;
  /** A LONG text (timestamp, recvWindow), or undefined when it is none. */
  long(v: string): bigint | undefined;
  /** The enum constant `v` names, or undefined. */
  enumOf(v: string, values: ReadonlySet<string>): string | undefined;
  /** The batch body as a JSON value; throws when it is none. */
  body(text: string): unknown;
  /** The order field a JSON key fills, or undefined for an unknown key. */
  key(k: string): string | undefined;
  /** A JSON value of a batch element as text. */
  scalar(v: unknown): string;
  /** Whether the signature sent is the MAC (hex) computed. */
  signature(sent: string, mac: string): boolean;
  /** The secret of an API key as the venue looks it up; undefined refuses the key. */
  secret(key: string | undefined): string | undefined;
}

const FIELDS = [
  'symbol',
  'side',
  'type',
  'quantity',
  'amount',
  'price',
  'newClientOrderId',
  'timeInForce',
  'stpMode',
  'recvWindow',
  'timestamp',
];

/** The strict habits: exact patterns, exact names, exact keys. */
export const STRICT_READERS: VenueReaders = {
  decimal: (v) => (DECIMAL.test(v) ? Number(v) : undefined),
  long: (v) => (DIGITS.test(v) && BigInt(v) <= 9_223_372_036_854_775_807n ? BigInt(v) : undefined),
  enumOf: (v, values) => (values.has(v) ? v : undefined),
  body: (text) => JSON.parse(text),
  key: (k) => (FIELDS.includes(k) ? k : undefined),
  scalar: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  signature: (sent, mac) => sent.toLowerCase() === mac,
  secret: (key) => (key === KEY ? SECRET : undefined),
};

export interface Venue {
  url: string;
  apiKey: string;
  secret: string;
  /** Orders placed so far. */
  placed(): number;
  close(): Promise<void>;
}

const KEY = 'stranger-key-7f3a';
const SECRET = 'stranger-secret-91bd';
const SYMBOLS = new Set(['BTCUSDT', 'ETHUSDT']);
const SIDES = new Set(['BUY', 'SELL']);
const TYPES = new Set(['LIMIT', 'MARKET', 'LIMIT_MAKER']);
const TIF = new Set(['GTC', 'IOC', 'FOK']);
const STP = new Set(['EXPIRE_TAKER', 'EXPIRE_MAKER']);
const DECIMAL = /^[0-9]{1,30}(\.[0-9]{1,30})?$/;
const DIGITS = /^[0-9]{1,19}$/;

class Refusal extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly status = 400,
  ) {
    super(msg);
  }
}

type Params = Record<string, string>;

export async function startVenue(
  choices: VenueChoices = {},
  faults: VenueFaults = {},
  readerOverrides: Partial<VenueReaders> = {},
): Promise<Venue> {
  const read: VenueReaders = { ...STRICT_READERS, ...readerOverrides };
  const used = new Set<string>();
  let open = 0;
  let nextId = 900_000_000_000n;
  let position = false;
  const wallet = choices.balance === undefined ? undefined : { ...choices.balance };

  const shown = (v: string): string => {
    if (choices.decimals === 'normalised') return v.includes('.') ? v.replace(/\.?0+$/, '') : v;
    if (choices.decimals === 'padded') {
      const [i, f = ''] = v.split('.');
      return f.length >= 8 ? v : `${i}.${f.padEnd(8, '0')}`;
    }
    return v;
  };

  const place = (o: Params, version: 'v1' | 'v1.1'): Record<string, unknown> => {
    const symbol = choices.upperCaseSymbols ? (o.symbol ?? '').toUpperCase() : (o.symbol ?? '');
    if (!SYMBOLS.has(symbol)) throw new Refusal(-1121, 'Invalid symbol.');
    if (faults.anySide) {
      if (position) throw new Refusal(-2019, 'Position open: no more orders.');
      if (o.side === undefined) throw new Refusal(-1102, 'side missing');
      if (!SIDES.has(o.side)) {
        position = true;
        if (process.env.VDEBUG) console.log('POSITION by', JSON.stringify(o).slice(0, 200));
      }
    } else {
      const side = read.enumOf(o.side ?? '', SIDES);
      if (side === undefined) throw new Refusal(-1100, 'Illegal side.');
      o.side = side;
    }
    const type = read.enumOf(o.type ?? '', TYPES) ?? '';
    if (!TYPES.has(type)) throw new Refusal(-1100, 'Illegal type.');
    for (const f of ['quantity', 'price', 'amount'] as const) {
      const v = o[f];
      if (v === undefined) continue;
      const n = read.decimal(v);
      // a NaN passes this test, as it does in the languages whose readers return one
      if (n === undefined || n <= 0) throw new Refusal(-1100, `Illegal ${f}.`);
    }
    if (version === 'v1' && o.amount !== undefined) throw new Refusal(-1104, 'amount is not a v1 parameter.');
    if (type === 'MARKET' && version === 'v1.1') {
      const has = (o.quantity !== undefined ? 1 : 0) + (o.amount !== undefined ? 1 : 0);
      if (choices.marketNeedsBoth ? has < 2 : has < 1) throw new Refusal(-1102, 'quantity/amount missing.');
    } else if (o.quantity === undefined) throw new Refusal(-1102, 'quantity missing.');
    if (type !== 'MARKET' && o.price === undefined) throw new Refusal(-1102, 'price missing.');
    if (o.timeInForce !== undefined && read.enumOf(o.timeInForce, TIF) === undefined)
      throw new Refusal(-1100, 'Illegal timeInForce.');
    if (o.stpMode !== undefined && read.enumOf(o.stpMode, STP) === undefined)
      throw new Refusal(-1100, 'Illegal stpMode.');
    const id = faults.lowerCaseIds ? o.newClientOrderId?.toLowerCase() : o.newClientOrderId;
    if (id !== undefined && (id.length === 0 || [...id].length > 255))
      throw new Refusal(-1100, 'Illegal newClientOrderId.');
    if (faults.refuseBuy && o.side === 'BUY') throw new Refusal(-2010, 'Account has insufficient balance.');
    if (id !== undefined && used.has(id)) throw new Refusal(-2010, 'Duplicate order sent.');
    if (wallet !== undefined) {
      const qty = Number(o.quantity ?? '0');
      const cost =
        o.side === 'BUY' ? (o.amount !== undefined ? Number(o.amount) : qty * Number(o.price ?? '100')) : qty;
      const left = o.side === 'BUY' ? wallet.quote : wallet.base;
      if (cost > left) throw new Refusal(-2010, 'Account has insufficient balance for requested action.');
      if (o.side === 'BUY') wallet.quote -= cost;
      else wallet.base -= cost;
    }
    open++;
    const orderId = String(nextId++);
    const clientOrderId = id ?? `srv-${orderId}`;
    used.add(clientOrderId);
    return {
      accountId: '1471090223379184384',
      symbol,
      symbolName: symbol,
      clientOrderId,
      orderId,
      transactTime: String(Date.now()),
      price: shown(o.price ?? '0'),
      origQty: shown(o.quantity ?? '0'),
      executedQty: '0',
      status: 'NEW',
      timeInForce: o.timeInForce ?? (type === 'MARKET' ? 'IOC' : 'GTC'),
      type,
      side: o.side,
      ...(o.amount === undefined ? {} : { reqAmount: shown(o.amount) }),
    };
  };

  /** Strip the `signature` pair from a form text; the signature it carried, if any. */
  const unsign = (text: string): { rest: string; signature?: string } => {
    const pairs = text === '' ? [] : text.split('&');
    const at = pairs.findIndex((p) => p.startsWith('signature='));
    if (at === -1) return { rest: text };
    const signature = decodeURIComponent(pairs[at]?.slice('signature='.length) ?? '');
    pairs.splice(at, 1);
    return { rest: pairs.join('&'), signature };
  };

  const authenticate = (req: IncomingMessage, query: string, body: string, form: boolean): Params => {
    const header = req.headers['x-svc-apikey'];
    const key = Array.isArray(header) ? header.join(', ') : header;
    const secret = read.secret(key);
    if (secret === undefined) {
      if (key === undefined || key === '') throw new Refusal(-2014, 'API-key format invalid.', 401);
      throw new Refusal(-2015, 'Invalid API-key, IP, or permissions for action.', 401);
    }
    const q = unsign(query);
    const b = form ? unsign(body) : { rest: body };
    const signature = q.signature ?? b.signature;
    if (signature === undefined) throw new Refusal(-1102, 'Mandatory parameter signature was not sent.');
    const want = createHmac('sha256', secret)
      .update(q.rest + b.rest)
      .digest('hex');
    if (!read.signature(signature, want)) throw new Refusal(-1022, 'Signature for this request is not valid.', 401);
    const params: Params = {};
    for (const [k, v] of new URLSearchParams(q.rest)) params[k] = v;
    if (form) for (const [k, v] of new URLSearchParams(b.rest)) params[k] = v;
    const ts = params.timestamp;
    if (ts === undefined) throw new Refusal(-1102, 'Mandatory parameter timestamp was not sent.');
    const rw = params.recvWindow ?? '5000';
    const t64 = read.long(ts);
    const rw64 = read.long(rw);
    if (t64 === undefined || rw64 === undefined || rw64 === 0n) throw new Refusal(-1100, 'Illegal time parameter.');
    const now = Date.now();
    const t = Number(t64);
    if (!(t < now + 1000 && now - t <= Number(rw64)))
      throw new Refusal(-1021, 'Timestamp for this request is outside of the recvWindow.');
    return params;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    if (faults.hangOnUpperSignature && /signature=[0-9a-f]*[A-F]/.test(`${query}&${body}`)) return;
    if (faults.hangOnEscapes && /%[0-9A-Fa-f]{2}/.test(`${query}${body}`)) return;
    const reply = (status: number, json: unknown) => {
      const text = JSON.stringify(json);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      const version = path === '/api/v1/spot/order' ? 'v1' : path === '/api/v1.1/spot/order' ? 'v1.1' : undefined;
      const batch = path === '/api/v1/spot/batchOrders' && !choices.noBatch;
      if (version === undefined && !batch) return reply(404, { code: -404, msg: 'Not found.' });
      if (req.method !== 'POST') return reply(405, { code: -405, msg: 'Method not allowed.' });
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (batch) {
        if (type !== 'application/json') throw new Refusal(-1104, 'Content-Type must be application/json.');
        const params = authenticate(req, query, body, false);
        let list: unknown;
        try {
          list = read.body(body);
        } catch {
          throw new Refusal(-1104, 'Body is not JSON.');
        }
        if (!Array.isArray(list) || list.length === 0) throw new Refusal(-1104, 'Body must be a non-empty array.');
        if (list.length > 20) throw new Refusal(-1193, 'Too many orders in one batch.');
        const asParams = list.map((e): Params => {
          if (typeof e !== 'object' || e === null || Array.isArray(e)) return {};
          const o: Params = {};
          for (const [k, v] of Object.entries(e as Record<string, unknown>)) o[read.key(k) ?? k] = read.scalar(v);
          return o;
        });
        const sym = (s: string | undefined) => (choices.upperCaseSymbols ? s?.toUpperCase() : s);
        if (new Set(asParams.map((o) => sym(o.symbol))).size > 1) throw new Refusal(-1130, 'Mixed symbols.');
        void params;
        const result = asParams.map((o) => {
          try {
            return { code: 0, msg: 'ok', order: place(o, 'v1') };
          } catch (err) {
            if (err instanceof Refusal) return { code: err.code, msg: err.message };
            throw err;
          }
        });
        return reply(200, { code: 0, result });
      }
      const form = type === 'application/x-www-form-urlencoded';
      if (body !== '' && !form) throw new Refusal(-1104, 'Unsupported body.');
      const params = authenticate(req, query, body, form);
      if (faults.refuseV1 && version === 'v1') throw new Refusal(-2010, 'Order rejected.');
      return reply(200, place(params, version as 'v1' | 'v1.1'));
    } catch (err) {
      if (err instanceof Refusal) return reply(err.status, { code: err.code, msg: err.message });
      return reply(400, { code: -1000, msg: 'Unknown error.' });
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1_048_576) chunks.push(c);
    });
    req.on('end', () => {
      if (size > 1_048_576) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end('{"code":-1104,"msg":"Body too large."}');
        return;
      }
      handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: KEY,
    secret: SECRET,
    placed: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
