import { describe, expect, it } from 'vitest';
import { checks } from '../conformance/checks/index.js';
import { RULE_FAMILIES } from '../src/core/rule-id.js';
import { rule } from '../src/rules.js';
import { mutants } from './mutants.js';
import { runAgainstServer } from './selftest.js';

/** Fewer cases per property than a default run: every mutant is caught well before. */
const RUNS = 25;
// Each mutant runs the checks of its family it names as catching it (the claim under test: those
// MUST checks of that family catch it); full runs of every mutant at the default case count are
// `npm run bench:network -- mutants`.

describe.concurrent('the runner catches every mutant server (one deliberate fault each)', () => {
  it('has at least 20 distinct mutants covering every family', () => {
    expect(mutants.length).toBeGreaterThanOrEqual(20);
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
    expect(new Set(mutants.map((m) => m.family))).toEqual(new Set(RULE_FAMILIES));
  });

  it('names for each mutant MUST checks of its own family that catch it', () => {
    for (const m of mutants) {
      expect(m.caughtBy.length, m.name).toBeGreaterThan(0);
      for (const id of m.caughtBy) {
        const named = checks.filter((c) => c.id === id || c.id.startsWith(`${id}.`));
        expect(named.length, `${m.name}: ${id}`).toBeGreaterThan(0);
        for (const c of named) expect([c.id, rule(c.ruleId).family], m.name).toEqual([c.id, m.family]);
        expect(
          named.some((c) => (c.level ?? rule(c.ruleId).level) === 'MUST'),
          `${m.name}: ${id}`,
        ).toBe(true);
      }
    }
  });

  it('a failed entry answered with "code":"0" fails BATCH-PER-ORDER-RULES: the string reads as 0, placed', async () => {
    const m = mutants.find((x) => x.name.includes('"code":"0"'));
    expect(m).toBeDefined();
    const report = await runAgainstServer(m?.options ?? {}, { runs: RUNS, seed: 7, only: ['BATCH-PER-ORDER-RULES'] });
    const c = report.checks.find((x) => x.id === 'BATCH-PER-ORDER-RULES');
    expect(c?.status).toBe('fail');
    expect(c?.actual).toContain('"code":"0"');
  });

  for (const m of mutants) {
    it(`catches: ${m.name} (${m.family})`, async () => {
      const report = await runAgainstServer(m.options, { runs: RUNS, seed: 7, only: [...m.caughtBy] });
      const failed = report.checks.filter((c) => c.status === 'fail');
      expect(report.summary.mustFailures, failed.map((c) => c.id).join(', ')).toBeGreaterThan(0);
      expect(failed.filter((c) => c.level === 'MUST').map((c) => c.family)).toContain(m.family);
      // each check named catches it (itself, or one of the checks its ID prefixes)
      for (const id of m.caughtBy)
        expect(
          failed.some((c) => c.id === id || c.id.startsWith(`${id}.`)),
          `${id}: ${JSON.stringify(report.checks.map((c) => [c.id, c.status]))}`,
        ).toBe(true);
      for (const f of failed) expect(f.expected, f.id).toBeTruthy();
    });
  }
});
