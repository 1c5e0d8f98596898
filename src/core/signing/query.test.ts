import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpotcheckError } from '../errors.js';
import {
  decodeComponent,
  encodeComponent,
  encodePairs,
  isWellEncoded,
  parsePairs,
  rawPairs,
  SIGNATURE_PARAM,
  signatureValues,
  withoutSignature,
} from './query.js';

const SIG = 'ab'.repeat(32);

describe('withoutSignature (§5.3 item 5)', () => {
  it('removes the pair wherever it sits and leaves the other bytes as sent', () => {
    expect(withoutSignature(`a=1&b=2&signature=${SIG}`)).toBe('a=1&b=2');
    expect(withoutSignature(`signature=${SIG}&a=1&b=2`)).toBe('a=1&b=2');
    expect(withoutSignature(`a=1&signature=${SIG}&b=2`)).toBe('a=1&b=2');
    expect(withoutSignature(`signature=${SIG}`)).toBe('');
  });

  it('returns a string without a signature pair unchanged, byte for byte', () => {
    for (const raw of ['', 'a=1', 'a=1&&b=2', 'a=%7e&b=+x+', 'a=1&', '&a=1', 'x=signature']) {
      expect(withoutSignature(raw)).toBe(raw);
    }
  });

  it('keeps empty segments and escapes of the other pairs when it removes the pair', () => {
    expect(withoutSignature(`a=1&&b=%c3%a9&signature=${SIG}`)).toBe('a=1&&b=%c3%a9');
    expect(withoutSignature(`a=take+profit&signature=${SIG}&b=2&`)).toBe('a=take+profit&b=2&');
  });

  it('removes only pairs named exactly "signature"', () => {
    expect(withoutSignature('signatures=1&Signature=2&xsignature=3&a=signature')).toBe(
      'signatures=1&Signature=2&xsignature=3&a=signature',
    );
    expect(withoutSignature('a=1&signature&b=2')).toBe('a=1&b=2');
    expect(withoutSignature('a=1&signature=&b=2')).toBe('a=1&b=2');
  });

  it('removes every signature pair when there are several', () => {
    expect(withoutSignature(`signature=1&a=1&signature=2`)).toBe('a=1');
  });

  it('is the identity on any query that has no signature pair (property)', () => {
    const name = fc.stringMatching(/^[a-zA-Z]{1,8}$/).filter((n) => n !== SIGNATURE_PARAM);
    const pair = fc.tuple(name, fc.string()).map(([n, v]) => `${n}=${encodeComponent(v)}`);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 8 }), (pairs) => {
        const raw = pairs.join('&');
        expect(withoutSignature(raw)).toBe(raw);
      }),
    );
  });

  it('undoes inserting a signature pair at any position (property)', () => {
    const pair = fc
      .tuple(
        fc.stringMatching(/^[a-z]{1,6}$/).filter((n) => n !== SIGNATURE_PARAM),
        fc.string(),
      )
      .map(([n, v]) => `${n}=${encodeComponent(v)}`);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 8 }), fc.nat(), (pairs, at) => {
        const i = pairs.length === 0 ? 0 : at % (pairs.length + 1);
        const sent = [...pairs.slice(0, i), `signature=${SIG}`, ...pairs.slice(i)].join('&');
        expect(withoutSignature(sent)).toBe(pairs.join('&'));
        expect(signatureValues(sent)).toEqual([SIG]);
      }),
    );
  });
});

describe('signatureValues', () => {
  it('lists every signature value, decoded, in order', () => {
    expect(signatureValues(`a=1&signature=${SIG}`)).toEqual([SIG]);
    expect(signatureValues('signature=AB&b=2&signature=%41')).toEqual(['AB', 'A']);
    expect(signatureValues('a=1&b=2')).toEqual([]);
    expect(signatureValues('')).toEqual([]);
  });
});

describe('rawPairs and parsePairs', () => {
  it('split on "&" and drop empty segments', () => {
    expect(rawPairs('')).toEqual([]);
    expect(rawPairs('a=1&&b=2&')).toEqual(['a=1', 'b=2']);
  });

  it('decode names and values, "+" as space, keep duplicates and order', () => {
    expect(parsePairs('b=2&a=x+y&a=%E2%82%AC&flag')).toEqual([
      ['b', '2'],
      ['a', 'x y'],
      ['a', '€'],
      ['flag', ''],
    ]);
    expect(parsePairs('k=a=b')).toEqual([['k', 'a=b']]);
  });
});

describe('decodeComponent and isWellEncoded', () => {
  it('decode percent-escapes and "+"', () => {
    expect(decodeComponent('a%20b+c')).toBe('a b c');
    expect(decodeComponent('%EF%BC%91')).toBe('１');
  });

  it('leave a malformed escape as it is, and say it is malformed', () => {
    expect(decodeComponent('100%')).toBe('100%');
    expect(decodeComponent('%E0%A4%A')).toBe('%E0%A4%A');
    expect(isWellEncoded('100%')).toBe(false);
    expect(isWellEncoded('%FF')).toBe(false);
    expect(isWellEncoded('a%20b')).toBe(true);
    expect(isWellEncoded('')).toBe(true);
  });
});

describe('encodeComponent and encodePairs', () => {
  it('keep the RFC 3986 unreserved characters and escape everything else', () => {
    expect(encodeComponent('AZaz09-_.~')).toBe('AZaz09-_.~');
    expect(encodeComponent("a b+c/d=e&f!'()*")).toBe('a%20b%2Bc%2Fd%3De%26f%21%27%28%29%2A');
    expect(encodeComponent('été 🚀')).toBe('%C3%A9t%C3%A9%20%F0%9F%9A%80');
  });

  it('round-trip through decodeComponent for any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const e = encodeComponent(s);
        expect(e).toMatch(/^[A-Za-z0-9\-_.~%]*$/);
        expect(decodeComponent(e)).toBe(s);
      }),
    );
  });

  it('refuse a lone surrogate with ERR_INVALID_INPUT instead of a raw URIError', () => {
    expect(() => encodeComponent('a\ud800')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT' }));
    expect(() => encodePairs([['newClientOrderId', '\udfff']])).toThrow(SpotcheckError);
  });

  it('join ordered pairs with "&" in the order given', () => {
    expect(encodePairs([])).toBe('');
    expect(
      encodePairs([
        ['b', '2'],
        ['a', '1 2'],
      ]),
    ).toBe('b=2&a=1%202');
  });

  it('produce what parsePairs reads back (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ minLength: 1 }), fc.string()), { maxLength: 6 }), (pairs) => {
        expect(parsePairs(encodePairs(pairs))).toEqual(pairs);
      }),
    );
  });
});
