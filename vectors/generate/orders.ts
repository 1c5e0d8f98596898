/**
 * `vectors/orders.json` (§2.1, §4.1): expectations written here by hand from the seed
 * and spec/decisions.md, never computed by the code under test.
 */
import type { OrderVector, OrderVectorFile } from '../types.js';
import { vectorFile, type Draft } from './common.js';
import { batchOrders, TS } from './fixtures.js';

type Obj = Record<string, unknown>;

const limitV1: Obj = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '0.01',
  price: '43000.5',
  timestamp: TS,
};
const marketV1: Obj = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.25', timestamp: TS };
const makerV1: Obj = {
  symbol: 'BTCUSDT',
  side: 'SELL',
  type: 'LIMIT_MAKER',
  quantity: '1',
  price: '44000',
  timestamp: TS,
};

function without(o: Obj, ...keys: string[]): Obj {
  const c = { ...o };
  for (const k of keys) delete c[k];
  return c;
}

function orderDrafts(): Array<Draft<OrderVector>> {
  const out: Array<Draft<OrderVector>> = [];
  const order = (
    version: 'v1' | 'v1.1',
    comment: string,
    flags: string[],
    input: unknown,
    expectedRuleIds: string[] = [],
  ): void => {
    out.push({
      kind: 'order',
      version,
      comment,
      flags,
      result: expectedRuleIds.length === 0 ? 'valid' : 'invalid',
      input,
      expectedRuleIds,
    });
  };
  const batchCase = (comment: string, flags: string[], input: unknown, expectedRuleIds: string[] = []): void => {
    out.push({
      kind: 'batch',
      comment,
      flags,
      result: expectedRuleIds.length === 0 ? 'valid' : 'invalid',
      input,
      expectedRuleIds,
    });
  };

  // v1 single orders.
  order('v1', 'v1 LIMIT order, decimals as strings', ['V1', 'DecimalsAsStrings'], limitV1);
  order('v1', 'v1 LIMIT order, decimals as JSON numbers', ['V1', 'DecimalsAsNumbers'], {
    ...limitV1,
    quantity: 0.01,
    price: 43000.5,
  });
  order('v1', 'v1 MARKET order with quantity, no price', ['V1'], marketV1);
  order('v1', 'v1 LIMIT_MAKER order', ['V1'], makerV1);
  order('v1', 'v1 LIMIT order with every optional field', ['V1'], {
    ...limitV1,
    newClientOrderId: 'golden-1',
    timeInForce: 'GTC',
    stpMode: 'EXPIRE_MAKER',
    recvWindow: 5000,
  });
  order('v1', 'v1 MARKET order with timeInForce IOC and stpMode EXPIRE_TAKER', ['V1'], {
    ...marketV1,
    timeInForce: 'IOC',
    stpMode: 'EXPIRE_TAKER',
  });
  order('v1', 'timeInForce FOK (accepted by the reference, decision D-TIF-VALUES)', ['V1', 'ReferenceChoice'], {
    ...limitV1,
    timeInForce: 'FOK',
  });
  order('v1', 'LIMIT without price', ['V1', 'MissingField'], without(limitV1, 'price'), ['ORDER-PRICE-REQUIRED-LIMIT']);
  order('v1', 'LIMIT_MAKER without price', ['V1', 'MissingField'], without(makerV1, 'price'), [
    'ORDER-PRICE-REQUIRED-LIMIT',
  ]);
  order('v1', 'v1 LIMIT without quantity', ['V1', 'MissingField'], without(limitV1, 'quantity'), [
    'ORDER-QUANTITY-REQUIRED-V1',
  ]);
  order('v1', 'v1 MARKET without quantity', ['V1', 'MissingField'], without(marketV1, 'quantity'), [
    'ORDER-QUANTITY-REQUIRED-V1',
  ]);
  order(
    'v1',
    'v1 MARKET with amount instead of quantity (no amount field in v1)',
    ['V1', 'MissingField', 'ReferenceChoice'],
    { ...without(marketV1, 'quantity'), amount: '100' },
    ['ORDER-QUANTITY-REQUIRED-V1', 'ORDER-AMOUNT-MARKET-ONLY'],
  );
  order(
    'v1',
    'v1 LIMIT without quantity and without price',
    ['V1', 'MissingField'],
    without(limitV1, 'quantity', 'price'),
    ['ORDER-QUANTITY-REQUIRED-V1', 'ORDER-PRICE-REQUIRED-LIMIT'],
  );
  order('v1', 'symbol missing', ['V1', 'MissingField'], without(limitV1, 'symbol'), ['ORDER-SYMBOL-REQUIRED']);
  order('v1', 'symbol empty', ['V1', 'BadValue'], { ...limitV1, symbol: '' }, ['ORDER-SYMBOL-REQUIRED']);
  order('v1', 'side in lower case', ['V1', 'BadEnum'], { ...limitV1, side: 'buy' }, ['ORDER-SIDE-ENUM']);
  order('v1', 'side missing', ['V1', 'MissingField'], without(limitV1, 'side'), ['ORDER-SIDE-ENUM']);
  order('v1', 'type STOP_LOSS (not a type of §2.1)', ['V1', 'BadEnum'], { ...marketV1, type: 'STOP_LOSS' }, [
    'ORDER-TYPE-ENUM',
  ]);
  order('v1', 'bad side and bad type together', ['V1', 'BadEnum'], { ...marketV1, side: 'HOLD', type: 'market' }, [
    'ORDER-SIDE-ENUM',
    'ORDER-TYPE-ENUM',
  ]);
  order('v1', 'stpMode EXPIRE_BOTH (not in §2.1)', ['V1', 'BadEnum'], { ...limitV1, stpMode: 'EXPIRE_BOTH' }, [
    'ORDER-STP-MODE-ENUM',
  ]);
  order(
    'v1',
    'timeInForce that is no time-in-force at all',
    ['V1', 'BadEnum'],
    { ...limitV1, timeInForce: 'FOREVER' },
    ['ORDER-TIME-IN-FORCE'],
  );
  order('v1', 'timeInForce in lower case', ['V1', 'BadEnum'], { ...limitV1, timeInForce: 'gtc' }, [
    'ORDER-TIME-IN-FORCE',
  ]);
  order('v1', 'decimal string with many fraction digits', ['V1', 'DecimalsAsStrings'], {
    ...limitV1,
    quantity: '0.00000001',
    price: '12345678.12345678',
  });
  order('v1', 'decimal as a JSON number in exponent form (1e-7 is a JSON number)', ['V1', 'DecimalsAsNumbers'], {
    ...limitV1,
    quantity: 1e-7,
  });
  const badDecimals: Array<[string, unknown]> = [
    ['comma as decimal separator', '1,5'],
    ['exponent inside a string', '1e3'],
    ['negative string', '-1'],
    ['leading dot', '.5'],
    ['trailing dot', '1.'],
    ['empty string', ''],
    ['letters', 'abc'],
    ['surrounding spaces', ' 1 '],
    ['boolean', true],
    ['array', [1]],
  ];
  for (const [what, value] of badDecimals) {
    order('v1', `quantity malformed: ${what}`, ['V1', 'MalformedDecimal'], { ...limitV1, quantity: value }, [
      'ORDER-DECIMAL-FORMAT',
    ]);
  }
  order('v1', 'price malformed: hexadecimal string', ['V1', 'MalformedDecimal'], { ...limitV1, price: '0x10' }, [
    'ORDER-DECIMAL-FORMAT',
  ]);
  order(
    'v1',
    'quantity zero (decision D-DECIMALS: positive)',
    ['V1', 'MalformedDecimal', 'ReferenceChoice'],
    { ...limitV1, quantity: 0 },
    ['ORDER-DECIMAL-FORMAT'],
  );
  order('v1', 'price negative number', ['V1', 'MalformedDecimal'], { ...limitV1, price: -43000 }, [
    'ORDER-DECIMAL-FORMAT',
  ]);

  // newClientOrderId lengths (characters are code points).
  order('v1', 'newClientOrderId of 255 ASCII characters', ['V1', 'ClientIdLength', 'Boundary'], {
    ...limitV1,
    newClientOrderId: 'a'.repeat(255),
  });
  order(
    'v1',
    'newClientOrderId of 256 ASCII characters',
    ['V1', 'ClientIdLength', 'Boundary'],
    { ...limitV1, newClientOrderId: 'a'.repeat(256) },
    ['ORDER-CLIENT-ID-LENGTH'],
  );
  order(
    'v1',
    'newClientOrderId of 255 "é" (255 characters, 510 UTF-8 bytes)',
    ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'],
    {
      ...limitV1,
      newClientOrderId: 'é'.repeat(255),
    },
  );
  order(
    'v1',
    'newClientOrderId of 255 emoji outside the BMP (255 characters, 510 UTF-16 code units, 1020 UTF-8 bytes)',
    ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'],
    { ...limitV1, newClientOrderId: '🚀'.repeat(255) },
  );
  order(
    'v1',
    'newClientOrderId of 256 emoji outside the BMP',
    ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'],
    { ...limitV1, newClientOrderId: '🚀'.repeat(256) },
    ['ORDER-CLIENT-ID-LENGTH'],
  );
  order('v1', 'newClientOrderId of 1 character', ['V1', 'ClientIdLength'], { ...limitV1, newClientOrderId: 'x' });
  order(
    'v1',
    'newClientOrderId empty (reference: 1 to 255 characters)',
    ['V1', 'ClientIdLength', 'ReferenceChoice'],
    { ...limitV1, newClientOrderId: '' },
    ['ORDER-CLIENT-ID-LENGTH'],
  );
  order(
    'v1',
    'newClientOrderId as a JSON number instead of a string',
    ['V1', 'ClientIdLength', 'BadValue'],
    { ...limitV1, newClientOrderId: 12345 },
    ['ORDER-CLIENT-ID-LENGTH'],
  );

  // v1.1 single orders.
  const marketV11: Obj = { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', timestamp: TS };
  order('v1.1', 'v1.1 MARKET with quantity only', ['V11'], { ...marketV11, quantity: '0.5' });
  order(
    'v1.1',
    'v1.1 MARKET with amount only (reference: either suffices, decision D-V11-MARKET-SIZE)',
    ['V11', 'ReferenceChoice'],
    { ...marketV11, amount: '250.75' },
  );
  order('v1.1', 'v1.1 MARKET with quantity and amount', ['V11'], { ...marketV11, quantity: '0.5', amount: '250.75' });
  order('v1.1', 'v1.1 MARKET with amount as a JSON number', ['V11', 'DecimalsAsNumbers'], {
    ...marketV11,
    amount: 250.75,
  });
  order('v1.1', 'v1.1 MARKET with neither quantity nor amount', ['V11', 'MissingField'], marketV11, [
    'ORDER-MARKET-SIZE-V11',
  ]);
  order('v1.1', 'v1.1 LIMIT with quantity and price', ['V11', 'DecimalsAsStrings'], { ...limitV1 });
  order('v1.1', 'v1.1 LIMIT without price', ['V11', 'MissingField'], without(limitV1, 'price'), [
    'ORDER-PRICE-REQUIRED-LIMIT',
  ]);
  order('v1.1', 'v1.1 LIMIT_MAKER without price', ['V11', 'MissingField'], without(makerV1, 'price'), [
    'ORDER-PRICE-REQUIRED-LIMIT',
  ]);
  order(
    'v1.1',
    'v1.1 LIMIT without quantity (reference requires it, decision D-V11-LIMIT-QUANTITY)',
    ['V11', 'MissingField', 'ReferenceChoice'],
    without(limitV1, 'quantity'),
    ['ORDER-QUANTITY-V11'],
  );
  order(
    'v1.1',
    'v1.1 LIMIT_MAKER without price and quantity',
    ['V11', 'MissingField', 'ReferenceChoice'],
    without(makerV1, 'price', 'quantity'),
    ['ORDER-QUANTITY-V11', 'ORDER-PRICE-REQUIRED-LIMIT'],
  );
  order(
    'v1.1',
    'v1.1 LIMIT with amount (amount is for market orders only, decision D-AMOUNT-ELSEWHERE)',
    ['V11', 'ReferenceChoice'],
    { ...limitV1, amount: '10' },
    ['ORDER-AMOUNT-MARKET-ONLY'],
  );
  order(
    'v1.1',
    'v1.1 MARKET with a malformed amount',
    ['V11', 'MalformedDecimal'],
    { ...marketV11, amount: '12.5.1' },
    ['ORDER-DECIMAL-FORMAT'],
  );
  order(
    'v1.1',
    'v1.1 MARKET with bad side, bad stpMode',
    ['V11', 'BadEnum'],
    { ...marketV11, quantity: '1', side: 'SHORT', stpMode: 'NONE' },
    ['ORDER-SIDE-ENUM', 'ORDER-STP-MODE-ENUM'],
  );
  order(
    'v1.1',
    'v1.1 order with a 256-character client id of mixed scripts',
    ['V11', 'ClientIdLength', 'Boundary', 'NonAscii'],
    {
      ...marketV11,
      quantity: '1',
      newClientOrderId: `${'ab'.repeat(100)}${'ü'.repeat(28)}${'😀'.repeat(28)}`,
    },
    ['ORDER-CLIENT-ID-LENGTH'],
  );

  // Batches (v1 rules per order).
  const strings = batchOrders(20, 'string');
  const numbers = batchOrders(20, 'number');
  batchCase(
    'empty array (reference rejects it, decision D-EMPTY-BATCH)',
    ['Batch', 'BatchSize', 'ReferenceChoice'],
    [],
    ['BATCH-EMPTY'],
  );
  batchCase('batch of 1 order', ['Batch', 'BatchSize'], strings.slice(0, 1));
  batchCase(
    'batch of 20 orders, decimals as strings',
    ['Batch', 'BatchSize', 'Boundary', 'DecimalsAsStrings'],
    strings,
  );
  batchCase(
    'batch of 20 orders, decimals as numbers',
    ['Batch', 'BatchSize', 'Boundary', 'DecimalsAsNumbers'],
    numbers,
  );
  batchCase(
    'batch of 21 orders',
    ['Batch', 'BatchSize', 'Boundary'],
    [...strings, { ...strings[0], newClientOrderId: 'golden-batch-21' }],
    ['BATCH-MAX-ORDERS'],
  );
  batchCase(
    'batch mixing string and number decimals',
    ['Batch', 'DecimalsAsStrings', 'DecimalsAsNumbers'],
    [...strings.slice(0, 3), ...numbers.slice(3, 6)],
  );
  batchCase(
    'batch with two symbols',
    ['Batch', 'MixedSymbols'],
    [strings[0], { ...strings[1], symbol: 'ETHUSDT' }],
    ['BATCH-SINGLE-SYMBOL'],
  );
  batchCase(
    'batch of 21 orders with two symbols',
    ['Batch', 'BatchSize', 'MixedSymbols'],
    [...strings, { ...strings[0], symbol: 'ETHUSDT', newClientOrderId: 'golden-batch-21' }],
    ['BATCH-MAX-ORDERS', 'BATCH-SINGLE-SYMBOL'],
  );
  batchCase(
    'batch of 5 with one LIMIT order lacking price',
    ['Batch', 'BadOrderInBatch', 'MissingField'],
    strings.slice(0, 5).map((o, i) => (i === 3 ? without(o as unknown as Obj, 'price') : o)),
    ['ORDER-PRICE-REQUIRED-LIMIT'],
  );
  batchCase(
    'batch of 3 with one order lacking quantity (v1 rules in a batch)',
    ['Batch', 'BadOrderInBatch', 'MissingField'],
    strings.slice(0, 3).map((o, i) => (i === 1 ? without(o as unknown as Obj, 'quantity') : o)),
    ['ORDER-QUANTITY-REQUIRED-V1'],
  );
  batchCase(
    'batch whose orders have different faults',
    ['Batch', 'BadOrderInBatch', 'BadEnum', 'MalformedDecimal'],
    strings.slice(0, 3).map((o, i) => (i === 0 ? { ...o, side: 'buy' } : i === 2 ? { ...o, price: 'x' } : o)),
    ['ORDER-SIDE-ENUM', 'ORDER-DECIMAL-FORMAT'],
  );
  batchCase(
    'batch with an element that is not an object',
    ['Batch', 'BadOrderInBatch'],
    [strings[0], 'order'],
    ['BATCH-PER-ORDER-RULES'],
  );
  batchCase(
    'batch order without symbol (the others agree)',
    ['Batch', 'BadOrderInBatch', 'MissingField'],
    [strings[0], without(strings[1] as unknown as Obj, 'symbol')],
    ['ORDER-SYMBOL-REQUIRED'],
  );
  batchCase(
    'batch of MARKET orders (no price needed)',
    ['Batch'],
    [
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' },
      { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 0.2, timeInForce: 'IOC' },
    ],
  );
  batchCase(
    'batch order with a non-ASCII client id of 255 characters',
    ['Batch', 'ClientIdLength', 'Boundary', 'NonAscii'],
    [{ ...strings[0], newClientOrderId: '注'.repeat(255) }],
  );
  batchCase('body is a JSON object, not an array', ['Batch', 'NotArray'], strings[0], ['BATCH-JSON-BODY']);
  batchCase('body is a JSON object wrapping the orders', ['Batch', 'NotArray'], { orders: strings.slice(0, 2) }, [
    'BATCH-JSON-BODY',
  ]);
  batchCase('body is JSON null', ['Batch', 'NotArray'], null, ['BATCH-JSON-BODY']);
  batchCase('body is a JSON string', ['Batch', 'NotArray'], '[]', ['BATCH-JSON-BODY']);
  return out;
}

const ORDERS_HEADER = [
  'Golden vectors for order validation (seed §2.1, v1 and v1.1 parameter sets) and batch validation (§4.1: a JSON array of 1 to 20 orders, one symbol, v1 rules per order).',
  'kind "order": input is the parameter object of /api/v1/spot/order (version v1) or /api/v1.1/spot/order (version v1.1), with JSON values as a client sends them.',
  'kind "batch": input is the parsed JSON body of POST /api/v1/spot/batchOrders (time parameters travel in the query and are not part of it).',
  'expectedRuleIds is the exact set of rule IDs of spec/rules.json a validator reports (each ID once, whatever the number of orders it applies to); empty for a valid input.',
  'Characters of newClientOrderId are counted as Unicode code points.',
  'Vectors flagged ReferenceChoice follow the reference choices of spec/decisions.md where the seed is open; the core conformance profile never fails a server on them.',
  'Generated by vectors/generate/orders.ts; checked against vectors/schema/orders.schema.json by vectors/load.ts.',
];

const ORDERS_NOTES: Record<string, string> = {
  V1: 'The v1 parameter set (/api/v1/spot/order): quantity required, no amount field.',
  V11: 'The v1.1 parameter set (/api/v1.1/spot/order): quantity or amount for MARKET orders.',
  Batch: 'The body of the batch endpoint (§4.1).',
  BatchSize: 'Tests the number of orders in a batch (at most 20).',
  MixedSymbols: 'The batch holds orders for more than one symbol (§4.1 rule 2).',
  BadOrderInBatch: 'One or more orders of the batch break a per-order rule (§4.1 rule 3).',
  NotArray: 'The batch body is not a JSON array.',
  MissingField: 'A required or conditionally required field is missing.',
  BadEnum: 'An ENUM field has a value outside its list (values are case-sensitive).',
  BadValue: 'A field has a value of the wrong type or an empty value.',
  MalformedDecimal:
    'A DECIMAL field is neither a positive JSON number nor a decimal string (digits, optional fraction).',
  DecimalsAsStrings: 'DECIMAL values are JSON strings.',
  DecimalsAsNumbers: 'DECIMAL values are JSON numbers.',
  ClientIdLength: 'Tests the length limit of newClientOrderId (up to 255 characters).',
  Boundary: 'The case sits on, or one past, a limit.',
  NonAscii: 'The input contains non-ASCII characters; lengths count code points, not bytes or UTF-16 units.',
  ReferenceChoice: 'The expectation follows a reference choice of spec/decisions.md for a point the seed leaves open.',
};

/** The content of `vectors/orders.json`. */
export function build(): OrderVectorFile {
  return vectorFile<OrderVector>('orders', ORDERS_HEADER, ORDERS_NOTES, orderDrafts());
}
