import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  charLength,
  isOneOf,
  MAX_CLIENT_ORDER_ID,
  parseDecimal,
  parseLong,
  SIDES,
  TIME_IN_FORCE_VALUES,
} from './fields.js';

describe('parseDecimal (§2.1 DECIMAL, decision D-DECIMALS)', () => {
  it('reads finite JSON numbers and decimal strings', () => {
    expect(parseDecimal(0.1)).toBe(0.1);
    expect(parseDecimal(1e-7)).toBe(1e-7);
    expect(parseDecimal('43000.50')).toBe(43000.5);
    expect(parseDecimal('007')).toBe(7);
  });

  it('refuses everything else', () => {
    for (const v of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      '1,5',
      '1e3',
      '-1',
      '.5',
      '1.',
      ' 1',
      '0x10',
      'abc',
      null,
      undefined,
      true,
      [1],
      { v: 1 },
    ]) {
      expect(parseDecimal(v), JSON.stringify(v) ?? String(v)).toBeUndefined();
    }
  });

  it('reads back any digits[.digits] string as its number (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,12}(\.[0-9]{1,8})?$/), (s) => {
        expect(parseDecimal(s)).toBe(Number(s));
      }),
    );
  });
});

describe('parseLong (timestamp, recvWindow)', () => {
  it('reads non-negative safe integers and digit strings', () => {
    expect(parseLong(0)).toBe(0);
    expect(parseLong(1767225600000)).toBe(1767225600000);
    expect(parseLong('1767225600000')).toBe(1767225600000);
    expect(parseLong('0005000')).toBe(5000);
    expect(parseLong('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses fractions, negatives, unsafe and non-digit values', () => {
    for (const v of [
      1.5,
      -1,
      Number.MAX_SAFE_INTEGER + 1,
      '9007199254740992',
      '12345678901234567',
      '-5',
      '1e3',
      '5000 ',
      '',
      null,
      undefined,
      true,
    ]) {
      expect(parseLong(v), String(v)).toBeUndefined();
    }
  });
});

describe('charLength', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    expect(charLength('')).toBe(0);
    expect(charLength('abc')).toBe(3);
    expect(charLength('é')).toBe(1);
    expect(charLength('e\u0301')).toBe(2);
    expect(charLength('🚀')).toBe(1);
    expect(charLength('🚀'.repeat(MAX_CLIENT_ORDER_ID))).toBe(255);
  });

  it('equals the number of code points of any string (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '注', '🚀', '😀'), { maxLength: 300 }), (chars) => {
        expect(charLength(chars.join(''))).toBe(chars.length);
      }),
    );
  });
});

describe('isOneOf', () => {
  it('matches exact, case-sensitive string values only', () => {
    expect(isOneOf(SIDES, 'BUY')).toBe(true);
    expect(isOneOf(SIDES, 'buy')).toBe(false);
    expect(isOneOf(SIDES, undefined)).toBe(false);
    expect(isOneOf(TIME_IN_FORCE_VALUES, 'FOK')).toBe(true);
    expect(isOneOf(TIME_IN_FORCE_VALUES, ['GTC'])).toBe(false);
  });
});
