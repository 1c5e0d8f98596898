/**
 * The outputs of a run agree with its report: the JUnit failures are the failed checks, plus the one
 * case of a run stopped before its checks, or of a partial run (cut by its deadline or stopped).
 */
import { describe, expect, it } from 'vitest';
import { disagreements } from './agreeing-run.js';
import { runAgainstServer } from './selftest.js';

describe('disagreements', () => {
  it('a run cut by its deadline agrees with its JUnit, which says the run is partial in one failed case', async () => {
    // runAgainstServer checks every output against the report and throws on a disagreement; the
    // whole catalogue takes seconds on any machine, so 300 ms always cuts it (some checks decided
    // on an idle machine, perhaps none on a loaded one: both are partial runs)
    const report = await runAgainstServer({}, { runs: 2, maxTimeMs: 300 });
    expect(report.deadline?.reached, 'the deadline must cut this run').toBe(true);
    const streamed = report.checks;
    const evidence = report.checks.map((c) => ({ id: c.id, probes: 1, routes: {}, answers: {}, durationMs: 0 }));
    expect(disagreements(report, streamed, evidence).filter((d) => d.startsWith('junit'))).toEqual([]);
  });
});
