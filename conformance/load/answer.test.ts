import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerReader, pruneAnswer, readAnswer } from './answer.js';
import { countAnswer, emptyTally, REFERENCE_FINGERPRINTS, type Exchange } from './verdict.js';

const id = fc.oneof(fc.constantFrom('a', 'b', 'ld0-1', 'a"b', 'é', '\\u0041', ''), fc.string({ maxLength: 6 }));
const code = fc.oneof(
  fc.constantFrom(0, -1022, -1130, '0', '-1021', 'x', 1.5, -0, 1e21, null, true),
  fc.integer(),
  fc.jsonValue({ maxDepth: 1 }),
);
const extra = fc.dictionary(
  fc.constantFrom('msg', 'orderId', 'price', 'status', 'c', 'codes', 'Code', 'results', '__proto__', 'clientOrderId '),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);
const withExtra = <T extends object>(a: fc.Arbitrary<T>) => fc.tuple(extra, a).map(([x, v]) => ({ ...x, ...v }));
const order = fc.oneof(
  { weight: 4, arbitrary: withExtra(fc.record({ clientOrderId: fc.oneof(id, code) }, { requiredKeys: [] })) },
  fc.jsonValue({ maxDepth: 2 }),
);
const entry = fc.oneof(
  {
    weight: 6,
    arbitrary: withExtra(fc.record({ code, order, clientOrderId: fc.oneof(id, code) }, { requiredKeys: [] })),
  },
  fc.jsonValue({ maxDepth: 2 }),
);
/** Answers shaped like the API's (batch or single order, accepted or refused) and any JSON at all. */
const answer = fc.oneof(
  {
    weight: 6,
    arbitrary: withExtra(
      fc.record(
        {
          code,
          result: fc.oneof({ weight: 5, arbitrary: fc.array(entry, { maxLength: 5 }) }, fc.jsonValue({ maxDepth: 2 })),
          order,
          clientOrderId: fc.oneof(id, code),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  fc.jsonValue({ maxDepth: 3 }),
);
/** The answer's JSON text as a stranger's server might lay it out: compact, indented, a member repeated. */
const text = fc
  .tuple(answer, fc.constantFrom(0, 2, '\t', ' \r\n'), fc.constantFrom('', '"code":7,', '"result":[],', '"x":1,'))
  .map(([v, indent, dup]) => {
    const s = JSON.stringify(v, null, indent);
    return dup !== '' && s.startsWith('{') && s !== '{}' ? `{${dup}${s.slice(1)}` : s;
  });

const fullParse = (body: string): unknown => {
  try {
    return pruneAnswer(JSON.parse(body));
  } catch {
    return undefined;
  }
};

describe('readAnswer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the full parse reduced to the members the verdict reads, for any JSON text', () => {
    fc.assert(
      fc.property(text, (body) => {
        expect(readAnswer(body)).toStrictEqual(fullParse(body));
      }),
      { numRuns: 1000 },
    );
  });

  it('decides as JSON.parse does on damaged text: one character cut, doubled or replaced anywhere', () => {
    const damage = fc.tuple(text, fc.nat(), fc.constantFrom('cut', 'double', 'replace'), fc.string({ maxLength: 1 }));
    fc.assert(
      fc.property(damage, ([body, n, how, ch]) => {
        const i = n % Math.max(1, body.length);
        const bad =
          how === 'cut'
            ? body.slice(0, i) + body.slice(i + 1)
            : how === 'double'
              ? body.slice(0, i + 1) + body.slice(i)
              : body.slice(0, i) + ch + body.slice(i + 1);
        expect(readAnswer(bad)).toStrictEqual(fullParse(bad));
      }),
      { numRuns: 1500 },
    );
    for (const bad of [
      '',
      ' ',
      '{',
      '{"code":0',
      '{"code":0}x',
      '[1,]',
      '{"a":1,}',
      '01',
      '-',
      '1.',
      '1e',
      '"\u0001"',
      'nul',
    ])
      expect(readAnswer(bad)).toBeUndefined();
  });

  it('gives the verdict the full parse gives: every count of every exchange alike', () => {
    const exchange = fc.tuple(
      text,
      fc.constantFrom(200, 200, 200, 400, 401, 500),
      fc.boolean(),
      fc.array(id, { maxLength: 5 }),
    );
    fc.assert(
      fc.property(exchange, ([body, status, batch, clientIds]) => {
        const x: Exchange = { timestamp: 1, recvWindow: 5000, clientIds, receivedAt: 2, batch, status, body };
        const viaRead = emptyTally();
        const viaParse = emptyTally();
        const a = countAnswer(viaRead, x, readAnswer(body), REFERENCE_FINGERPRINTS);
        const b = countAnswer(viaParse, x, JSON.parse(body), REFERENCE_FINGERPRINTS);
        expect(a).toBe(b);
        expect(viaRead).toStrictEqual(viaParse);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads an ordinary batch answer without JSON.parse, builds none of the members the verdict does not read, and reads the next ones by the shape learnt', () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({
      code: 0,
      msg: 'OK',
      order: { accountId: '1', symbol: 'BTCUSDT', clientOrderId: `ld-${i}`, orderId: `${i}`, price: '42000.00' },
      stpMode: 'EXPIRE_TAKER',
    }));
    const body = JSON.stringify({ code: 0, result: entries });
    const parse = vi.spyOn(JSON, 'parse');
    const v = readAnswer(body) as { code: number; result: Array<Record<string, unknown>> };
    const reader = new AnswerReader();
    for (let n = 0; n < 5; n++) {
      const other = body.replaceAll('"ld-', `"ld${n}-`).replaceAll('"OK"', `"${n}"`);
      expect(reader.read(other)).toStrictEqual(fullParse(other));
    }
    expect(reader.skeletonReads).toBe(3);
    expect(parse).toHaveBeenCalledTimes(5);
    expect(Object.keys(v)).toEqual(['code', 'result']);
    expect(v.result).toHaveLength(20);
    expect(v.result[19]).toStrictEqual(pruneAnswer({ code: 0, order: { clientOrderId: 'ld-19' } }) as object);
    expect(Object.keys(v.result[0]?.order as object)).toEqual(['clientOrderId']);
  });

  it('reads a run of answers of one shape as the full parse does, through the shape it learnt', () => {
    // Answers of one target: the same text with other strings (ids, numbers as text, any
    // character), now and then another number, a renamed member or a damaged text.
    const variant = fc.record({
      strings: fc.array(fc.oneof(id, fc.constantFrom('"', '\\', '\n', '\u0001', 'x"y', '{', ':', ',')), {
        minLength: 1,
        maxLength: 6,
      }),
      every: fc.integer({ min: 1, max: 4 }),
      twist: fc.constantFrom('none', 'none', 'none', 'number', 'rename', 'cut'),
    });
    let learnt = 0;
    fc.assert(
      fc.property(answer, fc.array(variant, { minLength: 2, maxLength: 8 }), (base, variants) => {
        const reader = new AnswerReader();
        for (const v of variants) {
          let n = 0;
          let body = JSON.stringify(base, (_k, x: unknown) =>
            typeof x === 'string' && n++ % v.every === 0 ? v.strings[n % v.strings.length] : x,
          );
          if (v.twist === 'number') body = body.replace(/\d/, '7');
          if (v.twist === 'rename')
            body = body.replace(/"(msg|code|order|clientOrderId)":/, (_m, k: string) =>
              k === 'msg' ? '"code":' : `"${k}x":`,
            );
          if (v.twist === 'cut') body = body.slice(0, -1);
          expect(reader.read(body)).toStrictEqual(fullParse(body));
        }
        learnt += reader.skeletonReads;
      }),
      { numRuns: 500 },
    );
    expect(learnt).toBeGreaterThan(20);
  });

  it('learns no member names: two answers differing in a name leave the next one to the full read', () => {
    const reader = new AnswerReader();
    reader.read('{"code":0,"msg":"a"}');
    reader.read('{"code":0,"mxg":"a"}');
    expect(reader.read('{"code":0,"code":"a"}')).toStrictEqual(pruneAnswer({ code: 'a' }));
    reader.read('{"code":0,"msg":"b"}');
    expect(reader.read('{"code":0,"msg":"c"}')).toStrictEqual(pruneAnswer({ code: 0 }));
    expect(reader.skeletonReads).toBe(0);
    expect(reader.read('{"code":0,"msg":"d"}')).toStrictEqual(pruneAnswer({ code: 0 }));
    expect(reader.read('{"code":0,"code":"d"}')).toStrictEqual(pruneAnswer({ code: 'd' }));
    expect(reader.skeletonReads).toBe(1);
  });

  it('leaves a string with an escape or a control character to the full read, after learning its shape', () => {
    const reader = new AnswerReader();
    reader.read('{"code":0,"clientOrderId":"a1"}');
    reader.read('{"code":0,"clientOrderId":"a2"}');
    expect(reader.read('{"code":0,"clientOrderId":"a3"}')).toStrictEqual(pruneAnswer({ code: 0, clientOrderId: 'a3' }));
    expect(reader.read('{"code":0,"clientOrderId":"\\u0041"}')).toStrictEqual(
      pruneAnswer({ code: 0, clientOrderId: 'A' }),
    );
    expect(reader.read('{"code":0,"clientOrderId":"\\x"}')).toBeUndefined();
    expect(reader.read('{"code":0,"clientOrderId":"\t"}')).toBeUndefined();
    expect(reader.skeletonReads).toBe(1);
  });

  it('falls back to the full parse where it gives up: an escape in a read string, deep nesting', () => {
    expect(readAnswer('{"code":0,"clientOrderId":"a\\"b"}')).toStrictEqual(
      pruneAnswer({ code: 0, clientOrderId: 'a"b' }),
    );
    expect(readAnswer('{"c\\u006fde":-1022}')).toStrictEqual(pruneAnswer({ code: -1022 }));
    const deep = `{"code":0,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(readAnswer(deep)).toStrictEqual(pruneAnswer({ code: 0 }));
  });
});
