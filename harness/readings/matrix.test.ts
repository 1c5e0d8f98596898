/**
 * The other-reading matrix (design notes, "Every MUST traced, every reading run"): the kit, core
 * profile, against the reference server read the other way on each open point of
 * spec/decisions.md (harness/readings/readings.ts), each reading alone and all of them together
 * over several seeds: no MUST failure, no MUST check left inconclusive (exit 0).
 */
import { describe, expect, it } from 'vitest';
import { runAgainstVenue } from '../strangers/run-venue.js';
import type { RunReport } from '../../conformance/judgement/types.js';
import { startFront, type Reading } from './front.js';
import { allTogether, READINGS } from './readings.js';

/** What a correct server's run must not show: MUST failures and MUST checks left open, with their evidence. */
function falseAlarms(r: RunReport): string[] {
  const open = new Set(r.summary.incompleteMust ?? []);
  return r.checks
    .filter((c) => (c.status === 'fail' && c.level === 'MUST') || open.has(c.id))
    .map((c) => `${c.id} ${c.status}: ${c.expected ?? ''} | ${c.actual ?? c.reason ?? ''}`.slice(0, 600));
}

async function runWith(readings: readonly Reading[], seed: number): Promise<{ alarms: string[]; passed: number }> {
  const front = await startFront(readings);
  try {
    const report = await runAgainstVenue(front, { seed, description: front.description });
    return { alarms: falseAlarms(report), passed: report.summary.passed };
  } finally {
    await front.close();
  }
}

describe.concurrent('the other reading of every open point: the kit passes it', () => {
  for (const r of READINGS)
    it(`${r.id} (${r.decisions.join(', ')}): no MUST failure, no MUST inconclusive`, async () => {
      const { alarms, passed } = await runWith([r], 7);
      expect(alarms).toEqual([]);
      expect(passed).toBeGreaterThan(80);
    });

  for (const seed of [1, 2, 3])
    it(`every reading at once (one of each group, seed ${seed}): no MUST failure, no MUST inconclusive`, async () => {
      const { alarms, passed } = await runWith(allTogether(seed), seed);
      expect(alarms).toEqual([]);
      expect(passed).toBeGreaterThan(60);
    });
});
