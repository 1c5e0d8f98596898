/**
 * The kit against venues written the way outside teams write them (harness/strangers/venue.ts):
 * their legitimate choices where the seed is silent pass with no MUST failure, their faults fail
 * the rule they break (design notes, "How a verdict is earned").
 */
import { describe, expect, it } from 'vitest';
import { mustFailures, runVenue, statusOf } from './run-venue.js';

describe('stranger venues: legitimate choices pass', () => {
  it.concurrent('a clean venue with its own codes, shapes and decimals: no MUST failure, every offered route controlled', async () => {
    const { report } = await runVenue({});
    expect(mustFailures(report)).toEqual([]);
    expect(report.discovery?.controls.every((c) => c.state === 'accepted')).toBe(true);
    expect(report.summary.passed).toBeGreaterThan(90);
  });

  it.concurrent('§2.1 read literally (a v1.1 MARKET needs quantity and amount, D-V11-MARKET-SIZE): no MUST failure', async () => {
    const { report } = await runVenue(
      { marketNeedsBoth: true },
      {},
      { only: ['SIG-PLACEMENT', 'ORDER-V11', 'ORDER-TIME-IN-FORCE', 'ORDER-MARKET'] },
    );
    expect(mustFailures(report)).toEqual([]);
    for (const id of [
      'SIG-PLACEMENT-QUERY.v1.1',
      'SIG-PLACEMENT-SPLIT.v1.1',
      'ORDER-V11-ENDPOINT',
      'ORDER-TIME-IN-FORCE.named',
    ])
      expect(statusOf(report, id), id).toBe('pass');
  });

  it.concurrent('a small account whose balance refusal shares its code (-2010) with the duplicate-id refusal: no MUST failure', async () => {
    const { report } = await runVenue({ balance: { quote: 1e9, base: 1e5 } });
    expect(mustFailures(report)).toEqual([]);
    expect(statusOf(report, 'ROBUST-REJECT-PLACES-NOTHING.reuse')).not.toBe('fail');
  });
});
