import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeParams, type Params } from '../core/signing/build.js';
import { signJsonBody, signParams } from './build.js';
import { sign, verify } from './hmac.js';
import { signatureValues } from '../core/signing/query.js';
import { signingSteps } from '../core/signing/total-params.js';

const SECRET = 'unit-test-secret';
const PARAMS: Params = [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '1'],
  ['price', '0.1'],
  ['timestamp', '1499827319559'],
];
const ALL = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.1&timestamp=1499827319559';

/** A receiver's view: the steps recomputed from the request as sent, and the signature it carries. */
function received(r: { query: string; body: string; contentType?: string }) {
  const kind = r.body === '' ? 'none' : r.contentType === 'application/json' ? 'json' : 'form';
  const steps = signingSteps(r.query, r.body, kind);
  const carried = [...signatureValues(r.query), ...(kind === 'form' ? signatureValues(r.body) : [])];
  return { steps, carried };
}

describe('placeParams', () => {
  it('puts every param in the query, in the body, or splits them', () => {
    expect(placeParams(PARAMS, 'query')).toEqual({ query: ALL, body: '' });
    expect(placeParams(PARAMS, 'body')).toEqual({ query: '', body: ALL });
    expect(placeParams(PARAMS, 'split')).toEqual({
      query: 'symbol=BTCUSDT&side=BUY&type=LIMIT',
      body: 'quantity=1&price=0.1&timestamp=1499827319559',
    });
    expect(placeParams(PARAMS, 'split', 1)).toEqual({
      query: 'symbol=BTCUSDT',
      body: ALL.slice('symbol=BTCUSDT&'.length),
    });
  });

  it('rounds the default split point up', () => {
    expect(placeParams(PARAMS.slice(0, 3), 'split').query).toBe('symbol=BTCUSDT&side=BUY');
  });
});

