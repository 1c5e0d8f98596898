/**
 * Each route mutant (one fault on one route) is caught by a MUST check of its family,
 * and only through the faulty route: the per-route checks fire.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { runConformance } from '../conformance/runner.js';
import { routeMutants } from './route-mutants.js';
import { startVariant } from './variants.js';

describe('route mutants: a fault on one route is caught', () => {
  for (const m of routeMutants) {
    it(`catches: ${m.name} (${m.family})`, async () => {
      const v = await startVariant(m.options, 3);
      try {
        const r = await runConformance({
          target: {
            baseUrl: v.url,
            apiKey: DEMO_API_KEY,
            secret: DEMO_SECRET,
            symbol: 'BTCUSDT',
            otherSymbol: 'ETHUSDT',
          },
          profile: 'core',
          seed: 19,
          runs: 5,
          rate: 0,
          timeoutMs: 5000,
          only: [m.family],
          maxOrders: Infinity,
        });
        const caught = r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST' && c.family === m.family);
        expect(
          caught.map((c) => c.id),
          JSON.stringify(r.checks.map((c) => [c.id, c.status])),
        ).not.toEqual([]);
      } finally {
        await v.close();
      }
    });
  }
});
