/**
 * A venue written the way a Java servlet team writes one, independently of src/server and of
 * harness/strangers/venue.ts: parameters read as `getParameter` reads them (query string first,
 * the first value of a name), the signature checked over the query string followed by the body,
 * decimals kept as their text (BigDecimal), a `{code, msg, data}` envelope with positive codes of
 * its own, and int and short fields where the seed says LONG. Its faults are the habits of that
 * stack (spec/domain.json parsers), each one line of its own code, in three classes: the request's
 * syntax and signature, limits at their edges, and what an answer echoes. Test harness only.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServletFaults {
  /** Mapped like `@RequestMapping` without a method: GET, PUT, HEAD... reach the order handler. */
  anyMethod?: boolean;
  /** With the signature in the body, the MAC is taken over the body alone; the query still fills parameters first. */
  bodyMacWhenSignedInBody?: boolean;
  /** Pairs split at ";" as well as "&" (the HTML 4 recommendation, Python before 3.9.2). */
  semicolonSeparators?: boolean;
  /** The timestamp's age held in an int: `(int) (now - timestamp)`. */
  intAge?: boolean;
  /** recvWindow held in a short. */
  shortWindow?: boolean;
  /** A recvWindow under 1000 read as seconds. */
  windowInSeconds?: boolean;
  /** Decimals held as doubles and echoed as `Double.toString` writes them. */
  doubleDecimals?: boolean;
  /** The second order of a batch stored through a case-insensitive column: its client id lower-cased. */
  lowerSecondId?: boolean;
  /** MARKET fills reported with the fee added to executedQty. */
  feeInExecuted?: boolean;
  /** A single order's answer built from a LIMIT template: type LIMIT whatever was placed. */
  limitTemplate?: boolean;
}

export interface ServletVenue {
  url: string;
  apiKey: string;
  secret: string;
  placed(): number;
  close(): Promise<void>;
}

const KEY = 'servlet-key-24c1';
const SECRET = 'servlet-secret-e07d';
const SYMBOLS = new Set(['BTCUSDT', 'ETHUSDT']);
const SIDES = new Set(['BUY', 'SELL']);
const TYPES = new Set(['LIMIT', 'MARKET', 'LIMIT_MAKER']);
const TIF = new Set(['GTC', 'IOC', 'FOK']);
const STP = new Set(['EXPIRE_TAKER', 'EXPIRE_MAKER']);
const DECIMAL = /^[0-9]{1,40}(\.[0-9]{1,40})?$/;
const LONG_MAX = 9_223_372_036_854_775_807n;

/** A refusal: HTTP status and the venue's own code. */
class Refused extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly status = 400,
  ) {
    super(msg);
  }
}

/** URLDecoder.decode: `+` is a blank; a malformed escape leaves the text as it is. */
function urlDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Long.parseLong on plain digits without a leading zero, within the long range; undefined otherwise. */
function parseLong(v: string | undefined): bigint | undefined {
  return v !== undefined && /^(0|[1-9][0-9]{0,18})$/.test(v) && BigInt(v) <= LONG_MAX ? BigInt(v) : undefined;
}

