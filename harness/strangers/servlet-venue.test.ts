/**
 * The servlet-style venue (harness/strangers/servlet-venue.ts): clean, it passes the whole kit
 * with no MUST failure; each of its faults, in the three classes the domain catalogue and the
 * run-wide invariants cover (request syntax and signature, limits at their edges, what an answer
 * echoes), fails the check of its rule alone, and a default run with every fault of a class
 * catches each of them.
 */
import { describe, expect, it } from 'vitest';
import { mustFailures, runAgainstVenue } from './run-venue.js';
import { startServletVenue, type ServletFaults } from './servlet-venue.js';

type Class = 'syntax and signature' | 'limits at their edges' | 'answers';

/** Each fault, the check that must catch it, and the checks a run needs to show it (the invariants judge other checks' answers). */
const FAULTS: ReadonlyArray<{ cls: Class; fault: keyof ServletFaults; caughtBy: string; only: string[] }> = [
  { cls: 'syntax and signature', fault: 'anyMethod', caughtBy: 'ROBUST-REJECT-PLACES-NOTHING.domain', only: [] },
  { cls: 'syntax and signature', fault: 'bodyMacWhenSignedInBody', caughtBy: 'SIG-QUERY-COVERED.domain', only: [] },
  { cls: 'syntax and signature', fault: 'semicolonSeparators', caughtBy: 'ORDER-SIDE-ENUM.domain', only: [] },
  { cls: 'limits at their edges', fault: 'intAge', caughtBy: 'TIME-WINDOW-PAST.domain', only: [] },
  { cls: 'limits at their edges', fault: 'intAge', caughtBy: 'TIME-WINDOW-LEAD.domain', only: [] },
  { cls: 'limits at their edges', fault: 'shortWindow', caughtBy: 'TIME-RECVWINDOW-HONOURED.domain-unusual', only: [] },
  { cls: 'limits at their edges', fault: 'windowInSeconds', caughtBy: 'TIME-RECVWINDOW-HONOURED.domain', only: [] },
  {
    cls: 'answers',
    fault: 'doubleDecimals',
    caughtBy: 'RESULT-ORDER-ECHO.invariant',
    only: ['ORDER-DECIMAL-FORMAT.domain-open'],
  },
  {
    cls: 'answers',
    fault: 'lowerSecondId',
    caughtBy: 'RESULT-CLIENT-ORDER-ID-ECHO.invariant',
    only: ['BATCH-ACCEPT-UP-TO-MAX.domain-unusual'],
  },
  { cls: 'answers', fault: 'feeInExecuted', caughtBy: 'RESULT-EXECUTED-QTY.invariant', only: ['ORDER-V1-ENDPOINT'] },
  { cls: 'answers', fault: 'limitTemplate', caughtBy: 'RESULT-ORDER-ECHO.invariant', only: ['ORDER-V1-ENDPOINT'] },
];

/** One run of the kit against a servlet venue with these faults. */
async function run(faults: ServletFaults, only: string[] = []) {
  const venue = await startServletVenue(faults);
  try {
    return await runAgainstVenue(venue, { only, seed: 5 });
  } finally {
    await venue.close();
  }
}

describe.concurrent('a servlet-style venue: each fault of the new classes caught on its rule', () => {
  it('clean, it passes the whole kit with no MUST failure, and every check that catches a fault passes', async () => {
    const report = await run({});
    expect(mustFailures(report)).toEqual([]);
    expect(report.summary.incompleteMust).toEqual([]);
    for (const f of FAULTS) expect(report.checks.find((c) => c.id === f.caughtBy)?.status, f.caughtBy).toBe('pass');
  });

  for (const f of FAULTS)
    it(`${f.cls}: ${f.fault} alone fails ${f.caughtBy}`, async () => {
      const report = await run({ [f.fault]: true }, [f.caughtBy, ...f.only]);
      expect(mustFailures(report)).toContain(f.caughtBy);
    });

  for (const cls of ['syntax and signature', 'limits at their edges', 'answers'] as const) {
    const mine = FAULTS.filter((f) => f.cls === cls);
    it(`${cls}: a default run against a venue with its ${new Set(mine.map((f) => f.fault)).size} faults at once catches each`, async () => {
      const report = await run(Object.fromEntries(mine.map((f) => [f.fault, true])));
      const failed = mustFailures(report);
      for (const f of mine) expect(failed, f.fault).toContain(f.caughtBy);
    });
  }
});
