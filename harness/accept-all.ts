/**
 * A server that accepts everything and counts what it placed: the target of the order
 * budget's self-test (`--max-orders`). Written the way a careless stranger would: no
 * signature, key or time check, every element of a JSON array body is placed, and a
 * request carrying a `symbol` (query, form or JSON object body, on any path) places one order. Test harness only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AcceptAll {
  url: string;
  /** Orders placed so far. */
  placed(): number;
  /** Orders placed so far, by path (query left out). */
  placedOn(): Record<string, number>;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/** `status`: the HTTP status of every answer (default 200; 500: it places the orders and answers as if it failed). */
export async function startAcceptAll(opts: { status?: number } = {}): Promise<AcceptAll> {
  let placed = 0;
  const byPath: Record<string, number> = {};
  const place = (path: string, n: number): void => {
    placed += n;
    if (n > 0) byPath[path] = (byPath[path] ?? 0) + n;
  };
  let requests = 0;
  let nextId = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const body = Buffer.concat(chunks).toString('utf8');
      const [path = '', query = ''] = (req.url ?? '').split('?');
      let answer: unknown = { code: 0 };
      let orders: unknown;
      try {
        orders = JSON.parse(body);
      } catch {
        orders = undefined;
      }
      const order = (o: Record<string, unknown>) => ({
        orderId: String(nextId++),
        clientOrderId: o.newClientOrderId ?? `srv${nextId}`,
        symbol: o.symbol,
        side: o.side,
        type: o.type,
        status: 'NEW',
        transactTime: Date.now(),
      });
      if (Array.isArray(orders)) {
        place(path, orders.length);
        answer = {
          code: 0,
          result: orders.map((o) => ({
            code: 0,
            msg: 'ok',
            order: order(typeof o === 'object' && o !== null ? (o as Record<string, unknown>) : {}),
          })),
        };
      } else {
        const json = typeof orders === 'object' && orders !== null ? (orders as Record<string, unknown>) : {};
        const params = {
          ...json,
          ...Object.fromEntries([...new URLSearchParams(query), ...new URLSearchParams(body)]),
        };
        if (params.symbol !== undefined) {
          place(path, 1);
          answer = { code: 0, ...order(params as Record<string, unknown>) };
        }
      }
      const text = JSON.stringify(answer);
      res.writeHead(opts.status ?? 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    placed: () => placed,
    placedOn: () => ({ ...byPath }),
    requests: () => requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
