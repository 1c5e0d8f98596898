/**
 * Signing vectors from public documentation (§5.3): the published examples with their
 * published signatures verbatim (only checked, never recomputed), then requests derived
 * from them in one named way.
 */
import type { SigningVector } from '../../types.js';
import type { Draft } from '../common.js';
import { BINANCE, collector, flipBit, HASHKEY, ORDER_PATH_V1, plainHmac, withSig } from './request.js';

const A_QUERY =
  'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A_SIG = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';
const A3_QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC';
const A3_BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A3_SIG = '0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77';
const A4_QUERY =
  'symbol=%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95%EF%BC%96&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A4_SIG = 'e1353ec6b14d888f1164ae9af8228a3dbd508bc82eb867db8ab6046442f33ef3';
const B_QUERY =
  'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const B_SIG = '5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6';
const B3_QUERY = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC';
const B3_BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const B3_SIG = '885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa';

/** The published examples (A1-A4, B1-B3), then the requests derived from them. */
export function publishedDrafts(): Array<Draft<SigningVector>> {
  const { out, add } = collector();
  const a = { secret: BINANCE.secret, apiKey: BINANCE.apiKey, path: '/api/v3/order' };
  add({
    ...a,
    comment: 'Published A1: all parameters in the query string',
    flags: ['Published', 'QueryOnly', 'EmptyBody'],
    result: 'valid',
    source: `${BINANCE.source}, vector A1 (all parameters in the query string)`,
    query: withSig(A_QUERY, A_SIG),
    body: '',
    bodyKind: 'none',
    presentedSignature: A_SIG,
    publishedSignature: A_SIG,
  });
  add({
    ...a,
    comment: 'Published A2: all parameters in a form body, signature pair in the body',
    flags: ['Published', 'FormBody', 'EmptyQuery'],
    result: 'valid',
    source: `${BINANCE.source}, vector A2 (all parameters in the request body)`,
    query: '',
    body: withSig(A_QUERY, A_SIG),
    bodyKind: 'form',
    presentedSignature: A_SIG,
    publishedSignature: A_SIG,
  });
  add({
    ...a,
    comment:
      'Published A3: split between query and form body; totalParams joins them with no "&" (...GTCquantity=1...)',
    flags: ['Published', 'Split'],
    result: 'valid',
    source: `${BINANCE.source}, vector A3 (mixed query string and request body; signature pair in the body as in the published curl command)`,
    query: A3_QUERY,
    body: withSig(A3_BODY, A3_SIG),
    bodyKind: 'form',
    presentedSignature: A3_SIG,
    publishedSignature: A3_SIG,
  });
  add({
    ...a,
    comment:
      'Published A4: non-ASCII symbol (full-width digits) percent-encoded before signing; the encoded bytes are signed',
    flags: ['Published', 'QueryOnly', 'PercentEncoded', 'NonAscii', 'EmptyBody'],
    result: 'valid',
    source: `${BINANCE.source}, vector A4 (non-ASCII characters percent-encoded before signing)`,
    query: withSig(A4_QUERY, A4_SIG),
    body: '',
    bodyKind: 'none',
    presentedSignature: A4_SIG,
    publishedSignature: A4_SIG,
  });
  const b = { secret: HASHKEY.secret, apiKey: HASHKEY.apiKey };
  add({
    ...b,
    path: ORDER_PATH_V1,
    comment: 'Published B1: all parameters in the query string',
    flags: ['Published', 'QueryOnly', 'EmptyBody'],
    result: 'valid',
    source: `${HASHKEY.source}, vector B1 (all parameters in the query string)`,
    query: withSig(B_QUERY, B_SIG),
    body: '',
    bodyKind: 'none',
    presentedSignature: B_SIG,
    publishedSignature: B_SIG,
  });
  add({
    ...b,
    path: ORDER_PATH_V1,
    comment: 'Published B2: all parameters in a form body',
    flags: ['Published', 'FormBody', 'EmptyQuery'],
    result: 'valid',
    source: `${HASHKEY.source}, vector B2 (all parameters in the request body)`,
    query: '',
    body: withSig(B_QUERY, B_SIG),
    bodyKind: 'form',
    presentedSignature: B_SIG,
    publishedSignature: B_SIG,
  });
  add({
    ...b,
    path: '/openapi/v1/order',
    comment: 'Published B3: split between query and body, on the /openapi/v1/order path (the path is not signed)',
    flags: ['Published', 'Split', 'OtherPathPrefix'],
    result: 'valid',
    source: `${HASHKEY.source}, vector B3 (mixed query and body; the rendered "×tamp" in the published body is "&timestamp")`,
    query: B3_QUERY,
    body: withSig(B3_BODY, B3_SIG),
    bodyKind: 'form',
    presentedSignature: B3_SIG,
    publishedSignature: B3_SIG,
  });

  add({
    ...a,
    comment: 'A1 with the signature written in upper case (the signature is not case sensitive, §5.3 item 3)',
    flags: ['DerivedFromPublished', 'QueryOnly', 'UpperCaseSignature'],
    result: 'acceptable',
    source: `derived from ${BINANCE.source}, vector A1`,
    query: withSig(A_QUERY, A_SIG.toUpperCase()),
    body: '',
    bodyKind: 'none',
    presentedSignature: A_SIG.toUpperCase(),
    publishedSignature: A_SIG,
  });
  add({
    ...a,
    comment: 'A1 with one bit of the signature flipped',
    flags: ['DerivedFromPublished', 'QueryOnly', 'FlippedBit'],
    result: 'invalid',
    source: `derived from ${BINANCE.source}, vector A1`,
    query: withSig(A_QUERY, flipBit(A_SIG, 63)),
    body: '',
    bodyKind: 'none',
    presentedSignature: flipBit(A_SIG, 63),
    publishedSignature: A_SIG,
  });
  const a3Amp = plainHmac(BINANCE.secret, `${A3_QUERY}&${A3_BODY}`);
  add({
    ...a,
    comment: 'A3 request, but the client signed query + "&" + body: the join must have nothing inserted',
    flags: ['DerivedFromPublished', 'Split', 'AmpersandAtJoin'],
    result: 'invalid',
    source: `derived from ${BINANCE.source}, vector A3`,
    query: A3_QUERY,
    body: withSig(A3_BODY, a3Amp),
    bodyKind: 'form',
    presentedSignature: a3Amp,
    publishedSignature: A3_SIG,
  });
  const bReordered =
    'side=BUY&symbol=ETHBTC&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
  add({
    ...b,
    path: ORDER_PATH_V1,
    comment: 'B1 with symbol and side swapped after signing: same parameters, other bytes',
    flags: ['DerivedFromPublished', 'QueryOnly', 'ReorderedAfterSigning'],
    result: 'invalid',
    source: `derived from ${HASHKEY.source}, vector B1`,
    query: withSig(bReordered, B_SIG),
    body: '',
    bodyKind: 'none',
    presentedSignature: B_SIG,
  });
  const b3Wrong = plainHmac(BINANCE.secret, B3_QUERY + B3_BODY);
  add({
    ...b,
    path: '/openapi/v1/order',
    comment: "B3 request signed with another key pair's secret",
    flags: ['DerivedFromPublished', 'Split', 'OtherPathPrefix', 'WrongSecret'],
    result: 'invalid',
    source: `derived from ${HASHKEY.source}, vector B3, signed with the secret of ${BINANCE.source}`,
    query: B3_QUERY,
    body: withSig(B3_BODY, b3Wrong),
    bodyKind: 'form',
    presentedSignature: b3Wrong,
    publishedSignature: B3_SIG,
  });
  return out;
}
