import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDecimal } from './decimal.js';

describe('plainDecimal', () => {
  it('writes exponents out', () => {
    expect(plainDecimal(1e-7)).toBe('0.0000001');
    expect(plainDecimal(1.5e-7)).toBe('0.00000015');
    expect(plainDecimal(1.5e21)).toBe('1500000000000000000000');
    expect(plainDecimal(-2.5e-8)).toBe('-0.000000025');
    expect(plainDecimal(0.25)).toBe('0.25');
    expect(plainDecimal(42)).toBe('42');
  });

  it('keeps the value of every finite double and never has an exponent', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const s = plainDecimal(n);
        expect(s).toMatch(/^-?[0-9]+(\.[0-9]+)?$/);
        expect(Number(s)).toBe(n === 0 ? 0 : n);
      }),
    );
  });
});
