import { describe, expect, it } from 'vitest';
import { closestKey, credentialKey, lineColumn, looksLikeCredential, parseJsonc, unknownKeyMessage } from './jsonc.js';

describe('JSONC reading', () => {
  it('reads comments, strings that look like comments, and trailing commas', () => {
    const { doc, errors } = parseJsonc('// c\n{"u":"http://x/*y*/", /* c */ "v":"a\\"//b", "w": [1, 2,],}');
    expect(errors).toEqual([]);
    expect(doc.value).toEqual({ u: 'http://x/*y*/', v: 'a"//b', w: [1, 2] });
  });

  it('gives each syntax error its line and column, and an empty file one too', () => {
    expect(parseJsonc('{\n  "a": 1\n  "b": 2\n}').errors).toEqual(['3:3: a comma expected']);
    expect(parseJsonc('{\n  "a": tru\n}').errors[0]).toMatch(/^2:8: /);
    expect(parseJsonc('  // nothing\n').errors).toEqual(['2:1: a value expected']);
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it('a file cut short is said once, with the closing brackets it lacks; a problem met twice at one place is said once', () => {
    const whole =
      '{\n  "endpoints": {\n    "v1": { "placements": ["query", "body"] },\n    "batch": { "offered": true }\n  }\n}\n';
    expect(parseJsonc(whole).errors).toEqual([]);
    for (let cut = 2; cut < whole.trimEnd().length; cut++) {
      const text = whole.slice(0, cut);
      const { errors } = parseJsonc(text);
      expect(errors, JSON.stringify(text)).toHaveLength(1);
      expect(new Set(errors).size).toBe(errors.length);
    }
    // cut after the second key's object opened: two objects and one array left open
    const text = whole.slice(0, whole.indexOf('"body"'));
    const { line, column } = lineColumn(text, text.length);
    expect(parseJsonc(text).errors).toEqual([
      `${line}:${column}: the file ends before its JSON value does (3 closing } and 1 closing ] missing): is it cut short?`,
    ]);
  });

  it('locates a JSON Pointer and a key in the text', () => {
    const { doc } = parseJsonc('{\n  "order": {\n    "price": "1",\n    "prcie": 2\n  }\n}');
    expect(doc.where('/order/price')).toBe('3:14');
    expect(doc.where('/order', 'prcie')).toBe('4:5');
    expect(doc.where('')).toBe('1:1');
  });

  it('suggests the closest known key for a typo, none for an unrelated word', () => {
    expect(closestKey('paht', ['path', 'offered', 'placements'])).toBe('path');
    expect(closestKey('apikeyheader', ['apiKeyHeader', 'baseUrl'])).toBe('apiKeyHeader');
    expect(closestKey('colour', ['path', 'offered'])).toBeUndefined();
    expect(unknownKeyMessage('offerd', ['path', 'offered'])).toBe('unknown key "offerd": did you mean "offered"?');
    expect(unknownKeyMessage('zzz', ['a', 'b'])).toBe('unknown key "zzz" (known: "a", "b")');
  });

  it('tells credential-looking keys from the header name', () => {
    for (const k of [
      'secret',
      'apiKey',
      'api-key',
      'API_KEY',
      'password',
      'passwd',
      'token',
      'accessToken',
      'privateKey',
    ])
      expect(looksLikeCredential(k), k).toBe(true);
    for (const k of ['path', 'baseUrl', 'order', 'symbol']) expect(looksLikeCredential(k), k).toBe(false);
    // a typo of a known key is a typo, not a credential
    expect(credentialKey('apiKeyHeadr', ['apiKeyHeader'])).toBe(false);
    expect(credentialKey('secret', ['secretEnv', 'apiKeyEnv'])).toBe(true);
  });
});
