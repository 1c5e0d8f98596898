import { describe, expect, it } from 'vitest';
import type { CheckReport, RunReport } from '../judgement/types.js';
import { applyBaseline, baselineIssues, gateFails } from './baseline.js';
import { renderConsole } from './console.js';
import { renderJunit } from './junit.js';

const check = (id: string, status: CheckReport['status'], level: CheckReport['level'] = 'MUST'): CheckReport => ({
  id,
  ruleId: id as CheckReport['ruleId'],
  family: 'SIG',
  level,
  status,
  title: id,
  section: '5.3',
  requirement: 'r',
  durationMs: 1,
  ...(status === 'fail' ? { expected: 'e', actual: 'a' } : {}),
});

function report(checks: CheckReport[]): RunReport {
  return {
    tool: { name: 'spotcheck', version: '0.0.0' },
    target: 'http://127.0.0.1:1',
    profile: 'core',
    seed: 1,
    runs: 1,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    requests: 1,
    clock: { method: 'date-header' },
    summary: {
      passed: 0,
      failed: 0,
      info: 0,
      skipped: 0,
      inconclusive: 0,
      mustFailures: checks.filter((c) => c.status === 'fail' && c.level === 'MUST').length,
    },
    checks,
  };
}

describe('known-failures baseline', () => {
  const known = new Set(['SIG-A', 'SIG-B', 'SIG-C']);
  it('accepts a list of {id, reason} and names every problem otherwise', () => {
    expect(baselineIssues([{ id: 'SIG-A', reason: 'vendor bug #12' }], known)).toEqual([]);
    expect(baselineIssues({}, known)).toHaveLength(1);
    const issues = baselineIssues(
      [{ id: 'SIG-X', reason: 'r' }, { id: 'SIG-A' }, { id: 'SIG-A', reason: 'r', why: 1 }, 3],
      known,
    );
    expect(issues.join('\n')).toMatch(/'SIG-X' is no check/);
    expect(issues.join('\n')).toMatch(/\[1\]\.reason/);
    expect(issues.join('\n')).toMatch(/listed twice/);
    expect(issues.join('\n')).toMatch(/unknown field 'why'/);
    expect(issues.join('\n')).toMatch(/\[3\] is not an object/);
  });

  it('a listed failure does not fail the gate, an unlisted one does, a listed pass is stale and does', () => {
    const r = report([check('SIG-A', 'fail'), check('SIG-B', 'pass'), check('SIG-C', 'fail')]);
    expect(gateFails(r, false)).toBe(true);
    const onlyA = applyBaseline(r, [{ id: 'SIG-A', reason: 'known' }]);
    expect(onlyA.summary).toMatchObject({ failed: 1, mustFailures: 1, baselined: 1, stale: 0 });
    expect(gateFails(onlyA, false)).toBe(true);
    const both = applyBaseline(r, [
      { id: 'SIG-A', reason: 'known' },
      { id: 'SIG-C', reason: 'known too' },
    ]);
    // counted apart: no "2 failed" beside exit 0
    expect(both.summary).toMatchObject({ failed: 0, mustFailures: 0, baselined: 2 });
    expect(renderConsole(both, { color: false })).toMatch(/^0 passed, 0 failed, 0 info, 0 skipped, 2 baselined$/m);
    expect(gateFails(both, false)).toBe(false);
    const stale = applyBaseline(r, [
      { id: 'SIG-A', reason: 'k' },
      { id: 'SIG-C', reason: 'k' },
      { id: 'SIG-B', reason: 'fixed since' },
    ]);
    expect(stale.summary.stale).toBe(1);
    expect(gateFails(stale, false)).toBe(true);
    expect(stale.checks.find((c) => c.id === 'SIG-B')?.baseline).toEqual({ state: 'stale', reason: 'fixed since' });
  });

  it('says so in the console and in JUnit (baselined failures skipped, stale entries failed)', () => {
    const r = applyBaseline(report([check('SIG-A', 'fail'), check('SIG-B', 'pass')]), [
      { id: 'SIG-A', reason: 'vendor bug #12' },
      { id: 'SIG-B', reason: 'old' },
    ]);
    const text = renderConsole(r, { color: false });
    expect(text).toContain('(baselined: vendor bug #12)');
    expect(text).toContain('Stale baseline entries');
    expect(text).toMatch(/1 baselined, 1 stale baseline$/m);
    const xml = renderJunit(r);
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('BASELINED (known failure): vendor bug #12');
    expect(xml).toContain('type="STALE-BASELINE"');
  });
});
