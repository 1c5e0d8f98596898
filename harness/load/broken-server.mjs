/**
 * A batch-order server written from the seed by someone else, that holds at rest and
 * breaks one rule under load: the self-test target of `spotcheck load` and of the
 * generated Artillery project. Not built on the kit: its own parser, signature check,
 * error codes ({"code": 40101, "msg": "bad signature"}) and response shapes.
 *
 * Faults (only while busy: more than `busyAt` requests arrived in the current or the last
 * second; unloaded, every answer is right):
 * - `misalign`: batch orders are "processed in parallel" and the result entries come
 *   back in completion order (reversed), so entry i echoes another order's client id;
 * - `signature`: the HMAC is computed over a shared scratch string that another request
 *   may have overwritten, so about one valid signature in `every` is refused.
 *
 *   node harness/load/broken-server.mjs --fault misalign [--port P] [--busy-at N]
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const KEYS = { 'spotcheck-demo-key': 'spotcheck-demo-secret' };

/**
 * Start the server; resolves with its URL and a close function.
 * @param {{ fault: 'misalign' | 'signature' | 'none', port?: number, busyAt?: number, every?: number }} opts
 */
export function startBrokenServer(opts) {
  const busyAt = opts.busyAt ?? 20;
  const every = opts.every ?? 10;
  let seq = 0;
  let windowStart = Date.now();
  let thisSecond = 0;
  let lastSecond = 0;
  const busy = () => thisSecond > busyAt || lastSecond > busyAt;
  let nextOrderId = 7_000_000_000n;
  const seen = new Set();
  const server = createServer((req, res) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      lastSecond = now - windowStart < 2000 ? thisSecond : 0;
      thisSecond = 0;
      windowStart = now;
    }
    thisSecond++;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      // Answer on the next tick, as a real handler awaiting its store would: concurrent requests overlap.
      setImmediate(() => {
        try {
          handle(req, Buffer.concat(chunks).toString('utf8'), res);
        } catch {
          send(res, 400, { code: 40000, msg: 'bad request' });
        }
      });
    });
  });

  function send(res, status, body) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function handle(req, body, res) {
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi === -1 ? url : url.slice(0, qi);
    const query = qi === -1 ? '' : url.slice(qi + 1);
    if (
      req.method !== 'POST' ||
      !['/api/v1/spot/batchOrders', '/api/v1/spot/order', '/api/v1.1/spot/order'].includes(path)
    )
      return send(res, 404, { code: 40400, msg: 'not found' });
    const secret = KEYS[String(req.headers['x-svc-apikey'] ?? '')];
    if (secret === undefined) return send(res, 401, { code: 40100, msg: 'unknown api key' });
    const isForm = path !== '/api/v1/spot/batchOrders';
    const strip = (s) =>
      s
        .split('&')
        .filter((p) => p !== '' && !p.startsWith('signature='))
        .join('&');
    const sigOf = (s) =>
      s
        .split('&')
        .find((p) => p.startsWith('signature='))
        ?.slice(10);
    const given = sigOf(query) ?? (isForm ? sigOf(body) : undefined);
    const signed = strip(query) + (isForm ? strip(body) : body);
    let toHash = signed;
    if (opts.fault === 'signature' && busy() && ++seq % every === 0) toHash = `${signed}&`; // the scratch string another request left behind
    const expected = createHmac('sha256', secret).update(toHash).digest('hex');
    if (
      given === undefined ||
      given.length !== 64 ||
      !timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(expected))
    ) {
      return send(res, 401, { code: 40101, msg: 'bad signature' });
    }
    const params = new URLSearchParams(isForm ? `${query}&${body}` : query);
    const ts = Number(params.get('timestamp'));
    const win = Number(params.get('recvWindow') ?? 5000);
    const now = Date.now();
    if (!(ts < now + 1000 && now - ts <= win))
      return send(res, 400, { code: 40102, msg: 'timestamp outside recvWindow' });
    const place = (o) => {
      const id = String(o.newClientOrderId ?? `gen-${nextOrderId}`);
      if (seen.has(id)) return { code: 40901, msg: 'duplicate client order id' };
      seen.add(id);
      if (seen.size > 200_000) seen.clear();
      return {
        code: 0,
        msg: 'ok',
        order: {
          orderId: String(nextOrderId++),
          clientOrderId: id,
          symbol: o.symbol,
          side: o.side,
          type: o.type,
          price: String(o.price),
          origQty: String(o.quantity),
          status: 'NEW',
        },
      };
    };
    if (!isForm) {
      const orders = JSON.parse(body);
      if (!Array.isArray(orders) || orders.length === 0 || orders.length > 20)
        return send(res, 400, { code: 40001, msg: 'batch must hold 1 to 20 orders' });
      let result = orders.map(place);
      if (opts.fault === 'misalign' && busy()) result = result.reverse();
      return send(res, 200, { code: 0, result });
    }
    const o = Object.fromEntries(params);
    const placed = place(o);
    if (placed.code !== 0) return send(res, 400, placed);
    return send(res, 200, { code: 0, ...placed.order });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r(undefined));
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', default: 'misalign' },
      port: { type: 'string', default: '0' },
      'busy-at': { type: 'string', default: '20' },
    },
  });
  const s = await startBrokenServer({
    fault: /** @type {any} */ (values.fault),
    port: Number(values.port),
    busyAt: Number(values['busy-at']),
  });
  process.stdout.write(`broken server (${values.fault}) listening on ${s.url}\n`);
}
