import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/server.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import { loadBatch, quantile, runLoad } from './server.js';

describe('server benchmark helpers', () => {
  it('quantile takes the nearest rank of an ascending list', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([quantile(xs, 0.5), quantile(xs, 0.99), quantile(xs, 1), quantile(xs, 0), quantile([7], 0.99)]).toEqual([
      50, 99, 100, 1, 7,
    ]);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('the load batch is a valid 20-order batch', () => {
    expect(validateBatch(loadBatch(20))).toEqual([]);
  });

  it('runLoad sends accepted batches only: every order it counts was placed', async () => {
    const server = await startServer({});
    try {
      const r = await runLoad({ url: server.url, connections: 2, warmupMs: 0, durationMs: 300, batchSize: 5 });
      expect(r.requests).toBeGreaterThan(0);
      expect(r.failures).toBe(0);
      expect(r.p50).toBeLessThanOrEqual(r.p99);
      expect(server.orders.count()).toBeGreaterThanOrEqual(r.requests * 5);
    } finally {
      await server.close();
    }
  });
});
