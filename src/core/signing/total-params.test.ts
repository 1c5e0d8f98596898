import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedBody, signingSteps, totalParams } from './total-params.js';

const SIG = '0f'.repeat(32);

describe('totalParams (§5.3 item 4)', () => {
  it('is the query immediately followed by the body, nothing inserted', () => {
    expect(totalParams('symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC', 'quantity=1&price=0.1')).toBe(
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTCquantity=1&price=0.1',
    );
    expect(totalParams('a=1', '')).toBe('a=1');
    expect(totalParams('', 'a=1')).toBe('a=1');
    expect(totalParams('', '')).toBe('');
  });

  it('keeps both parts whole for any strings (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (q, b) => {
        const tp = totalParams(q, b);
        expect(tp.length).toBe(q.length + b.length);
        expect(tp.startsWith(q) && tp.endsWith(b)).toBe(true);
      }),
    );
  });
});

describe('signedBody (§5.3 item 5)', () => {
  it('drops the signature pair of a form body', () => {
    expect(signedBody(`quantity=1&signature=${SIG}`, 'form')).toBe('quantity=1');
  });

  it('takes a JSON body raw, even when its text contains "&signature="', () => {
    const json = '[{"newClientOrderId":"a&signature=b"}]';
    expect(signedBody(json, 'json')).toBe(json);
    const pretty = '[\n  {"symbol": "BTCUSDT"}\n]\n';
    expect(signedBody(pretty, 'json')).toBe(pretty);
  });

  it('takes an absent body as it is', () => {
    expect(signedBody('', 'none')).toBe('');
  });
});

describe('signingSteps', () => {
  it('gives each intermediate value for a split request', () => {
    expect(signingSteps('symbol=X&side=BUY', `quantity=1&signature=${SIG}&timestamp=5`, 'form')).toEqual({
      queryWithoutSignature: 'symbol=X&side=BUY',
      body: 'quantity=1&timestamp=5',
      totalParams: 'symbol=X&side=BUYquantity=1&timestamp=5',
    });
  });

  it('gives each intermediate value for a JSON batch request', () => {
    const body = '[{"symbol":"BTCUSDT"}]';
    expect(signingSteps(`timestamp=1&signature=${SIG}&recvWindow=5000`, body, 'json')).toEqual({
      queryWithoutSignature: 'timestamp=1&recvWindow=5000',
      body,
      totalParams: `timestamp=1&recvWindow=5000${body}`,
    });
  });
});
