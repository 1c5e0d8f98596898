/**
 * The run-wide invariant checks (conformance/checks/invariant.ts): they send nothing, judge the
 * answers the other checks got once those have ended, pass on the reference server, and are
 * undecided when no check got an answer to judge.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstServer } from '../../harness/selftest.js';
import { invariantChecks } from './invariant.js';

const IDS = invariantChecks.map((c) => c.id);

describe('the run-wide invariant checks', () => {
  it('one per RESULT rule, each run last and placing nothing', () => {
    expect(IDS).toEqual([
      'RESULT-ORDER-ECHO.invariant',
      'RESULT-ONE-PER-ORDER.invariant',
      'RESULT-ORDER-MATCH.invariant',
      'RESULT-CLIENT-ORDER-ID-ECHO.invariant',
      'RESULT-EXECUTED-QTY.invariant',
    ]);
    for (const c of invariantChecks) expect([c.runLast, c.placesOrders], c.id).toEqual([true, undefined]);
  });

  it('pass on the reference server over the answers of the domain and batch checks, and are undecided with no answer to judge', async () => {
    const [withAnswers, alone] = await Promise.all([
      runAgainstServer(
        {},
        { runs: 5, seed: 3, concurrency: 4, only: [...IDS, 'ORDER-DECIMAL-FORMAT.domain', 'BATCH-ACCEPT-UP-TO-MAX'] },
      ),
      runAgainstServer({}, { runs: 5, seed: 3, concurrency: 4, only: IDS }),
    ]);
    const mine = withAnswers.checks.filter((c) => IDS.includes(c.id));
    expect(mine.map((c) => `${c.id} ${c.status}`)).toEqual(IDS.map((id) => `${id} pass`));
    expect(mine.every((c) => /^[1-9][0-9]* accepted answers/.test(c.observed ?? ''))).toBe(true);
    expect(alone.requests).toBeLessThan(40);
    expect(alone.checks.map((c) => c.status)).toEqual(IDS.map(() => 'inconclusive'));
  });
});
