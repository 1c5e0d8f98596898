import { describe, expect, it } from 'vitest';
import { measureDoctor, runDoctor } from './doctor.js';

describe('doctor benchmark section', () => {
  it('measures both variants and prints a table with the ratio', () => {
    const r = measureDoctor({ rounds: 1, sampleMs: 2 });
    expect(r.diagnose.median).toBeGreaterThan(0);
    expect(r.verify.median).toBeGreaterThan(0);
    expect(r.pairs).toBeGreaterThan(0);
    expect(r.candidates).toBeGreaterThan(r.pairs);
    let out = '';
    runDoctor((s) => (out += s), { rounds: 1, sampleMs: 2 });
    expect(out).toContain('plain verifies');
    expect(out).toMatch(/\d+ candidate strings \(\d+ of them pairs of mistakes\)/);
    expect(out).toContain('diagnose (rejected, UNKNOWN)');
  });
});
