import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../errors.js';
import { assertNoIssues, describeValue, issue } from './issue.js';

describe('describeValue', () => {
  it('prints short JSON, "missing" for undefined', () => {
    expect(describeValue(undefined)).toBe('missing');
    expect(describeValue('BUY')).toBe('"BUY"');
    expect(describeValue(12)).toBe('12');
    expect(describeValue(null)).toBe('null');
    expect(describeValue({ a: [1] })).toBe('{"a":[1]}');
  });

  it('cuts long values and says how long they were', () => {
    const s = describeValue('x'.repeat(300));
    expect(s.length).toBeLessThan(100);
    expect(s).toContain('(302 chars)');
  });

  it('survives values JSON cannot print', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
    expect(describeValue(10n)).toBe('10');
    expect(describeValue(() => 1)).toContain('=>');
  });

  it('never throws, even where String() itself throws', () => {
    expect(describeValue(JSON.parse('{"toString":1,"valueOf":2,"self":null}') as unknown)).toBe(
      '{"toString":1,"valueOf":2,"self":null}',
    );
    const cyclicBadString: Record<string, unknown> = { toString: 1 };
    cyclicBadString.self = cyclicBadString;
    expect(describeValue(cyclicBadString)).toBe('(object)');
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(describeValue(deep)).toBe('(array)');
  });
});

describe('issue', () => {
  it('builds an issue with a default message naming path, expectation and value', () => {
    expect(issue('ORDER-SIDE-ENUM', [2, 'side'], 'BUY or SELL', 'HOLD')).toEqual({
      ruleId: 'ORDER-SIDE-ENUM',
      path: [2, 'side'],
      expected: 'BUY or SELL',
      received: '"HOLD"',
      missing: false,
      message: '2.side: expected BUY or SELL, got "HOLD"',
    });
    expect(issue('BATCH-EMPTY', [], 'at least one order', '0 orders').message).toBe(
      'request: expected at least one order, got "0 orders"',
    );
    expect(issue('BATCH-EMPTY', [], 'e', 1, 'custom').message).toBe('custom');
    expect(issue('ORDER-SYMBOL-REQUIRED', ['symbol'], 'a symbol', undefined).missing).toBe(true);
    expect(issue('ORDER-SYMBOL-REQUIRED', ['symbol'], 'a symbol', 'missing').missing).toBe(false);
  });
});

describe('assertNoIssues', () => {
  it('does nothing for no issues', () => {
    expect(assertNoIssues([])).toBeUndefined();
  });

  it('throws ERR_VALIDATION listing every rule ID, with the issues as data', () => {
    const issues = [
      issue('ORDER-SIDE-ENUM', ['side'], 'BUY or SELL', 'x'),
      issue('ORDER-TYPE-ENUM', ['type'], 'a type', 'y'),
    ];
    let caught: unknown;
    try {
      assertNoIssues(issues, 'order');
    } catch (err) {
      caught = err;
    }
    expect(isSpotcheckError(caught, 'ERR_VALIDATION')).toBe(true);
    if (isSpotcheckError(caught)) {
      expect(caught.message).toMatch(/^order is invalid: ORDER-SIDE-ENUM: .*; ORDER-TYPE-ENUM: /);
      expect(caught.details.issues).toEqual(issues);
    }
  });
});
