import { describe, expect, it } from 'vitest';
import { rules } from '../src/rules.js';
import { validateBatch } from '../src/core/validation/batch.js';
import { validateOrder } from '../src/core/validation/order.js';
import { loadOrderVectors } from './load.js';

const file = loadOrderVectors();
const ruleIds = (issues: ReadonlyArray<{ ruleId: string }>): string[] =>
  [...new Set(issues.map((i) => i.ruleId))].sort();

describe('order and batch vectors (§2.1, §4.1)', () => {
  it('declare as many vectors as they hold', () => {
    expect(file.tests.length).toBe(file.numberOfTests);
  });

  it('name only rule IDs of the catalog', () => {
    const catalog = rules();
    const unknown = file.tests.flatMap((v) => v.expectedRuleIds).filter((id) => !catalog.has(id));
    expect(unknown).toEqual([]);
  });

  it.each(file.tests.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', (_id, _comment, v) => {
    const issues = v.kind === 'order' ? validateOrder(v.input, { version: v.version }) : validateBatch(v.input);
    expect(ruleIds(issues)).toEqual([...v.expectedRuleIds].sort());
    expect(issues.length === 0).toBe(v.result === 'valid');
  });

  it('include the cases the brief lists', () => {
    const batchSizes = file.tests
      .filter((v) => v.kind === 'batch' && Array.isArray(v.input))
      .map((v) => (v.input as unknown[]).length);
    expect(batchSizes).toEqual(expect.arrayContaining([0, 1, 20, 21]));
    expect(file.tests.some((v) => v.kind === 'batch' && !Array.isArray(v.input))).toBe(true);
    const idLengths = file.tests
      .filter((v) => v.kind === 'order')
      .map((v) => (v.input as { newClientOrderId?: unknown }).newClientOrderId)
      .filter((id): id is string => typeof id === 'string')
      .map((id) => [...id].length);
    expect(idLengths).toEqual(expect.arrayContaining([255, 256]));
    expect(
      file.tests.some(
        (v) => v.kind === 'order' && v.version === 'v1.1' && v.expectedRuleIds.includes('ORDER-MARKET-SIZE-V11'),
      ),
    ).toBe(true);
  });
});
