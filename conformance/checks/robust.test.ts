/**
 * The ROBUST edge probes are built exactly at the reference's edges (D-BODY-LIMIT, D-JSON-DEPTH):
 * the kit keeps its own copy of the two limits, held here to the server's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/server.js';
import { runAgainstUrl } from '../../harness/selftest.js';
import { jsonNestingDepth } from '../../src/core/json.js';
import { MAX_JSON_DEPTH } from '../../src/server/batch.js';
import { DEFAULT_BODY_LIMIT } from '../../src/server/body.js';
import { batchOfBytes, batchOfDepth, REFERENCE_EDGES } from './robust.js';

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '2', newClientOrderId: 'é-1' };

describe('ROBUST-NO-5XX.edges probes', () => {
  it("the kit's edges are the reference server's", () => {
    expect(REFERENCE_EDGES).toEqual({ bodyBytes: DEFAULT_BODY_LIMIT, jsonDepth: MAX_JSON_DEPTH });
  });

  it('a batch of exactly N bytes (multi-byte ids counted in bytes), still one valid order', () => {
    for (const n of [1024, REFERENCE_EDGES.bodyBytes, REFERENCE_EDGES.bodyBytes + 1]) {
      const body = batchOfBytes(order, n);
      expect(Buffer.byteLength(body)).toBe(n);
      expect(JSON.parse(body)).toEqual([order]);
    }
  });

  it('a batch nesting exactly N levels, as the server counts them', () => {
    for (const d of [2, 3, REFERENCE_EDGES.jsonDepth, REFERENCE_EDGES.jsonDepth + 1]) {
      const body = batchOfDepth(order, d);
      expect(jsonNestingDepth(body, 64)).toBe(d);
      expect(JSON.parse(body)[0]).toMatchObject(order);
    }
  });
});

describe('ROBUST-NO-5XX.oversized behind a front that refuses a large body by closing the connection', () => {
  it('the closed connection is the body refused: the check passes on its route, not undecided', async () => {
    const ref = await startServer({ port: 0 });
    // a front (as nginx's client_max_body_size or a stdlib server checking Content-Length) closing the
    // connection on a body over 1 MiB before reading it; every other request forwarded as it came
    const front = createServer((req, res) => {
      if (Number(req.headers['content-length'] ?? 0) > 1 << 20) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
        ) as Record<string, string>;
        void request(`${ref.url}${req.url ?? '/'}`, {
          method: (req.method ?? 'POST') as 'POST',
          headers,
          body: Buffer.concat(chunks),
        }).then(async (r) => {
          const date = r.headers.date;
          res.writeHead(r.statusCode, {
            'content-type': String(r.headers['content-type'] ?? 'application/json'),
            ...(typeof date === 'string' ? { date } : {}),
          });
          res.end(Buffer.from(await r.body.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const r = await runAgainstUrl(url, { only: ['ROBUST-NO-5XX.oversized'], runs: 2 });
      const c = r.checks.find((x) => x.id === 'ROBUST-NO-5XX.oversized');
      expect(c?.status, c?.reason).toBe('pass');
      expect(c?.cells?.map((x) => [x.route, x.verdict])).toEqual([['batch/json', 'pass']]);
    } finally {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await ref.close();
    }
  });
});
