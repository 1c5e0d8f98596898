import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, parseJsonLossless } from './json.js';

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 exact, as digit strings', () => {
    const v = parseJsonLossless(
      '{"orderId":1234567890123456789,"b":1234567890123456788,"neg":-9007199254740993}',
    ) as Record<string, unknown>;
    expect(v.orderId).toBe('1234567890123456789');
    expect(v.b).toBe('1234567890123456788');
    expect(v.neg).toBe('-9007199254740993');
    // JSON.parse would read the two distinct ids as one number
    const plain = JSON.parse('[1234567890123456789,1234567890123456788]') as number[];
    expect(plain[0]).toBe(plain[1]);
  });

  it('leaves safe integers, fractions, exponents and number-like text inside strings alone', () => {
    expect(
      parseJsonLossless(
        '[9007199254740991, 1.5, 1e30, 12345678901234567890.5, "12345678901234567890", "a\\"12345678901234567890"]',
      ),
    ).toEqual([9007199254740991, 1.5, 1e30, 12345678901234567890.5, '12345678901234567890', 'a"12345678901234567890']);
  });

  it('agrees with JSON.parse on any JSON value of safe numbers, and throws where it throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const unsafe = /(?<![.\deE+-])-?\d{16,}(?![.\deE])/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
        if (!unsafe) expect(parseJsonLossless(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
    for (const bad of ['', '{', '[1,]', '{"a":1}x', '01', '"unterminated']) {
      expect(() => JSON.parse(bad)).toThrow(SyntaxError);
      expect(() => parseJsonLossless(bad)).toThrow(SyntaxError);
    }
  });
});

describe('jsonNestingDepth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('[]')).toBe(1);
    expect(jsonNestingDepth('[{"a":[1]},{}]')).toBe(3);
    expect(jsonNestingDepth('["[[[[", "\\"{{{"]')).toBe(1);
    expect(jsonNestingDepth(`${'['.repeat(5000)}${']'.repeat(5000)}`, 16)).toBe(17);
  });

  it('agrees with the depth of the parsed value for any JSON value', () => {
    const depthOf = (v: unknown): number =>
      typeof v === 'object' && v !== null
        ? 1 + Math.max(0, ...Object.values(v as Record<string, unknown>).map(depthOf))
        : 0;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonNestingDepth(JSON.stringify(v))).toBe(depthOf(v));
      }),
    );
  });
});
