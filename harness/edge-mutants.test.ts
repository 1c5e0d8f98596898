/**
 * Each edge mutant is caught by its own edge check and by no other check of that family:
 * the edge probes reach code paths the rest of the suite never takes.
 */
import { describe, expect, it } from 'vitest';
import { checks } from '../conformance/checks/index.js';
import { rule } from '../src/rules.js';
import { edgeMutants } from './edge-mutants.js';
import { runAgainstServer, runAgainstUrl } from './selftest.js';
import { startVariant } from './variants.js';

describe.concurrent('edge mutants: each caught by its edge check only', () => {
  it('every edge mutant names a check of the suite', () => {
    for (const m of edgeMutants)
      expect(
        checks.map((c) => c.id),
        m.name,
      ).toContain(m.caughtBy);
  });

  for (const m of edgeMutants) {
    it(`${m.name}: ${m.caughtBy} fails, no other ${m.caughtBy.split('-')[0] ?? ''} check does`, async () => {
      const family = rule(checks.find((c) => c.id === m.caughtBy)?.ruleId ?? 'AUTH-APIKEY-REQUIRED').family;
      const r = await runAgainstServer(m.options, { runs: 4, seed: 43, only: [`${family}-`], concurrency: 2 });
      // the domain catalogue's probes of the same rule (spec/domain.json) may carry the same fault, and the
      // rule's run-wide invariant judges the same answers (conformance/judgement/invariant.ts)
      const ofRule = ['domain', 'invariant'].map((k) => `${m.caughtBy.split('.')[0] ?? ''}.${k}`);
      expect(r.checks.filter((c) => c.status === 'fail' && !ofRule.includes(c.id)).map((c) => c.id)).toEqual([
        m.caughtBy,
      ]);
    });
  }
});

describe('a server reading the API-key header case-sensitively', () => {
  it('is caught under AUTH by AUTH-APIKEY-REQUIRED.header-case, and by no other AUTH check', async () => {
    const v = await startVariant({ apiKeyHeaderExactCase: true }, 3);
    try {
      const r = await runAgainstUrl(v.url, { runs: 4, seed: 43, only: ['AUTH-'], concurrency: 2 });
      expect(r.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([
        'AUTH-APIKEY-REQUIRED.header-case',
      ]);
    } finally {
      await v.close();
    }
  });
});

describe('the coverage matrix lists every edge probe', () => {
  it('each edge check and each time-parameter form probe covers at least one rule x route cell', async () => {
    const { coverageMatrix } = await import('../conformance/judgement/coverage.js');
    const { LONG_FORMS } = await import('../conformance/checks/time.js');
    const m = coverageMatrix(checks);
    for (const id of [...edgeMutants.map((e) => e.caughtBy), ...LONG_FORMS.map((f) => f.id)]) {
      expect(m.cells.filter((c) => c.checks.includes(id)).length, id).toBeGreaterThan(0);
    }
  });
});
