/**
 * Each route mutant (one fault on one route) is caught by a MUST check of its family,
 * and only through the faulty route: the per-route checks fire.
 */
import { describe, expect, it } from 'vitest';
import { routeMutants } from './route-mutants.js';
import { runVariant } from './run-variant.js';

// Each mutant runs the checks of its family it names as catching it; each test owns its server.
describe.concurrent('route mutants: a fault on one route is caught', () => {
  for (const m of routeMutants) {
    it(`catches: ${m.name} (${m.family})`, async () => {
      const r = await runVariant(m.options, {}, { serverSeed: 3, seed: 19, runs: 5, only: [...m.caughtBy] });
      const caught = r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST' && c.family === m.family);
      expect(
        caught.map((c) => c.id),
        JSON.stringify(r.checks.map((c) => [c.id, c.status])),
      ).not.toEqual([]);
      // each check named catches it (itself, or one of the checks its ID prefixes)
      for (const id of m.caughtBy)
        expect(
          caught.some((c) => c.id === id || c.id.startsWith(`${id}.`)),
          `${id}: ${JSON.stringify(r.checks.map((c) => [c.id, c.status]))}`,
        ).toBe(true);
    });
  }
});