export async function startServletVenue(faults: ServletFaults = {}): Promise<ServletVenue> {
  const used = new Set<string>();
  let placed = 0;
  let nextId = 7_100_000_000_000n;

  /** The raw pairs of a query or form body, the way the container splits them. */
  const rawPairs = (text: string): string[] =>
    text.split(faults.semicolonSeparators ? /[&;]/ : '&').filter((p) => p !== '');

  /** getParameter: names and values decoded, query first, the first value of each name kept. */
  const parameters = (query: string, body: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const p of [...rawPairs(query), ...rawPairs(body)]) {
      const eq = p.indexOf('=');
      const name = urlDecode(eq === -1 ? p : p.slice(0, eq));
      if (!out.has(name)) out.set(name, urlDecode(eq === -1 ? '' : p.slice(eq + 1)));
    }
    return out;
  };

  /** The text without its signature pairs (found by their name as sent), and the first signature. */
  const unsigned = (text: string): { rest: string; signature?: string } => {
    const parts = text === '' ? [] : text.split('&');
    const sig = parts.find((p) => p.startsWith('signature='));
    const rest = parts.filter((p) => !p.startsWith('signature=')).join('&');
    return sig === undefined ? { rest } : { rest, signature: urlDecode(sig.slice('signature='.length)) };
  };

  const verify = (req: IncomingMessage, query: string, body: string, form: boolean): void => {
    const key = req.headers['x-svc-apikey'];
    if (key === undefined || key === '') throw new Refused(40100, 'API key required.', 401);
    if (key !== KEY) throw new Refused(40101, 'API key not recognised.', 401);
    const q = unsigned(query);
    const b = form ? unsigned(body) : { rest: body };
    const signature = q.signature ?? b.signature;
    if (signature === undefined) throw new Refused(40003, 'signature is required.');
    const signed = faults.bodyMacWhenSignedInBody && b.signature !== undefined ? b.rest : q.rest + b.rest;
    const mac = createHmac('sha256', SECRET).update(signed).digest('hex');
    if (!/^[0-9a-fA-F]{64}$/.test(signature) || signature.toLowerCase() !== mac)
      throw new Refused(40102, 'Signature mismatch.', 401);
  };

  /** The §5.4 window, with the venue's int and short fields. */
  const checkTime = (p: Map<string, string>): void => {
    const ts = parseLong(p.get('timestamp'));
    if (ts === undefined) throw new Refused(40004, 'timestamp is required as milliseconds.');
    const window = p.has('recvWindow') ? parseLong(p.get('recvWindow')) : 5000n;
    if (window === undefined || window > 60000n) throw new Refused(40005, 'recvWindow is invalid.');
    let rw = Number(window);
    if (faults.windowInSeconds && rw < 1000) rw *= 1000;
    if (faults.shortWindow) rw = (rw << 16) >> 16;
    const now = BigInt(Date.now());
    const age = faults.intAge ? Number(BigInt.asIntN(32, now - ts)) : Number(now - ts);
    if (age <= -1000 || age > rw) throw new Refused(40006, 'Request expired or from the future.');
  };

  /** A decimal as the venue keeps it: BigDecimal text, or a double. */
  const decimal = (v: string | undefined, name: string): string | undefined => {
    if (v === undefined) return undefined;
    if (!DECIMAL.test(v) || !/[1-9]/.test(v)) throw new Refused(40010, `${name} is invalid.`);
    return faults.doubleDecimals ? String(Number(v)) : v;
  };

  const place = (o: Record<string, unknown>, version: 'v1' | 'v1.1', index: number): Record<string, unknown> => {
    const text = (k: string): string | undefined => {
      const v = o[k];
      if (v === undefined) return undefined;
      if (typeof v !== 'string') throw new Refused(40011, `${k} must be text.`);
      return v;
    };
    const symbol = text('symbol');
    if (symbol === undefined || !SYMBOLS.has(symbol)) throw new Refused(40020, 'Unknown symbol.');
    const side = text('side');
    if (side === undefined || !SIDES.has(side)) throw new Refused(40021, 'side is invalid.');
    const type = text('type');
    if (type === undefined || !TYPES.has(type)) throw new Refused(40022, 'type is invalid.');
    const num = (k: string) => {
      const v = o[k];
      return decimal(typeof v === 'number' ? String(v) : text(k), k);
    };
    const quantity = num('quantity');
    const price = num('price');
    const amount = num('amount');
    if (version === 'v1' && amount !== undefined) throw new Refused(40023, 'amount is not a v1 parameter.');
    if (type === 'MARKET' && version === 'v1.1') {
      if (quantity === undefined && amount === undefined) throw new Refused(40024, 'quantity or amount required.');
    } else if (quantity === undefined) throw new Refused(40024, 'quantity required.');
    if (type !== 'MARKET' && price === undefined) throw new Refused(40025, 'price required.');
    if (version === 'v1.1' && amount !== undefined && type !== 'MARKET')
      throw new Refused(40023, 'amount is for MARKET orders.');
    const tif = text('timeInForce');
    if (tif !== undefined && !TIF.has(tif)) throw new Refused(40026, 'timeInForce is invalid.');
    const stp = text('stpMode');
    if (stp !== undefined && !STP.has(stp)) throw new Refused(40027, 'stpMode is invalid.');
    const sent = text('newClientOrderId');
    if (sent !== undefined && (sent === '' || [...sent].length > 255))
      throw new Refused(40028, 'newClientOrderId is invalid.');
    const id = faults.lowerSecondId && index === 1 ? sent?.toLowerCase() : sent;
    if (id !== undefined && used.has(id)) throw new Refused(40029, 'Duplicate client order id.');
    const orderId = String(nextId++);
    const clientOrderId = id ?? `c${orderId}`;
    used.add(clientOrderId);
    placed++;
    const market = type === 'MARKET';
    const origQty = quantity ?? '0';
    const executedQty = !market ? '0' : faults.feeInExecuted ? String(Number(origQty) * 1.001) : origQty;
    return {
      accountId: '880011',
      symbol,
      symbolName: symbol,
      clientOrderId,
      orderId,
      transactTime: String(Date.now()),
      price: price ?? '0',
      origQty,
      executedQty,
      status: market ? 'FILLED' : 'NEW',
      timeInForce: tif ?? (market ? 'IOC' : 'GTC'),
      type,
      side,
      ...(amount === undefined ? {} : { reqAmount: amount }),
    };
  };

  /** The batch body, decimals kept as their text (Jackson reading BigDecimal) unless they are doubles. */
  const readBatch = (body: string): unknown =>
    JSON.parse(
      faults.doubleDecimals
        ? body
        : body.replace(
            /("(?:quantity|price|amount)"\s*:\s*)(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?=\s*[,}\]])/g,
            (_m, k: string, n: string) => `${k}"${n}"`,
          ),
    );

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const reply = (status: number, json: unknown) => {
      const text = JSON.stringify(json);
      res.writeHead(status, {
        'content-type': 'application/json;charset=UTF-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at === -1 ? url : url.slice(0, at);
    const query = at === -1 ? '' : url.slice(at + 1);
    try {
      const version = path === '/api/v1/spot/order' ? 'v1' : path === '/api/v1.1/spot/order' ? 'v1.1' : undefined;
      const batch = path === '/api/v1/spot/batchOrders';
      if (version === undefined && !batch) return reply(404, { code: 40400, msg: 'No mapping.' });
      if (req.method !== 'POST' && !faults.anyMethod) return reply(405, { code: 40500, msg: 'Method not supported.' });
      const media = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (batch) {
        if (media !== 'application/json') throw new Refused(41500, 'Content type not supported.', 415);
        verify(req, query, body, false);
        checkTime(parameters(query, ''));
        let list: unknown;
        try {
          list = readBatch(body);
        } catch {
          throw new Refused(40001, 'Malformed JSON.');
        }
        if (!Array.isArray(list) || list.length === 0 || list.length > 20)
          throw new Refused(40002, 'A batch is 1 to 20 orders.');
        const symbols = new Set(
          list.map((o) => (typeof o === 'object' && o !== null ? (o as { symbol?: unknown }).symbol : o)),
        );
        if (symbols.size > 1) throw new Refused(40030, 'One symbol per batch.');
        const result = list.map((o, i) => {
          try {
            if (typeof o !== 'object' || o === null || Array.isArray(o))
              throw new Refused(40012, 'An order is an object.');
            return { code: 0, msg: 'success', order: place(o as Record<string, unknown>, 'v1', i) };
          } catch (err) {
            if (err instanceof Refused) return { code: err.code, msg: err.message };
            throw err;
          }
        });
        return reply(200, { code: 0, msg: 'success', result });
      }
      const form = media === 'application/x-www-form-urlencoded';
      if (body !== '' && !form) throw new Refused(41500, 'Content type not supported.', 415);
      verify(req, query, body, form);
      const p = parameters(query, form ? body : '');
      checkTime(p);
      const order = place(Object.fromEntries(p), version as 'v1' | 'v1.1', 0);
      return reply(200, { code: 0, msg: 'success', data: faults.limitTemplate ? { ...order, type: 'LIMIT' } : order });
    } catch (err) {
      if (err instanceof Refused) return reply(err.status, { code: err.code, msg: err.message });
      return reply(400, { code: 40000, msg: 'Bad request.' });
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
        res.end('{"code":41300,"msg":"Payload too large."}');
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
    placed: () => placed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
