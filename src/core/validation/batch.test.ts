import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_ORDERS, splitBatchIssues, validateBatch } from './batch.js';

type Order = Record<string, unknown>;

const decimal = fc.oneof(
  fc.double({ min: 1e-6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.stringMatching(/^[1-9][0-9]{0,5}(\.[0-9]{1,6})?$/),
);

/** A valid batch element (§4.1: v1 per-order rules) for `symbol`. */
const element = (symbol: string): fc.Arbitrary<Order> =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom('BUY', 'SELL'), fc.constantFrom('LIMIT', 'LIMIT_MAKER'), decimal, decimal)
      .map(([side, type, quantity, price]) => ({ symbol, side, type, quantity, price })),
    fc
      .tuple(fc.constantFrom('BUY', 'SELL'), decimal)
      .map(([side, quantity]) => ({ symbol, side, type: 'MARKET', quantity })),
  );

const batchOf = (min: number, max: number, symbol = 'BTCUSDT'): fc.Arbitrary<Order[]> =>
  fc.array(element(symbol), { minLength: min, maxLength: max });
const ids = (body: unknown): string[] => [...new Set(validateBatch(body).map((i) => i.ruleId))].sort();

describe('validateBatch: properties (§4.1)', () => {
  it('finds no issue in any batch of 1 to 20 valid orders for one symbol', () => {
    fc.assert(
      fc.property(batchOf(1, MAX_BATCH_ORDERS), (b) => {
        expect(validateBatch(b)).toEqual([]);
      }),
    );
  });

  it('more than 20 valid orders give exactly one BATCH-MAX-ORDERS, on the whole batch', () => {
    fc.assert(
      fc.property(batchOf(MAX_BATCH_ORDERS + 1, 45), (b) => {
        const issues = validateBatch(b);
        expect(issues.map((i) => [i.ruleId, i.path])).toEqual([['BATCH-MAX-ORDERS', []]]);
      }),
    );
  });

  it('two symbols give exactly one BATCH-SINGLE-SYMBOL, wherever the odd order sits', () => {
    fc.assert(
      fc.property(batchOf(1, 19), element('ETHUSDT'), fc.nat(), (b, odd, at) => {
        const i = at % (b.length + 1);
        const mixed = [...b.slice(0, i), odd, ...b.slice(i)];
        expect(validateBatch(mixed).map((x) => x.ruleId)).toEqual(['BATCH-SINGLE-SYMBOL']);
      }),
    );
  });

  it('a LIMIT order without price anywhere in a batch gives ORDER-PRICE-REQUIRED-LIMIT at that index', () => {
    fc.assert(
      fc.property(batchOf(1, 20), fc.nat(), (b, at) => {
        const i = at % b.length;
        const broken = b.map((o, j) =>
          j === i ? { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' } : o,
        );
        const issues = validateBatch(broken);
        expect(issues.map((x) => [x.ruleId, x.path])).toEqual([['ORDER-PRICE-REQUIRED-LIMIT', [i, 'price']]]);
        const { whole, byOrder } = splitBatchIssues(issues);
        expect(whole).toEqual([]);
        expect([...byOrder.keys()]).toEqual([i]);
      }),
    );
  });
});

describe('validateBatch: examples', () => {
  const o = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' };

  it('an empty array is BATCH-EMPTY (decision D-EMPTY-BATCH)', () => {
    expect(ids([])).toEqual(['BATCH-EMPTY']);
  });

  it('a body that is not an array is BATCH-JSON-BODY and nothing else, naming what it was', () => {
    for (const [body, what] of [
      [null, 'null'],
      [o, 'object'],
      ['[]', 'string'],
      [3, 'number'],
      [undefined, 'undefined'],
    ] as const) {
      const issues = validateBatch(body);
      expect(issues.map((i) => i.ruleId)).toEqual(['BATCH-JSON-BODY']);
      expect(issues[0]?.received).toBe(JSON.stringify(what));
    }
  });

  it('applies v1 rules to each order: no amount, quantity required', () => {
    expect(ids([{ ...o, amount: '5' }])).toEqual(['ORDER-AMOUNT-MARKET-ONLY']);
    expect(ids([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '5' }])).toEqual([
      'ORDER-AMOUNT-MARKET-ONLY',
      'ORDER-QUANTITY-REQUIRED-V1',
    ]);
  });

  it('reports batch-level and order-level issues together, and splitBatchIssues separates them', () => {
    const body = [...Array.from({ length: 21 }, () => o), { ...o, symbol: 'ETHUSDT', side: 'HOLD' }, 'not an order'];
    const issues = validateBatch(body);
    expect([...new Set(issues.map((i) => i.ruleId))].sort()).toEqual([
      'BATCH-MAX-ORDERS',
      'BATCH-PER-ORDER-RULES',
      'BATCH-SINGLE-SYMBOL',
      'ORDER-SIDE-ENUM',
    ]);
    const { whole, byOrder } = splitBatchIssues(issues);
    expect(whole.map((i) => i.ruleId).sort()).toEqual(['BATCH-MAX-ORDERS', 'BATCH-SINGLE-SYMBOL']);
    expect(byOrder.get(21)?.map((i) => i.ruleId)).toEqual(['ORDER-SIDE-ENUM']);
    expect(byOrder.get(22)?.map((i) => i.ruleId)).toEqual(['BATCH-PER-ORDER-RULES']);
  });
});

describe('validateBatch never throws', () => {
  /** Values JSON.parse can produce that once made validation throw: objects where strings belong, `toString` fields, deep nesting. */
  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.jsonValue().map((v) => ({ toString: v, valueOf: v })),
    fc.integer({ min: 1, max: 3000 }).map((n) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown),
    fc.constantFrom(1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, -0),
  );
  const field = fc.constantFrom(
    'symbol',
    'side',
    'type',
    'quantity',
    'price',
    'newClientOrderId',
    'timeInForce',
    'stpMode',
    'amount',
  );

  it('returns issues as data for any JSON value, alone, as an order, or as a field of an order', () => {
    fc.assert(
      fc.property(hostile, field, (v, name) => {
        for (const body of [v, [v], [v, v], [{ symbol: 'BTCUSDT', [name]: v }, { symbol: v }]]) {
          const issues = validateBatch(body);
          expect(Array.isArray(issues)).toBe(true);
          for (const i of issues) expect(typeof i.message).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('names mixed symbols even when a symbol is an object whose String() throws', () => {
    const issues = validateBatch(JSON.parse('[{"symbol":{"toString":1}},{"symbol":"BTCUSDT"}]') as unknown);
    const mixed = issues.find((i) => i.ruleId === 'BATCH-SINGLE-SYMBOL');
    expect(mixed?.received).toContain('{\\"toString\\":1}');
  });
});
