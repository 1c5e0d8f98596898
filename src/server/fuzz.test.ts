/**
 * The wire fuzz suite (ROBUST-NO-5XX §7): over 20,000 requests on raw TCP,
 * pipelined, some sent slowly, against one reference server. No 5xx, no hang, no lost
 * reply, every placed order answered, and the server still serves afterwards. Fixed
 * seeds plus one random seed, printed with every fault so it can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOrdersRequest } from '../client/requests.js';
import { sendRaw } from '../client/http.js';
import { runFuzz, type FuzzStats } from '../../harness/testing/fuzz.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';

const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
const SEEDS = [1, 2, 3, Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))];
/** Requests the suite must send in all (ROBUST-NO-5XX). */
const MIN_REQUESTS = 20_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ storeCapacity: 1_000_000 });
});
afterAll(() => server.close());

describe('wire fuzz', () => {
  const all: FuzzStats[] = [];
  for (const [i, seed] of SEEDS.entries()) {
    it(`seed ${seed}${i === SEEDS.length - 1 ? ' (random this run)' : ''}: no 5xx, no hang, no lost reply, placed orders all answered`, async () => {
      const before = server.orders.count();
      const stats = await runFuzz({
        port: server.port,
        seed,
        connections: 170,
        perConnection: 60,
        concurrency: 8,
        credential: TRADE,
        now: Date.now,
      });
      all.push(stats);
      expect(stats.faults.slice(0, 10), `replay with seed ${seed}`).toEqual([]);
      expect(stats.hung).toBe(0);
      expect(stats.lost).toBe(0);
      expect(
        Object.keys(stats.statuses).filter((s) => Number(s) >= 500),
        `seed ${seed}`,
      ).toEqual([]);
      expect(server.orders.count() - before, `seed ${seed}: orders placed vs orders answered`).toBe(
        stats.ordersAnswered,
      );
      expect(stats.ordersAnswered, 'the signed batches among the cases were placed').toBeGreaterThan(0);
    });
  }

  it(`sent at least ${MIN_REQUESTS} requests in all, and the server still answers a valid signed batch`, async () => {
    const total = all.reduce((n, s) => n + s.requests, 0);
    const statuses: Record<string, number> = {};
    for (const s of all) for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    console.log(
      `fuzz: ${total} requests on ${all.reduce((n, s) => n + s.connections, 0)} connections, seeds ${SEEDS.join(',')}; statuses ${JSON.stringify(statuses)}`,
    );
    expect(all.length).toBe(SEEDS.length);
    expect(total).toBeGreaterThanOrEqual(MIN_REQUESTS);
    const ok = batchOrdersRequest([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }], {
      apiKey: TRADE.apiKey,
      secret: TRADE.secret,
      timestamp: Date.now(),
    }).request;
    expect((await sendRaw(server.url, ok)).status).toBe(200);
  });
});
