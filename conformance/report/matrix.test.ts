import { describe, expect, it } from 'vitest';
import type { CheckReport, RunReport } from '../judgement/types.js';
import { buildMatrix, renderMatrixHtml } from './matrix.js';

const check = (id: string, level: 'MUST' | 'INFO', status: CheckReport['status'], route?: string): CheckReport =>
  ({
    id,
    ruleId: 'ORDER-SIDE-ENUM',
    level,
    status,
    title: id,
    section: '5',
    ...(route === undefined ? {} : { cells: [{ route, verdict: status, requests: 1 }] }),
  }) as unknown as CheckReport;

const report = (withCoverage: boolean): RunReport =>
  ({
    target: 'http://127.0.0.1:1',
    summary: { passed: 1, failed: 0, info: 1, skipped: 0, inconclusive: 0, mustFailures: 0 },
    checks: [
      check('ORDER-SIDE-ENUM', 'MUST', 'pass', 'v1/query'),
      check('ORDER-SIDE-CASE', 'INFO', 'info', 'v1/query'),
    ],
    ...(withCoverage
      ? {
          coverage: {
            routes: ['v1/query'],
            cells: [{ rule: 'ORDER-SIDE-ENUM', route: 'v1/query', checks: ['ORDER-SIDE-ENUM', 'ORDER-SIDE-CASE'] }],
          },
        }
      : {}),
  }) as unknown as RunReport;

describe('the implementations matrix', () => {
  it("shows a MUST rule's MUST verdict, not 'info' from an INFO sub-check that outranks a pass", () => {
    for (const withCoverage of [true, false]) {
      const m = buildMatrix(
        [{ name: 'venue', exitCode: 0, report: report(withCoverage), html: 'venue.html' }],
        '0.1.0',
      );
      expect(m.cells, String(withCoverage)).toEqual([
        expect.objectContaining({ target: 'venue', rule: 'ORDER-SIDE-ENUM', status: 'pass' }),
      ]);
      expect(renderMatrixHtml(m)).toMatch(/<td class="s-pass" data-status="pass" title="ORDER-SIDE-ENUM on venue/);
    }
  });

  it('still fails a MUST rule whose MUST check fails, and shows info where only INFO checks ran', () => {
    const r = report(true);
    r.checks[0] = check('ORDER-SIDE-ENUM', 'MUST', 'fail', 'v1/query');
    expect(buildMatrix([{ name: 'v', exitCode: 1, report: r }], '0.1.0').cells[0]?.status).toBe('fail');
    const onlyInfo = report(false);
    onlyInfo.checks = [check('ORDER-SIDE-CASE', 'INFO', 'info')];
    expect(buildMatrix([{ name: 'v', exitCode: 0, report: onlyInfo }], '0.1.0').cells[0]?.status).toBe('info');
  });
});