describe('signParams (§5.3 placements)', () => {
  it('query: every param and the signature in the query, no body', () => {
    const r = signParams({ secret: SECRET, params: PARAMS, placement: 'query' });
    const sig = sign(SECRET, ALL);
    expect(r.query).toBe(`${ALL}&signature=${sig}`);
    expect(r.body).toBe('');
    expect(r.contentType).toBeUndefined();
    expect(r.steps).toEqual({ queryWithoutSignature: ALL, body: '', totalParams: ALL, signature: sig });
  });

  it('body: every param and the signature in a form body, empty query', () => {
    const r = signParams({ secret: SECRET, params: PARAMS, placement: 'body' });
    const sig = sign(SECRET, ALL);
    expect(r.query).toBe('');
    expect(r.body).toBe(`${ALL}&signature=${sig}`);
    expect(r.contentType).toBe('application/x-www-form-urlencoded');
    expect(r.steps.totalParams).toBe(ALL);
  });

  it('split: totalParams joins query and body with nothing between; signature in the query by default', () => {
    const r = signParams({ secret: SECRET, params: PARAMS, placement: 'split', splitAt: 2 });
    const q = 'symbol=BTCUSDT&side=BUY';
    const b = 'type=LIMIT&quantity=1&price=0.1&timestamp=1499827319559';
    expect(r.steps.totalParams).toBe(q + b);
    expect(r.query).toBe(`${q}&signature=${sign(SECRET, q + b)}`);
    expect(r.body).toBe(b);
  });

  it('split with signatureIn body: the published layout (signature pair at the end of the body)', () => {
    const r = signParams({ secret: SECRET, params: PARAMS, placement: 'split', splitAt: 3, signatureIn: 'body' });
    expect(r.query).toBe('symbol=BTCUSDT&side=BUY&type=LIMIT');
    expect(r.body).toBe(`quantity=1&price=0.1&timestamp=1499827319559&signature=${r.steps.signature}`);
  });

  it('split at 0 or at the end still signs query + body', () => {
    const none = signParams({ secret: SECRET, params: PARAMS, placement: 'split', splitAt: 0 });
    expect(none.steps.queryWithoutSignature).toBe('');
    expect(none.steps.body).toBe(ALL);
    expect(none.query).toBe(`signature=${none.steps.signature}`);
    const all = signParams({ secret: SECRET, params: PARAMS, placement: 'split', splitAt: PARAMS.length });
    expect(all.steps.body).toBe('');
    expect(all.steps.signature).toBe(sign(SECRET, ALL));
  });

  it('reproduces the published split example A3 (Binance docs, SIGNED endpoint examples)', () => {
    const r = signParams({
      secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
      params: [
        ['symbol', 'LTCBTC'],
        ['side', 'BUY'],
        ['type', 'LIMIT'],
        ['timeInForce', 'GTC'],
        ['quantity', '1'],
        ['price', '0.1'],
        ['recvWindow', '5000'],
        ['timestamp', '1499827319559'],
      ],
      placement: 'split',
      splitAt: 4,
      signatureIn: 'body',
    });
    expect(r.steps.signature).toBe('0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77');
  });

  it('percent-encodes values before signing, and the encoded bytes are what is signed', () => {
    const r = signParams({
      secret: SECRET,
      params: [
        ['newClientOrderId', 'a b+c'],
        ['timestamp', '1'],
      ],
      placement: 'query',
    });
    expect(r.steps.totalParams).toBe('newClientOrderId=a%20b%2Bc&timestamp=1');
  });

  it('a receiver recomputes the same steps and accepts the signature, in every placement (property)', () => {
    const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,9}$/).filter((k) => k !== 'signature');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.string()), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('query', 'body', 'split') as fc.Arbitrary<'query' | 'body' | 'split'>,
        fc.nat(),
        fc.constantFrom(undefined, 'query', 'body') as fc.Arbitrary<'query' | 'body' | undefined>,
        fc.string({ minLength: 1 }),
        (params, placement, at, signatureIn, secret) => {
          const r = signParams({
            secret,
            params,
            placement,
            splitAt: at % (params.length + 1),
            ...(signatureIn === undefined ? {} : { signatureIn }),
          });
          const { steps, carried } = received(r);
          expect(steps.queryWithoutSignature).toBe(r.steps.queryWithoutSignature);
          expect(steps.body).toBe(r.steps.body);
          expect(steps.totalParams).toBe(r.steps.totalParams);
          expect(carried).toEqual([r.steps.signature]);
          expect(verify(secret, steps.totalParams, r.steps.signature)).toBe(true);
        },
      ),
    );
  });
});

describe('signJsonBody (§4.1 batch)', () => {
  const body = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"0.1"}]';

  it('signs the query followed by the raw JSON text; the signature travels in the query', () => {
    const r = signJsonBody(
      SECRET,
      [
        ['timestamp', '1'],
        ['recvWindow', '5000'],
      ],
      body,
    );
    expect(r.steps.totalParams).toBe(`timestamp=1&recvWindow=5000${body}`);
    expect(r.query).toBe(`timestamp=1&recvWindow=5000&signature=${sign(SECRET, r.steps.totalParams)}`);
    expect(r.body).toBe(body);
    expect(r.contentType).toBe('application/json');
  });

  it('covers the body: another body under the same query does not verify', () => {
    const r = signJsonBody(SECRET, [['timestamp', '1']], body);
    const other = body.replace('BUY', 'SELL');
    expect(verify(SECRET, signingSteps(r.query, other, 'json').totalParams, r.steps.signature)).toBe(false);
    expect(verify(SECRET, signingSteps(r.query, r.body, 'json').totalParams, r.steps.signature)).toBe(true);
  });

  it('with no query params the query is the signature pair alone', () => {
    const r = signJsonBody(SECRET, [], body);
    expect(r.query).toBe(`signature=${sign(SECRET, body)}`);
    expect(r.steps.queryWithoutSignature).toBe('');
  });
});
