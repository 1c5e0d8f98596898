import { describe, expect, it } from 'vitest';
import { sameDecimalValue } from './decimal.js';
import { longValue, sameLong, sameSymbol } from './meaning.js';

describe('values compared by their seed meaning (design notes, "Values by their seed meaning")', () => {
  const cases: Array<[string, (a: unknown, b: unknown) => boolean, unknown, unknown, boolean]> = [
    ['DECIMAL: trailing zero dropped', sameDecimalValue, '1.5', '1.50', true],
    ['DECIMAL: padded to 8 places', sameDecimalValue, '1.00000000', '1', true],
    ['DECIMAL: JSON number echo of a string', sameDecimalValue, 1.5, '1.500', true],
    ['DECIMAL: past 2^64 kept exactly', sameDecimalValue, '18446744073709551621', '18446744073709551621.0', true],
    ['DECIMAL: past 2^64 rounded by a double', sameDecimalValue, '18446744073709552000', '18446744073709551621', false],
    ['DECIMAL: another value', sameDecimalValue, '1.05', '1.5', false],
    ['symbol: upper-cased echo is the same pair', sameSymbol, 'BTCUSDT', 'btcusdt', true],
    ['symbol: another pair', sameSymbol, 'ETHUSDT', 'BTCUSDT', false],
    ['symbol: not a string', sameSymbol, 1, 'BTCUSDT', false],
    ['LONG: digit string and integer', sameLong, '42', 42, true],
    ['LONG: leading zeros', sameLong, '0042', '42', true],
    ['LONG: 64-bit wrap is another value', sameLong, '5', '18446744073709551621', false],
    ['LONG: a fraction is no LONG', sameLong, '42.0', '42', false],
  ];
  for (const [name, same, a, b, want] of cases) it(name, () => expect(same(a, b)).toBe(want));
});

describe('a LONG by its integer value', () => {
  it('reads digit strings and safe JSON integers, nothing else', () => {
    expect(longValue('0042')).toBe(42n);
    expect(longValue(42)).toBe(42n);
    expect(longValue('18446744073709551621')).toBe(18446744073709551621n);
    for (const v of [1.5, 2 ** 60, '4e2', ' 42', '', null]) expect(longValue(v), String(v)).toBeUndefined();
  });
});
