import { describe, expect, it } from 'vitest';
import { measureDoctor, printDoctor, DOCTOR_CASES } from './doctor.js';

describe('doctor benchmark section', () => {
  it('measures every worst case beside its baseline and prints a table with the ratio and the budget', () => {
    const rows = measureDoctor({ rounds: 1, sampleMs: 2 });
    expect(rows.map((r) => r.name)).toEqual(DOCTOR_CASES.map((c) => c.name));
    for (const r of rows) {
      expect(r.diagnose.median).toBeGreaterThan(0);
      expect(r.verify.median).toBeGreaterThan(0);
      expect(r.cpuDiagnose).toBeGreaterThan(r.cpuVerify);
      expect(r.candidates).toBeGreaterThan(r.pairs);
    }
    // pairs on the common requests; the body at the size limit is bounded by the search budget to single mistakes
    expect(rows.filter((r) => r.pairs > 0).length).toBe(rows.length - 1);
    let out = '';
    printDoctor((s) => (out += s), rows, { rounds: 1 });
    expect(out).toContain('plain verifies');
    expect(out).toMatch(/\d+ candidate strings \(\d+ of them pairs of mistakes\)/);
    expect(out).toContain('diagnose (rejected, UNKNOWN)');
    expect(out).toMatch(/(within|OVER) the 1000 µs budget/);
  });
});
