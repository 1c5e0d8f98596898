import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIDES, STP_MODES, TIME_IN_FORCE_VALUES } from './fields.js';
import { validateOrder, type ApiVersion } from './order.js';

type Order = Record<string, unknown>;

/** A positive DECIMAL as a JSON number or a decimal string (§2.1, D-DECIMALS). */
const decimal: fc.Arbitrary<number | string> = fc.oneof(
  fc.double({ min: 1e-8, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.stringMatching(/^[0-9]{1,9}(\.[0-9]{1,8})?$/).filter((s) => Number(s) > 0),
);

/** A client order id of 1 to 255 characters, some outside the BMP. */
const clientId = fc
  .array(fc.constantFrom('a', 'Z', '9', '-', 'é', '注', '🚀'), { minLength: 1, maxLength: 255 })
  .map((cs) => cs.join(''));

const optional = <T>(key: string, arb: fc.Arbitrary<T>): fc.Arbitrary<Order> =>
  fc.option(arb, { nil: undefined }).map((v) => (v === undefined ? {} : { [key]: v }));

const common = fc
  .tuple(
    fc.stringMatching(/^[A-Z]{2,6}USDT$/),
    fc.constantFrom(...SIDES),
    optional('newClientOrderId', clientId),
    optional('timeInForce', fc.constantFrom(...TIME_IN_FORCE_VALUES)),
    optional('stpMode', fc.constantFrom(...STP_MODES)),
  )
  .map(([symbol, side, a, b, c]): Order => ({ symbol, side, ...a, ...b, ...c, timestamp: 1767225600000 }));

/** Any valid order of the version (§2.1, with the reference choices of spec/decisions.md). */
function validOrder(version: ApiVersion): fc.Arbitrary<Order> {
  const limit = fc
    .tuple(common, fc.constantFrom('LIMIT', 'LIMIT_MAKER'), decimal, decimal)
    .map(([o, type, quantity, price]) => ({ ...o, type, quantity, price }));
  const market =
    version === 'v1'
      ? fc
          .tuple(common, decimal, optional('price', decimal))
          .map(([o, quantity, p]) => ({ ...o, type: 'MARKET', quantity, ...p }))
      : fc
          .tuple(common, optional('quantity', decimal), optional('amount', decimal))
          .filter(([, q, a]) => 'quantity' in q || 'amount' in a)
          .map(([o, q, a]) => ({ ...o, type: 'MARKET', ...q, ...a }));
  return fc.oneof(limit, market);
}

const validLimit = (version: ApiVersion): fc.Arbitrary<Order> => validOrder(version).filter((o) => o.type !== 'MARKET');
const versions = fc.constantFrom<ApiVersion>('v1', 'v1.1');
const ruleIds = (o: unknown, version: ApiVersion): string[] => validateOrder(o, { version }).map((i) => i.ruleId);

describe('validateOrder: properties (§2.1)', () => {
  it('finds no issue in any valid order, v1 or v1.1', () => {
    fc.assert(
      fc.property(validOrder('v1'), (o) => {
        expect(validateOrder(o, { version: 'v1' })).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(validOrder('v1.1'), (o) => {
        expect(validateOrder(o, { version: 'v1.1' })).toEqual([]);
      }),
    );
  });

  it('a LIMIT or LIMIT_MAKER order without price gives exactly ORDER-PRICE-REQUIRED-LIMIT at .price', () => {
    fc.assert(
      fc.property(
        versions.chain((v) => fc.tuple(fc.constant(v), validLimit(v))),
        ([version, o]) => {
          const { price: _price, ...rest } = o;
          const issues = validateOrder(rest, { version });
          expect(issues.map((i) => i.ruleId)).toEqual(['ORDER-PRICE-REQUIRED-LIMIT']);
          expect(issues[0]?.path).toEqual(['price']);
        },
      ),
    );
  });

  it('any side other than BUY/SELL gives exactly ORDER-SIDE-ENUM', () => {
    fc.assert(
      fc.property(
        versions.chain((v) => fc.tuple(fc.constant(v), validOrder(v))),
        fc.anything(),
        ([version, o], side) => {
          fc.pre(side !== 'BUY' && side !== 'SELL' && side !== undefined);
          expect(ruleIds({ ...o, side }, version)).toEqual(['ORDER-SIDE-ENUM']);
        },
      ),
    );
  });

  it('any stpMode outside the list gives exactly ORDER-STP-MODE-ENUM', () => {
    fc.assert(
      fc.property(validOrder('v1'), fc.string(), (o, stpMode) => {
        fc.pre(stpMode !== 'EXPIRE_TAKER' && stpMode !== 'EXPIRE_MAKER');
        expect(ruleIds({ ...o, stpMode }, 'v1')).toEqual(['ORDER-STP-MODE-ENUM']);
      }),
    );
  });

  it('a malformed quantity gives exactly ORDER-DECIMAL-FORMAT at .quantity', () => {
    const malformed = fc.oneof(
      fc.string().filter((s) => !/^[0-9]+(\.[0-9]+)?$/.test(s)),
      fc.constantFrom(0, -1, -0.5, true, false, null, [1], { n: 1 }, '0', '0.000'),
    );
    fc.assert(
      fc.property(validOrder('v1'), malformed, (o, quantity) => {
        const issues = validateOrder({ ...o, quantity }, { version: 'v1' });
        expect(issues.map((i) => [i.ruleId, i.path])).toEqual([['ORDER-DECIMAL-FORMAT', ['quantity']]]);
      }),
    );
  });

  it('a client id longer than 255 characters gives exactly ORDER-CLIENT-ID-LENGTH, counting code points', () => {
    const long = fc.array(fc.constantFrom('a', 'é', '🚀'), { minLength: 256, maxLength: 400 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        versions.chain((v) => fc.tuple(fc.constant(v), validOrder(v))),
        long,
        ([version, o], id) => {
          expect(ruleIds({ ...o, newClientOrderId: id }, version)).toEqual(['ORDER-CLIENT-ID-LENGTH']);
        },
      ),
    );
  });

  it('prefixes every issue path with opts.path', () => {
    fc.assert(
      fc.property(validLimit('v1'), fc.nat(19), (o, i) => {
        const issues = validateOrder({ ...o, side: 'x', price: 'y' }, { version: 'v1', path: [i] });
        expect(issues.length).toBe(2);
        for (const issue of issues) expect(issue.path[0]).toBe(i);
      }),
    );
  });
});

describe('validateOrder: examples', () => {
  const limit: Order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '2', timestamp: 1 };
  const market: Order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', timestamp: 1 };

  it('v1 requires quantity; v1 knows no amount', () => {
    expect(ruleIds({ ...market }, 'v1')).toEqual(['ORDER-QUANTITY-REQUIRED-V1']);
    expect(ruleIds({ ...market, quantity: '1', amount: '5' }, 'v1')).toEqual(['ORDER-AMOUNT-MARKET-ONLY']);
  });

  it('v1.1 MARKET needs quantity or amount (ORDER-MARKET-SIZE-V11); either alone is enough', () => {
    expect(ruleIds(market, 'v1.1')).toEqual(['ORDER-MARKET-SIZE-V11']);
    expect(ruleIds({ ...market, quantity: '1' }, 'v1.1')).toEqual([]);
    expect(ruleIds({ ...market, amount: 100 }, 'v1.1')).toEqual([]);
  });

  it('v1.1 limit orders need quantity and take no amount (reference choices)', () => {
    const { quantity: _q, ...noQty } = limit;
    expect(ruleIds(noQty, 'v1.1')).toEqual(['ORDER-QUANTITY-V11']);
    expect(ruleIds({ ...limit, amount: '1' }, 'v1.1')).toEqual(['ORDER-AMOUNT-MARKET-ONLY']);
  });

  it('reports a missing symbol, a bad type and a bad timeInForce', () => {
    const { symbol: _s, ...noSymbol } = limit;
    expect(ruleIds(noSymbol, 'v1')).toEqual(['ORDER-SYMBOL-REQUIRED']);
    expect(ruleIds({ ...limit, symbol: 42 }, 'v1')).toEqual(['ORDER-SYMBOL-REQUIRED']);
    expect(ruleIds({ ...limit, type: 'STOP' }, 'v1')).toEqual(['ORDER-TYPE-ENUM']);
    expect(ruleIds({ ...limit, timeInForce: 'GTX' }, 'v1')).toEqual(['ORDER-TIME-IN-FORCE']);
  });

  it('an empty or non-string client id breaks the length rule; 255 emoji do not', () => {
    expect(ruleIds({ ...limit, newClientOrderId: '' }, 'v1')).toEqual(['ORDER-CLIENT-ID-LENGTH']);
    expect(ruleIds({ ...limit, newClientOrderId: 7 }, 'v1')).toEqual(['ORDER-CLIENT-ID-LENGTH']);
    expect(ruleIds({ ...limit, newClientOrderId: '🚀'.repeat(255) }, 'v1')).toEqual([]);
    const issue = validateOrder({ ...limit, newClientOrderId: '🚀'.repeat(256) }, { version: 'v1' })[0];
    expect(issue?.received).toBe('"256 characters"');
  });

  it('an input that is not an object gets one issue and nothing else', () => {
    for (const input of [null, 'order', 3, [limit]]) {
      expect(ruleIds(input, 'v1')).toEqual(['BATCH-PER-ORDER-RULES']);
    }
  });

  it('ignores unknown fields (decision D-UNKNOWN-FIELDS)', () => {
    expect(ruleIds({ ...limit, icebergQty: 'x', foo: { bar: 1 } }, 'v1')).toEqual([]);
  });
});
