/**
 * The order budget (--max-orders) over whole runs against an accept-all server, a stranger's
 * server that places whatever it is sent (harness/accept-all.ts): 15 whole runs, so in `npm run
 * test:interop`; the budget's own tests stay in `npm test` (budget.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { startAcceptAll } from './accept-all.js';
import { runAgainstUrl } from './selftest.js';

/**
 * The cap holds over a whole run at any concurrency: every request that could place an order
 * reserves it before it is sent, in-flight requests included, so a server accepting everything
 * places at most the cap. The kit's own count never trails the server's (nothing placed unseen).
 */
describe.concurrent.each([1, 16, 64])('a whole run at concurrency %i against an accept-all server', (concurrency) => {
  // each cap's run has its own server, so the five run side by side (a run mostly waits: the clock's samples)
  it('places at most the cap, for caps 0, 1, 7, 50 and 500', { timeout: 240_000 }, async () => {
    const rows = await Promise.all(
      [0, 1, 7, 50, 500].map(async (cap) => {
        const server = await startAcceptAll();
        try {
          const r = await runAgainstUrl(server.url, { maxOrders: cap, concurrency, runs: 2, seed: 5 });
          return { cap, placed: server.placed(), counted: r.orders?.placed ?? -1, checks: r.checks.length };
        } finally {
          await server.close();
        }
      }),
    );
    for (const row of rows) {
      expect(row.placed, JSON.stringify(row)).toBeLessThanOrEqual(row.cap);
      expect(row.counted, JSON.stringify(row)).toBeGreaterThanOrEqual(row.placed);
      expect(row.checks).toBeGreaterThan(100);
    }
    // the budget is spent, not merely left unused: the larger caps are reached
    expect(rows.filter((r) => r.cap > 0).every((r) => r.placed > 0)).toBe(true);
  });
});
