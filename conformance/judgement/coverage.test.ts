/**
 * The coverage matrix: every cell of rule x route the rule applies to is
 * covered by a check or explained. (What a check declares it covers is what it demonstrably
 * reaches in a real run: runner.test.ts, on its default run against the reference server.)
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { rules } from '../../src/rules.js';
import { checks } from '../checks/index.js';
import { appliesTo, coverageData, coverageMatrix, renderMatrix } from './coverage.js';

const data = coverageData();

describe('spec/coverage.json', () => {
  it('validates against its schema and names every rule of the catalog, and no other', () => {
    const schema = JSON.parse(readFileSync(kitPath('spec', 'coverage.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(data.rules).sort()).toEqual([...rules().keys()].sort());
  });

  it('every applicable cell is covered by a check or explained; none is missing', () => {
    const m = coverageMatrix(checks);
    const missing = m.cells
      .filter((c) => c.checks.length === 0 && c.explained === undefined)
      .map((c) => `${c.rule} @ ${c.route}`);
    expect(missing).toEqual([]);
    expect(m.totals.covered + m.totals.explained).toBe(m.totals.cells);
    expect(m.totals.covered).toBeGreaterThan(m.totals.explained);
  });

  it('no explanation stands on a covered cell, or on a route the rule does not apply to', () => {
    const stale: string[] = [];
    for (const [ruleId, r] of Object.entries(data.rules)) {
      for (const route of Object.keys(r.explained ?? {})) {
        if (!appliesTo(data, ruleId).includes(route)) stale.push(`${ruleId} @ ${route}: does not apply`);
        if (checks.some((c) => c.ruleId === ruleId && ((c.covers ?? []) as readonly string[]).includes(route)))
          stale.push(`${ruleId} @ ${route}: covered by a check`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('a check covers only routes its rule applies to', () => {
    const wrong = checks.flatMap((c) =>
      (c.covers ?? []).filter((r) => !appliesTo(data, c.ruleId).includes(r)).map((r) => `${c.id} @ ${r}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the matrix can fail: the checks of a rule dropped leave its cells missing', () => {
    const without = checks.filter((c) => c.ruleId !== 'AUTH-APIKEY-REQUIRED');
    expect(coverageMatrix(without).totals.missing).toBe(7);
    expect(renderMatrix(coverageMatrix(without))).toMatch(/AUTH-APIKEY-REQUIRED\s+\.\s+\.\s+\./);
  });
});
