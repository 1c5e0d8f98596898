/**
 * The kit against venues written the way outside teams write them (harness/strangers/venue.ts):
 * their legitimate choices where the seed is silent pass with no MUST failure, their faults fail
 * the rule they break (design notes, "How a verdict is earned"). Each case names the principle
 * of conformance/judgement/decide.ts it shows end to end.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/args.js';
import { conformanceCommands } from '../../conformance/cli/commands.js';
import { mustFailures, runVenue, statusOf } from './run-venue.js';
import { startVenue } from './venue.js';

describe('stranger venues: legitimate choices pass', () => {
  it.concurrent('a clean venue with its own codes, shapes and decimals: no MUST failure, every offered route controlled', async () => {
    const { report } = await runVenue({});
    expect(mustFailures(report)).toEqual([]);
    expect(report.summary.incompleteMust).toEqual([]);
    expect(report.discovery?.controls.every((c) => c.state === 'accepted')).toBe(true);
    expect(report.summary.passed).toBeGreaterThan(90);
  });

  it.concurrent('values by their seed meaning: decimals echoed normalised or padded, a lower-case symbol echoed upper-case: no MUST failure', async () => {
    const only = ['RESULT-', 'ORDER-DECIMAL-FORMAT', 'ORDER-V1', 'SCHEMA-'];
    for (const decimals of ['normalised', 'padded'] as const) {
      const { report } = await runVenue(
        { decimals, upperCaseSymbols: true },
        {},
        { only, description: { order: { symbol: 'btcusdt' } } },
      );
      expect(mustFailures(report), decimals).toEqual([]);
      expect(statusOf(report, 'RESULT-ORDER-ECHO'), decimals).toBe('pass');
    }
  });

  it.concurrent('valid under every reading: §2.1 read literally (a v1.1 MARKET needs quantity and amount, D-V11-MARKET-SIZE): no MUST failure', async () => {
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

  it.concurrent('a duplicate and the account refusing, shown by controls: a small account whose balance refusal shares its code (-2010) with the duplicate-id refusal: no MUST failure, the spent side shown by a control pair', async () => {
    const { report } = await runVenue({ balance: { quote: 1e9, base: 1e5 } }, {}, { runs: 100 });
    expect(mustFailures(report)).toEqual([]);
    expect(statusOf(report, 'ROBUST-REJECT-PLACES-NOTHING.reuse')).not.toBe('fail');
    expect(
      report.discovery?.learned?.some((l) => /-2010.*the account's: a control pair showed it/.test(l.refusal)),
    ).toBe(true);
  });

  it.concurrent('a failed control: no batch endpoint (declared): inconclusive only on batch-only checks, every one of them for that cause', async () => {
    const { report } = await runVenue({ noBatch: true });
    const open = report.checks.filter((c) => c.status === 'inconclusive');
    expect(open.length).toBeGreaterThan(0);
    expect(report.summary.inconclusiveByCause).toEqual({ 'not-offered': open.length });
    for (const c of open) expect(c.cells?.every((x) => x.route === 'batch/json') ?? true, c.id).toBe(true);
    expect(report.summary.incompleteMust).toEqual([]);
    // a check covering every route is decided on the single-order routes
    expect(statusOf(report, 'ROBUST-REJECT-PLACES-NOTHING.combined')).toBe('pass');
    expect(mustFailures(report)).toEqual(['BATCH-ACCEPT-UP-TO-MAX']);
  });
});

describe('stranger venues: faults fail their rule', () => {
  it.concurrent('an unanswered valid request: upper-case signatures never answered while the route answers every other request: SIG-CASE-INSENSITIVE fails', async () => {
    const { report } = await runVenue(
      {},
      { hangOnUpperSignature: true },
      { only: ['SIG-CASE-INSENSITIVE', 'SIG-PLACEMENT', 'ORDER-V1-ENDPOINT', 'ORDER-V11-ENDPOINT'] },
    );
    expect(statusOf(report, 'SIG-CASE-INSENSITIVE')).toBe('fail');
    expect(report.checks.find((c) => c.id === 'SIG-CASE-INSENSITIVE')?.actual).toMatch(
      /never answered, while .* answered requests sent after it/,
    );
  });

  it.concurrent('an acceptance never excused: an invalid side accepted (it opens a position that refuses every later order): ORDER-SIDE-ENUM fails, never excused by the refusal learnt after', async () => {
    const { report } = await runVenue(
      {},
      { anySide: true },
      { only: ['ORDER-SIDE-ENUM', 'ORDER-V1-ENDPOINT', 'ORDER-TIME-IN-FORCE.named'] },
    );
    expect(statusOf(report, 'ORDER-SIDE-ENUM')).toBe('fail');
    expect(report.discovery?.learned?.some((l) => l.refusal.includes('-2019'))).toBe(true);
  });

  it.concurrent('a failed control: every v1 order refused: ORDER-V1-ENDPOINT fails, the v1 routes are not offered to the other checks', async () => {
    const { report } = await runVenue({}, { refuseV1: true }, { only: ['ORDER-V1-ENDPOINT', 'ORDER-SIDE-ENUM'] });
    expect(mustFailures(report)).toEqual(['ORDER-V1-ENDPOINT']);
    const side = report.checks.find((c) => c.id === 'ORDER-SIDE-ENUM');
    expect(side?.status).toBe('pass');
    expect(side?.cells?.filter((c) => c.route.startsWith('v1/')).every((c) => c.verdict === 'not-offered')).toBe(true);
  });

  it.concurrent('the account refusing, shown by a control, undecided is not passed: every BUY refused everywhere: the run is not passed (exit 3, incomplete, naming the rules and the cause)', async () => {
    const venue = await startVenue({}, { refuseBuy: true });
    let err = '';
    const io: Io = {
      out: () => undefined,
      err: (s) => void (err += s),
      env: { SPOTCHECK_API_KEY: venue.apiKey, SPOTCHECK_SECRET: venue.secret },
    };
    try {
      const code = await main(
        [
          'run',
          '--base-url',
          venue.url,
          '--only',
          'SIG-PLACEMENT,ORDER-V1-ENDPOINT,ORDER-V11-ENDPOINT',
          '--runs',
          '20',
          '--seed',
          '3',
          '--yes',
        ],
        io,
        conformanceCommands,
      );
      expect(code, err).toBe(3);
      expect(err).toMatch(/incomplete: \d+ MUST check\(s\) left inconclusive/);
      expect(err).toMatch(/ORDER-V1-ENDPOINT \[business\]/);
      const accepted = await main(
        [
          'run',
          '--base-url',
          venue.url,
          '--only',
          'ORDER-V1-ENDPOINT',
          '--runs',
          '5',
          '--seed',
          '3',
          '--yes',
          '--allow-inconclusive',
        ],
        io,
        conformanceCommands,
      );
      expect(accepted).toBe(0);
    } finally {
      await venue.close();
    }
  });
});
