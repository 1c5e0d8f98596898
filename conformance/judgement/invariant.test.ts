/**
 * The run-wide invariants of an accepted answer (conformance/judgement/invariant.ts): each rule breaks on
 * the answer that breaks it, values compared by their seed meaning, and a field no reading of
 * the request agrees on is never compared.
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import { compareDecimals, judgeAnswer, readJson, type AnsweredExchange } from './invariant.js';

const accepted = (json: unknown, text = JSON.stringify(json)): Observation => ({
  verdict: 'accepted',
  status: 200,
  json,
  text,
});

const single = (query: string, answer: Record<string, unknown>, body = ''): AnsweredExchange => ({
  request: { method: 'POST', path: '/api/v1/spot/order', query, body, headers: {} },
  observation: accepted({ code: 0, ...answer }),
  route: { endpoint: 'v1', placement: 'query' },
});

const batch = (body: string, result: unknown[]): AnsweredExchange => ({
  request: { method: 'POST', path: '/api/v1/spot/batchOrders', query: 'timestamp=1', body, headers: {} },
  observation: accepted({ code: 0, result }),
  route: { endpoint: 'batch', placement: 'json' },
});

const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1.50&price=0.1&newClientOrderId=Ab%20c&timestamp=1';
const ECHO = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  origQty: '1.5',
  price: '0.10',
  clientOrderId: 'Ab c',
  executedQty: '0',
};
const rules = (x: AnsweredExchange) => judgeAnswer(x).violations.map((v) => v.ruleId);

describe('the invariants of one accepted answer', () => {
  it('a faithful echo keeps them all: decimals by value, the symbol in any case, the id exactly', () => {
    const j = judgeAnswer(single(ORDER, { ...ECHO, symbol: 'btcusdt' }));
    expect(j.violations).toEqual([]);
    expect([...j.checked].sort()).toEqual(['RESULT-CLIENT-ORDER-ID-ECHO', 'RESULT-EXECUTED-QTY', 'RESULT-ORDER-ECHO']);
  });

  it('each echoed field breaks RESULT-ORDER-ECHO when it is another value', () => {
    for (const bad of [
      { side: 'SELL' },
      { type: 'MARKET' },
      { symbol: 'ETHUSDT' },
      { origQty: '1.51' },
      { price: '0.11' },
      { origQty: 1.49 },
    ])
      expect(rules(single(ORDER, { ...ECHO, ...bad })), JSON.stringify(bad)).toEqual(['RESULT-ORDER-ECHO']);
  });

  it('a client id echoed in another letter case breaks RESULT-CLIENT-ORDER-ID-ECHO; executedQty past origQty or below 0 breaks RESULT-EXECUTED-QTY', () => {
    expect(rules(single(ORDER, { ...ECHO, clientOrderId: 'ab c' }))).toEqual(['RESULT-CLIENT-ORDER-ID-ECHO']);
    expect(rules(single(ORDER, { ...ECHO, executedQty: '1.5000001' }))).toEqual(['RESULT-EXECUTED-QTY']);
    // bounded by the quantity ordered: an origQty echoed short is RESULT-ORDER-ECHO's alone
    expect(rules(single(ORDER, { ...ECHO, origQty: '1.4', executedQty: '1.5' }))).toEqual(['RESULT-ORDER-ECHO']);
    expect(rules(single(ORDER.replace('&quantity=1.50', ''), { ...ECHO, origQty: '2', executedQty: '2.5' }))).toEqual([
      'RESULT-EXECUTED-QTY',
    ]);
    expect(rules(single(ORDER, { ...ECHO, executedQty: '-0' }))).toEqual([]);
    expect(rules(single(ORDER, { ...ECHO, executedQty: '-0.1' }))).toEqual(['RESULT-EXECUTED-QTY']);
    expect(rules(single(ORDER, { ...ECHO, executedQty: 'all' }))).toEqual(['RESULT-EXECUTED-QTY']);
  });

  it('a batch answered with another count of entries breaks RESULT-ONE-PER-ORDER, entries out of order RESULT-ORDER-MATCH', () => {
    const el = (id: string) => ({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '2',
      newClientOrderId: id,
    });
    const entry = (id: string) => ({
      code: 0,
      msg: 'OK',
      order: { ...el(id), clientOrderId: id, origQty: '1', price: '2' },
    });
    const body = JSON.stringify([el('A'), el('B')]);
    expect(rules(batch(body, [entry('A'), entry('B')]))).toEqual([]);
    expect(rules(batch(body, [entry('A')]))).toEqual(['RESULT-ONE-PER-ORDER']);
    expect(rules(batch(body, [entry('B'), entry('A')]))).toEqual(['RESULT-ORDER-MATCH', 'RESULT-ORDER-MATCH']);
    expect(rules(batch(body, [entry('A'), entry('b')]))).toEqual(['RESULT-CLIENT-ORDER-ID-ECHO']);
    // a failed entry is no placed order: nothing of it is compared
    expect(rules(batch(body, [entry('A'), { code: -1, msg: 'no', order: { side: 'SELL' } }]))).toEqual([]);
  });

  it('a decimal sent as text is compared by its digits; one sent as a JSON number may echo the double nearest it, never a wrapped value', () => {
    const order = (q: string) => `[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","price":"1","quantity":${q}}]`;
    const echo = (origQty: string) => [{ code: 0, msg: 'OK', order: { origQty } }];
    expect(rules(batch(order('"9007199254740993"'), echo('9007199254740993')))).toEqual([]);
    expect(rules(batch(order('"9007199254740993"'), echo('9007199254740992')))).toEqual(['RESULT-ORDER-ECHO']);
    expect(rules(batch(order('9007199254740993'), echo('9007199254740993')))).toEqual([]);
    expect(rules(batch(order('9007199254740993'), echo('9007199254740992')))).toEqual([]);
    expect(rules(batch(order('18446744073709551617'), echo('1')))).toEqual(['RESULT-ORDER-ECHO']);
  });

  it('a required field under a name spelt otherwise is read as that field: the only reading accepting the order', () => {
    for (const q of [ORDER.replace('side=BUY', '%73ide=BUY'), ORDER.replace('side=BUY', 'SIDE=BUY')]) {
      expect(rules(single(q, ECHO)), q).toEqual([]);
      expect(rules(single(q, { ...ECHO, side: 'SELL' })), q).toEqual(['RESULT-ORDER-ECHO']);
    }
  });

  it('compares no field the readings of the request disagree on: a name sent twice, an optional one spelt otherwise, or a value of another JSON type', () => {
    const wrong = { ...ECHO, side: 'SELL', clientOrderId: 'x' };
    expect(rules(single(ORDER.replace('side=BUY', 'side=BUY&side=SELL'), { ...ECHO, side: 'SELL' }))).toEqual([]);
    for (const id of ['%6EewClientOrderId', 'NEWCLIENTORDERID'])
      expect(rules(single(ORDER.replace('newClientOrderId', id), { ...ECHO, clientOrderId: 'c123' })), id).toEqual([]);
    // the same name in the query and the body
    expect(rules(single(ORDER, { ...ECHO, side: 'SELL' }, 'side=SELL'))).toEqual([]);
    const dup = '[{"symbol":"BTCUSDT","side":"SELL","side":"BUY","type":"LIMIT","newClientOrderId":7}]';
    expect(rules(batch(dup, [{ code: 0, msg: 'OK', order: wrong }]))).toEqual([]);
    const folded = '[{"symbol":"BTCUSDT","ſide":"SELL","side":"BUY","type":"LIMIT"}]';
    expect(rules(batch(folded, [{ code: 0, msg: 'OK', order: wrong }]))).toEqual([]);
    // a value no reading takes is its own rule's to judge
    expect(rules(single(ORDER.replace('side=BUY', 'side=HOLD'), { ...ECHO, side: 'BUY' }))).toEqual([]);
  });

  it('judges only accepted POST answers on an order route', () => {
    const refused = { ...single(ORDER, { ...ECHO, side: 'SELL' }), observation: { verdict: 'rejected', status: 400 } };
    expect(judgeAnswer(refused as AnsweredExchange).checked.size).toBe(0);
    const put = single(ORDER, { ...ECHO, side: 'SELL' });
    expect(judgeAnswer({ ...put, request: { ...put.request, method: 'PUT' } }).checked.size).toBe(0);
  });
});

describe('the readers under the invariants', () => {
  it('reads JSON keeping number text and repeated names, and refuses what is no JSON', () => {
    expect(readJson('[{"a":1.50,"a":2}]')).toEqual({
      kind: 'array',
      items: [
        {
          kind: 'object',
          members: [
            ['a', { kind: 'number', text: '1.50' }],
            ['a', { kind: 'number', text: '2' }],
          ],
        },
      ],
    });
    for (const bad of ['[1] x', '[1,]', "['a']", '{"a":1', '', '[01]']) expect(readJson(bad), bad).toBeUndefined();
  });

  it('compares decimals exactly, in any notation', () => {
    expect(compareDecimals('1.50', 1.5)).toBe(0);
    expect(compareDecimals('1e3', '999.999')).toBe(1);
    expect(compareDecimals('9007199254740992', '9007199254740993')).toBe(-1);
    expect(compareDecimals('x', '1')).toBeUndefined();
  });
});
