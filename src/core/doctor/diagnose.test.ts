import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { sign } from '../../signing/hmac.js';
import { diagnose, diagnoseAsync, firstDifference, type DoctorRequest, type DoctorCode } from './diagnose.js';
import { webCryptoHmac } from '../signing/webcrypto.js';

const SECRET = 'doctor-test-secret-0123456789';
const Q = 'symbol=BTC-USDT&side=BUY&timestamp=1700000000000';
const B = 'quantity=1.5&price=30000&note=a%20b';

function sent(query: string, body: string, clientSigned: string, kind: DoctorRequest['bodyKind'] = 'form'): DoctorRequest {
  return { query, body, bodyKind: kind, signature: sign(SECRET, clientSigned) };
}

const cases: Array<[DoctorCode, DoctorRequest]> = [
  ['BODY_NOT_SIGNED', sent(Q, B, Q)],
  ['QUERY_NOT_SIGNED', sent(Q, B, B)],
  ['SEPARATOR_INSERTED', sent(Q, B, `${Q}&${B}`)],
  ['SIGNATURE_PARAM_SIGNED', { query: `${Q}&signature=${sign(SECRET, `${Q}&signature=`)}`, body: '', bodyKind: 'none' }],
  ['PARAMS_REORDERED', sent(Q, '', 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000', 'none')],
  ['PARAMS_REORDERED', sent(Q, B, B + Q)],
  ['SIGNED_BEFORE_ENCODING', sent(`${Q}&note=a%20b`, '', `${Q}&note=a b`, 'none')],
  ['ENCODING_MISMATCH', sent(`${Q}&note=a%20b%21`, '', `${Q}&note=a%20b!`, 'none')],
  ['JSON_RESERIALISED', sent(Q, '{ "a": 1 }', `${Q}{"a":1}`, 'json')],
  ['OTHER_TIMESTAMP', { ...sent(Q, '', Q.replace('1700000000000', '1699999999000'), 'none'), otherTimestamps: ['1699999999000'] }],
  ['UNKNOWN', sent(Q, B, 'something else')],
];

describe('diagnose (§5.3)', () => {
  it.each(cases)('names %s', (code, req) => {
    const d = diagnose(req, SECRET, sign);
    expect(d?.code).toBe(code);
    expect(JSON.stringify(d)).not.toContain(SECRET);
    if (code !== 'UNKNOWN') expect(d?.firstDifference ?? d?.clientSigned).toBeDefined();
  });

  it('never diagnoses a correctly signed request', () => {
    const pair = fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[A-Za-z0-9%.-]{0,8}$/)).map(([k, v]) => `${k}=${v}`);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 5 }), fc.array(pair, { maxLength: 5 }), (qs, bs) => {
        const q = qs.join('&');
        const b = bs.join('&');
        const kind = b === '' ? 'none' : 'form';
        expect(diagnose({ query: q, body: b, bodyKind: kind, signature: sign(SECRET, q + b) }, SECRET, sign)).toBeNull();
      }),
    );
  });

  it('marks the first difference', () => {
    expect(firstDifference('abc', 'abd')).toEqual({ index: 2, server: 'ab[>c<]', client: 'ab[>d<]' });
    expect(firstDifference('abc', 'abc')).toBeUndefined();
  });
});

describe('diagnoseAsync (§5.3)', () => {
  it('names the same code as diagnose with an asynchronous HMAC (Web Crypto)', async () => {
    for (const [code, req] of cases) expect((await diagnoseAsync(req, SECRET, webCryptoHmac))?.code).toBe(code);
    expect(await diagnoseAsync({ query: Q, body: B, bodyKind: 'form', signature: sign(SECRET, Q + B) }, SECRET, webCryptoHmac)).toBeNull();
  });
});
