/**
 * Each lenient reader of a time parameter is caught by its one check and by no other
 * (D-LONG-CANONICAL): the probes of LONG_FORMS each carry exactly one defect.
 */
import { describe, expect, it } from 'vitest';
import { LONG_FORMS } from '../conformance/checks/time.js';
import { runVariant } from './run-variant.js';
import { lenientParsers } from './lenient-parsers.js';

describe.concurrent('lenient time-parameter readers: each caught by its own check only', () => {
  it('every form probe has a lenient reader that only it catches', () => {
    expect(lenientParsers.map((p) => p.caughtBy).sort()).toEqual(LONG_FORMS.map((f) => f.id).sort());
  });

  for (const p of lenientParsers) {
    it(`${p.name}: ${p.caughtBy} fails, nothing else`, async () => {
      const r = await runVariant(
        p.options,
        {},
        {
          serverSeed: 3,
          seed: 29,
          runs: 3,
          // the time-parameter checks, and the clock-free window checks a reader could also upset
          only: [
            'TIME-WINDOW-PAST.',
            'TIME-WINDOW-LEAD.',
            'TIME-TIMESTAMP-REQUIRED',
            'ORDER-RECVWINDOW-FORMAT',
            'ORDER-LONG-CANONICAL',
          ],
        },
      );
      // the domain catalogue's probes of the same rule (spec/domain.json) may carry the same form
      const domainOfRule = `${p.caughtBy.split('.')[0] ?? ''}.domain`;
      expect(r.checks.filter((c) => c.status === 'fail' && c.id !== domainOfRule).map((c) => c.id)).toEqual([
        p.caughtBy,
      ]);
    });
  }
});
