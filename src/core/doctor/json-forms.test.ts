import { describe, expect, it } from 'vitest';
import { parseJsonTokens, writeJson } from './json-forms.js';

const SENT = '[{"symbol":"BTC-USDT","price":1.0,"id":"café","n":[1,{}],"e":[]}]';

function form(text: string, f: Parameters<typeof writeJson>[1]): string | undefined {
  const t = parseJsonTokens(text);
  return t === undefined ? undefined : writeJson(t, f);
}

describe('JSON forms a client may have signed (§5.3 item 4)', () => {
  it("writes Python's json.dumps defaults: ', ' and ': ', non-ASCII escaped, numbers as written", () => {
    // json.dumps([{"symbol": "BTC-USDT", "price": 1.0, "id": "café", "n": [1, {}], "e": []}]) in Python 3
    expect(form(SENT, { sortKeys: false, separators: 'python', asciiOnly: true })).toBe(
      '[{"symbol": "BTC-USDT", "price": 1.0, "id": "caf\\u00e9", "n": [1, {}], "e": []}]',
    );
  });

  it('sorts keys at every level, compact', () => {
    expect(
      form('{"b":{"d":1,"c":2},"a":[{"z":0,"y":1}]}', { sortKeys: true, separators: 'compact', asciiOnly: false }),
    ).toBe('{"a":[{"y":1,"z":0}],"b":{"c":2,"d":1}}');
  });

  it('gives the sent text back for the sent form, whitespace aside', () => {
    expect(form(` ${SENT}\n`, { sortKeys: false, separators: 'compact', asciiOnly: false })).toBe(SENT);
  });

  it('is undefined for a body that is not JSON', () => {
    for (const bad of ['', '{', '{"a":}', '[1,]', 'nul', '{"a":1} x', '"\\"'])
      expect(parseJsonTokens(bad)).toBeUndefined();
  });
});
