import { describe, expect, it } from 'vitest';
import { buildRequest, type RequestSpec } from './request.js';
import { SEED_WIRE, type WireProfile } from './wire.js';

/** A visible stand-in for HMAC: shows which secret signed which string. */
const fake = (secret: string, message: string): string => `H(${secret}:${message})`;
const params: Array<[string, string]> = [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['timestamp', '1'],
];
const order = (over: Partial<RequestSpec> = {}): RequestSpec => ({
  endpoint: 'v1',
  params,
  secret: 's',
  apiKey: 'k',
  ...over,
});

describe('buildRequest: valid requests in every placement (§5.3)', () => {
  it('query: everything and the signature in the query, no body', () => {
    const b = buildRequest(fake, order({ placement: 'query' }));
    expect(b.request).toEqual({
      method: 'POST',
      path: '/api/v1/spot/order',
      query: 'symbol=BTCUSDT&side=BUY&timestamp=1&signature=H(s:symbol=BTCUSDT&side=BUY&timestamp=1)',
      body: '',
      headers: { 'X-SVC-APIKEY': 'k' },
    });
    expect(b.signedString).toBe('symbol=BTCUSDT&side=BUY&timestamp=1');
  });

  it('body: everything and the signature in the form body', () => {
    const b = buildRequest(fake, order({ placement: 'body' }));
    expect(b.request.query).toBe('');
    expect(b.request.body).toBe(
      'symbol=BTCUSDT&side=BUY&timestamp=1&signature=H(s:symbol=BTCUSDT&side=BUY&timestamp=1)',
    );
    expect(b.request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('split: totalParams is the query immediately followed by the body', () => {
    const b = buildRequest(fake, order({ placement: 'split', splitAt: 1 }));
    expect(b.signed.steps).toMatchObject({
      queryWithoutSignature: 'symbol=BTCUSDT',
      body: 'side=BUY&timestamp=1',
      totalParams: 'symbol=BTCUSDTside=BUY&timestamp=1',
    });
    expect(b.request.query).toBe('symbol=BTCUSDT&signature=H(s:symbol=BTCUSDTside=BUY&timestamp=1)');
  });

  it('split at 0: the signature pair still goes to the query (placement decides, not which part is empty); signatureIn moves it', () => {
    const b = buildRequest(fake, order({ placement: 'split', splitAt: 0 }));
    expect(b.request.query).toBe('signature=H(s:symbol=BTCUSDT&side=BUY&timestamp=1)');
    expect(b.request.body).toBe('symbol=BTCUSDT&side=BUY&timestamp=1');
    const inBody = buildRequest(fake, order({ placement: 'split', splitAt: 0, signatureIn: 'body' }));
    expect(inBody.request.query).toBe('');
    expect(inBody.request.body).toBe(
      'symbol=BTCUSDT&side=BUY&timestamp=1&signature=H(s:symbol=BTCUSDT&side=BUY&timestamp=1)',
    );
  });

  it('JSON body (batch, §4.1): time params and signature in the query, the JSON text signed as sent', () => {
    const b = buildRequest(fake, {
      endpoint: 'batch',
      params: [['timestamp', '1']],
      jsonText: '[{"a":1}]',
      secret: 's',
      apiKey: 'k',
    });
    expect(b.request).toMatchObject({
      path: '/api/v1/spot/batchOrders',
      query: 'timestamp=1&signature=H(s:timestamp=1[{"a":1}])',
      body: '[{"a":1}]',
    });
    expect(b.request.headers['content-type']).toBe('application/json');
  });
});

describe('buildRequest: deliberate defects', () => {
  it('omits a parameter before signing', () => {
    const b = buildRequest(fake, order({ defects: { omit: ['timestamp'] } }));
    expect(b.request.query).toBe('symbol=BTCUSDT&side=BUY&signature=H(s:symbol=BTCUSDT&side=BUY)');
  });

  it('signs another string, rewrites or drops the signature, other secret, no key header', () => {
    expect(buildRequest(fake, order({ defects: { signedString: (tp) => `${tp}&` } })).signature).toBe(
      'H(s:symbol=BTCUSDT&side=BUY&timestamp=1&)',
    );
    expect(buildRequest(fake, order({ defects: { signature: (s) => s.toUpperCase() } })).request.query).toContain(
      'signature=H(S:SYMBOL',
    );
    expect(buildRequest(fake, order({ defects: { omitSignature: true } })).request.query).toBe(
      'symbol=BTCUSDT&side=BUY&timestamp=1',
    );
    expect(buildRequest(fake, order({ secret: 'other' })).signature).toContain('H(other:');
    expect(buildRequest(fake, order({ apiKey: null })).request.headers).toEqual({});
  });

  it('tampers with the request after signing: the signed steps stay the genuine ones', () => {
    const b = buildRequest(
      fake,
      order({ placement: 'body', defects: { tamper: (r) => ({ ...r, body: r.body.replace('BUY', 'SELL') }) } }),
    );
    expect(b.request.body).toContain('side=SELL');
    expect(b.signed.body).toContain('side=BUY');
  });
});

describe('buildRequest: the wire is data', () => {
  it('another header name, signature name and path come from the profile', () => {
    const wire: WireProfile = {
      apiKeyHeader: 'X-OTHER-KEY',
      signatureParam: 'sig',
      endpoints: { ...SEED_WIRE.endpoints, v1: { ...SEED_WIRE.endpoints.v1, path: '/openapi/v1/order' } },
    };
    const b = buildRequest(fake, order(), wire);
    expect(b.request.path).toBe('/openapi/v1/order');
    expect(b.request.headers).toEqual({ 'X-OTHER-KEY': 'k' });
    expect(b.request.query).toMatch(/&sig=H\(/);
  });
});
