/**
 * ROBUST-NO-5XX and every positive check rest on the server parsing every valid HTTP/1.1
 * message whatever the TCP segmenting and timing: valid signed orders sent through a proxy
 * that re-cuts each stream (one byte per piece, or random pieces) and delays each piece,
 * with chunked and Content-Length bodies, on fresh, reused and pipelined connections.
 * Every one must be answered 200 with code 0 and place its orders.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, startResegmentProxy, type ResegmentProxy, type Split } from '../../harness/resegment-proxy.js';
import type { RawRequest } from '../client/http.js';
import { batchOrdersRequest, orderRequest } from '../client/requests.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
const AUTH = { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW };
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ clock: () => NOW });
});
afterAll(() => server.close());

type Framing = 'length' | 'chunked';

/** HTTP/1.1 bytes of a request; a chunked body is cut into chunks of random sizes (hex sizes, `0` terminator). */
function wire(r: RawRequest, framing: Framing, random: () => number): string {
  const target = r.query === '' ? r.path : `${r.path}?${r.query}`;
  const headers: Record<string, string> = { host: 'x', ...r.headers };
  let body = r.body;
  if (framing === 'chunked') {
    headers['transfer-encoding'] = 'chunked';
    let out = '';
    for (let i = 0; i < r.body.length; ) {
      const n = 1 + Math.floor(random() * 300);
      const piece = r.body.slice(i, i + n);
      out += `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
      i += n;
    }
    body = `${out}0\r\n\r\n`;
  } else headers['content-length'] = String(Buffer.byteLength(r.body));
  return `${r.method} ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
}

let seq = 0;
/** A valid signed request of each kind in turn: a batch (JSON body), v1 and v1.1 orders with form and split bodies. */
function request(i: number): { request: RawRequest; orders: number } {
  const order = {
    symbol: 'BTCUSDT',
    side: 'BUY' as const,
    type: 'LIMIT' as const,
    quantity: '1',
    price: '100',
    timeInForce: 'GTC' as const,
  };
  switch (i % 4) {
    case 0:
      return {
        request: batchOrdersRequest(
          [1, 2, 3].map(() => ({ ...order, newClientOrderId: `seg-${++seq}` })),
          AUTH,
        ).request,
        orders: 3,
      };
    case 1:
      return {
        request: orderRequest(
          { ...order, newClientOrderId: `seg-${++seq}` },
          { version: 'v1', placement: 'body' },
          AUTH,
        ).request,
        orders: 1,
      };
    case 2:
      return {
        request: orderRequest(
          { ...order, newClientOrderId: `seg-${++seq}` },
          { version: 'v1.1', placement: 'split' },
          AUTH,
        ).request,
        orders: 1,
      };
    default:
      return {
        request: orderRequest(
          { ...order, newClientOrderId: `seg-${++seq}` },
          { version: 'v1', placement: 'query' },
          AUTH,
        ).request,
        orders: 1,
      };
  }
}

interface Answer {
  status: number;
  body: string;
}

/** Read `n` Content-Length framed answers from a socket (the server frames every answer so). */
function answers(socket: Socket, n: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const got: Answer[] = [];
    const timer = setTimeout(
      () =>
        fail(
          new Error(
            `${got.length} of ${n} answers within 10 s: ${JSON.stringify(got)} ${buf.toString('latin1').slice(0, 200)}`,
          ),
        ),
      10_000,
    );
    const done = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
    };
    const fail = (e: Error): void => {
      done();
      reject(e);
    };
    const onClose = (): void => fail(new Error(`closed after ${got.length} of ${n} answers: ${JSON.stringify(got)}`));
    const onData = (c: Buffer): void => {
      buf = Buffer.concat([buf, c]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
        if (!Number.isFinite(length)) return fail(new Error(`answer without Content-Length: ${head}`));
        if (buf.length < end + 4 + length) return;
        got.push({ status: Number(head.slice(9, 12)), body: buf.subarray(end + 4, end + 4 + length).toString('utf8') });
        buf = buf.subarray(end + 4 + length);
        if (got.length === n) {
          done();
          resolve(got);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

type Mode = 'fresh' | 'reused' | 'pipelined';

/** Send `n` requests in the given mode; every answer collected. */
async function drive(
  port: number,
  mode: Mode,
  framing: Framing,
  n: number,
  random: () => number,
): Promise<{ got: Answer[]; orders: number }> {
  const reqs = Array.from({ length: n }, (_, i) => request(i));
  const bytes = reqs.map((r) => wire(r.request, framing, random));
  const orders = reqs.reduce((a, r) => a + r.orders, 0);
  const got: Answer[] = [];
  if (mode === 'pipelined') {
    const s = await open(port);
    const pending = answers(s, n);
    s.write(bytes.join(''), 'utf8');
    got.push(...(await pending));
    s.destroy();
  } else {
    let s = await open(port);
    for (const b of bytes) {
      if (mode === 'fresh' && got.length > 0) {
        s.destroy();
        s = await open(port);
      }
      const pending = answers(s, 1);
      s.write(b, 'utf8');
      got.push(...(await pending));
    }
    s.destroy();
  }
  return { got, orders };
}

const cases: Array<{ split: Split; maxDelayMs: number; n: number }> = [
  { split: 'byte', maxDelayMs: 0, n: 4 },
  { split: 'random', maxDelayMs: 4, n: 8 },
];

describe('the server under any TCP segmenting and timing', () => {
  const proxies: ResegmentProxy[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
  });
  for (const c of cases)
    for (const framing of ['length', 'chunked'] as const)
      for (const mode of ['fresh', 'reused', 'pipelined'] as const) {
        it.concurrent(`${c.split} pieces, ${framing} bodies, ${mode} connection: every valid order answered 200 and placed`, async () => {
          const seed = [c.split, framing, mode].join('').length * 7919 + c.n;
          const proxy = await startResegmentProxy({
            targetPort: server.port,
            split: c.split,
            maxDelayMs: c.maxDelayMs,
            maxPiece: 48,
            random: seededRandom(seed),
          });
          proxies.push(proxy);
          const before = server.orders.count();
          const { got, orders } = await drive(proxy.port, mode, framing, c.n, seededRandom(seed + 1));
          expect(got.map((a) => a.status)).toEqual(got.map(() => 200));
          expect(got.map((a) => (JSON.parse(a.body) as { code: number }).code)).toEqual(got.map(() => 0));
          // the stream really was cut: many more pieces than requests
          expect(proxy.pieces()).toBeGreaterThan(c.n * 10);
          // concurrent tests share the server: at least this test's orders were placed
          expect(server.orders.count() - before).toBeGreaterThanOrEqual(orders);
        });
      }
});
