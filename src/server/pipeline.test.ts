/**
 * An order is placed only when its answer is delivered. N valid signed batches
 * pipelined on one raw TCP connection, then garbage: N answers in order, then the 400,
 * and exactly N*k orders in the store.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOrdersRequest } from '../client/requests.js';
import type { RawRequest } from '../client/http.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ clock: () => NOW });
});
afterAll(() => server.close());

/** The request as HTTP/1.1 bytes. */
export function wire(r: RawRequest): string {
  const target = r.query === '' ? r.path : `${r.path}?${r.query}`;
  const headers = Object.entries({ host: 'x', ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `${r.method} ${target} HTTP/1.1\r\n${headers}\r\n${r.body}`;
}

/** Send bytes on one connection (all at once, or split into `pieces`); resolve with everything received once the server closes. */
function exchange(port: number, payload: string, pieces = 1): Promise<string> {
  return converse(port, (socket) => {
    const size = Math.ceil(payload.length / pieces);
    for (let i = 0; i < payload.length; i += size) socket.write(payload.slice(i, i + size), 'latin1');
  });
}

/** Open a connection, let `talk` drive it, and resolve with everything received once the server closes. */
function converse(port: number, talk: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 5 s; got ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('connect', () => talk(socket));
  });
}

let seq = 0;
function batch(k: number): RawRequest {
  const orders = Array.from({ length: k }, () => ({
    symbol: 'BTCUSDT',
    side: 'BUY' as const,
    type: 'LIMIT' as const,
    quantity: '1',
    price: '100',
    newClientOrderId: `p-${++seq}`,
  }));
  return batchOrdersRequest(orders, { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW }).request;
}

describe('pipelining then garbage', () => {
  for (const [n, k, pieces] of [
    [1, 1, 1],
    [5, 3, 1],
    [20, 2, 1],
    [10, 4, 7],
  ] as const) {
    it(`${n} batches of ${k} then garbage${pieces > 1 ? `, sent in ${pieces} pieces` : ''}: ${n} answers in order, then one 400, and ${n * k} orders placed`, async () => {
      const before = server.orders.count();
      const requests = Array.from({ length: n }, () => batch(k));
      const ids = requests.map((r) =>
        (JSON.parse(r.body) as Array<{ newClientOrderId: string }>).map((o) => o.newClientOrderId),
      );
      const text = await exchange(
        server.port,
        `${requests.map(wire).join('')}GARBAGE \u0001\u0002 NOT HTTP\r\n\r\n`,
        pieces,
      );
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([...Array.from({ length: n }, () => 200), 400]);
      // answers in request order: each carries its own client order ids
      const bodies = [...text.matchAll(/\{"code":0,"result":.*?\}\]\}/g)].map((m) => m[0]);
      expect(bodies.length).toBe(n);
      bodies.forEach((b, i) => {
        const got = (JSON.parse(b) as { result: Array<{ code: number; order: { clientOrderId: string } }> }).result;
        expect(got.map((e) => e.order.clientOrderId)).toEqual(ids[i]);
      });
      expect(server.orders.count() - before).toBe(n * k);
    });
  }

  it('batches then a body over the limit, read by a slow client: every answer, then one 413, survive the close', async () => {
    // Found by `npm run fuzz -- 600 2 7`: the 413 ended the connection as soon as it was handed to
    // the kernel; the client's bytes that arrived after that reset the connection, and the reset
    // discarded answers still queued for a client that had not read them yet.
    const n = 60;
    const before = server.orders.count();
    const requests = Array.from({ length: n }, () => batch(20));
    const oversized = `POST /api/v1/spot/batchOrders HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`;
    const text = await converse(server.port, (socket) => {
      // a busy client: it reads nothing for 500 ms; the oversized body follows its headers 150 ms late
      socket.pause();
      setTimeout(() => socket.resume(), 500);
      socket.write(`${requests.map(wire).join('')}${oversized}${'x'.repeat(1000)}`, 'latin1');
      setTimeout(() => socket.end('x'.repeat(99_000), 'latin1'), 150);
    });
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([...Array.from({ length: n }, () => 200), 413]);
    expect(server.orders.count() - before).toBe(n * 20);
  });

  it('a client that closes before its answer can be written places nothing from requests it no longer waits for', async () => {
    const before = server.orders.count();
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        const r = batch(1);
        // headers and half of the body, then gone: the request never completes
        const bytes = wire(r);
        socket.end(bytes.slice(0, bytes.length - Math.floor(r.body.length / 2)));
        socket.destroy();
        resolve();
      });
      socket.on('error', () => undefined);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(server.orders.count()).toBe(before);
  });
});
