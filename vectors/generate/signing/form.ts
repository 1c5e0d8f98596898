/**
 * Our own signing vectors for form-encoded requests (§5.3): every placement of the
 * parameters and the signature pair, then the same requests tampered with as a server
 * receives them, and the spellings of a space and of percent-escapes.
 */
import { encodePairs } from '../../../src/core/signing/query.js';
import { sign } from '../../../src/signing/hmac.js';
import { signParams } from '../../../src/signing/build.js';
import type { Params } from '../../../src/core/signing/build.js';
import type { SigningVector } from '../../types.js';
import type { Draft } from '../common.js';
import { TS } from '../fixtures.js';
import {
  collector,
  flipBit,
  LONG_SECRET,
  mixedCase,
  ORDER_PATH_V1,
  ORDER_PATH_V11,
  OTHER_SECRET,
  OWN,
  plainHmac,
  singleOrderParams,
  withSig,
} from './request.js';

/** Our own form-encoded requests: placements, tampering, spellings of a space and of escapes. */
export function formDrafts(): Array<Draft<SigningVector>> {
  const { out, add } = collector();
  const own = { secret: OWN.secret, apiKey: OWN.apiKey };
  const form = (
    comment: string,
    flags: string[],
    params: Params,
    placement: 'query' | 'body' | 'split',
    extra: { splitAt?: number; signatureIn?: 'query' | 'body'; path?: string } = {},
  ): void => {
    const r = signParams({
      secret: own.secret,
      params,
      placement,
      ...(extra.splitAt === undefined ? {} : { splitAt: extra.splitAt }),
      ...(extra.signatureIn === undefined ? {} : { signatureIn: extra.signatureIn }),
    });
    add({
      ...own,
      path: extra.path ?? ORDER_PATH_V1,
      comment,
      flags,
      result: 'valid',
      query: r.query,
      body: r.body,
      bodyKind: r.body === '' ? 'none' : 'form',
      presentedSignature: r.steps.signature,
    });
  };
  form(
    'Single v1 LIMIT order, all in the query string, empty body',
    ['QueryOnly', 'EmptyBody'],
    singleOrderParams(),
    'query',
  );
  form(
    'Single v1 LIMIT order, all in a form body, empty query string',
    ['FormBody', 'EmptyQuery'],
    singleOrderParams(),
    'body',
  );
  form(
    'Single v1 order split after timeInForce, signature pair in the query',
    ['Split', 'SignatureInQuery'],
    singleOrderParams(),
    'split',
    {
      splitAt: 4,
      signatureIn: 'query',
    },
  );
  form('Single v1 order split after symbol, signature pair in the body', ['Split'], singleOrderParams(), 'split', {
    splitAt: 1,
    signatureIn: 'body',
  });
  form(
    'v1.1 MARKET order by amount, all in a form body',
    ['FormBody', 'EmptyQuery'],
    [
      ['symbol', 'ETHUSDT'],
      ['side', 'BUY'],
      ['type', 'MARKET'],
      ['amount', '250'],
      ['timestamp', String(TS)],
    ],
    'body',
    { path: ORDER_PATH_V11 },
  );
  form(
    'newClientOrderId with space, slash, plus, equals and ampersand: percent-encoded (%20, %2F, %2B, %3D, %26) and signed encoded',
    ['QueryOnly', 'PercentEncoded', 'EmptyBody'],
    singleOrderParams([['newClientOrderId', 'my order/1+2=3&ok']]),
    'query',
  );
  form(
    'newClientOrderId with accented letters and an emoji, percent-encoded UTF-8 in a form body',
    ['FormBody', 'PercentEncoded', 'NonAscii', 'EmptyQuery'],
    singleOrderParams([['newClientOrderId', 'ordre-été-🚀']]),
    'body',
  );

  // Signature pair in the middle / first, built by moving the pair of a query-placed request.
  {
    const params = singleOrderParams();
    const q = encodePairs(params);
    const sig = sign(own.secret, q);
    const pairs = q.split('&');
    const mid = [...pairs.slice(0, 3), `signature=${sig}`, ...pairs.slice(3)].join('&');
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature pair in the middle of the query string: removing it leaves the other bytes as sent',
      flags: ['QueryOnly', 'SignatureMidQuery', 'EmptyBody'],
      result: 'valid',
      query: mid,
      body: '',
      bodyKind: 'none',
      presentedSignature: sig,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature pair first in the query string',
      flags: ['QueryOnly', 'SignatureFirst', 'EmptyBody'],
      result: 'valid',
      query: `signature=${sig}&${q}`,
      body: '',
      bodyKind: 'none',
      presentedSignature: sig,
    });
    const b2 = encodePairs(params);
    const bp = b2.split('&');
    const midBody = [...bp.slice(0, 2), `signature=${sig}`, ...bp.slice(2)].join('&');
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature pair in the middle of a form body',
      flags: ['FormBody', 'SignatureMidBody', 'EmptyQuery'],
      result: 'valid',
      query: '',
      body: midBody,
      bodyKind: 'form',
      presentedSignature: sig,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature written in upper case',
      flags: ['QueryOnly', 'UpperCaseSignature', 'EmptyBody'],
      result: 'acceptable',
      query: withSig(q, sig.toUpperCase()),
      body: '',
      bodyKind: 'none',
      presentedSignature: sig.toUpperCase(),
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature written in mixed case, in a form body',
      flags: ['FormBody', 'MixedCaseSignature', 'EmptyQuery'],
      result: 'acceptable',
      query: '',
      body: withSig(q, mixedCase(sig)),
      bodyKind: 'form',
      presentedSignature: mixedCase(sig),
    });
    // Tampering.
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'One bit of the signature flipped (first hex digit)',
      flags: ['QueryOnly', 'FlippedBit', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, flipBit(sig, 0)),
      body: '',
      bodyKind: 'none',
      presentedSignature: flipBit(sig, 0),
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature truncated to 63 hex digits',
      flags: ['QueryOnly', 'TruncatedSignature', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, sig.slice(0, 63)),
      body: '',
      bodyKind: 'none',
      presentedSignature: sig.slice(0, 63),
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature of 64 characters whose last one is not a hex digit',
      flags: ['QueryOnly', 'NonHexSignature', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, `${sig.slice(0, 63)}g`),
      body: '',
      bodyKind: 'none',
      presentedSignature: `${sig.slice(0, 63)}g`,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signature with two extra hex digits (66 digits)',
      flags: ['QueryOnly', 'TruncatedSignature', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, `${sig}00`),
      body: '',
      bodyKind: 'none',
      presentedSignature: `${sig}00`,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Empty signature value',
      flags: ['QueryOnly', 'TruncatedSignature', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, ''),
      body: '',
      bodyKind: 'none',
      presentedSignature: '',
    });
    const wrong = plainHmac(OTHER_SECRET, q);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signed with a different secret',
      flags: ['QueryOnly', 'WrongSecret', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, wrong),
      body: '',
      bodyKind: 'none',
      presentedSignature: wrong,
    });
    const caseSecret = plainHmac(own.secret.toUpperCase(), q);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signed with the secret in upper case: the secret is case-sensitive',
      flags: ['QueryOnly', 'WrongSecret', 'EmptyBody'],
      result: 'invalid',
      query: withSig(q, caseSecret),
      body: '',
      bodyKind: 'none',
      presentedSignature: caseSecret,
    });
    const reordered = [pairs[1], pairs[0], ...pairs.slice(2)].join('&');
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Parameters reordered after signing (symbol and side swapped in the query)',
      flags: ['QueryOnly', 'ReorderedAfterSigning', 'EmptyBody'],
      result: 'invalid',
      query: withSig(reordered, sig),
      body: '',
      bodyKind: 'none',
      presentedSignature: sig,
    });
    const bodyReordered = [...bp.slice(0, 4), bp[5], bp[4], ...bp.slice(6)].join('&');
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Form body reordered after signing (quantity and price swapped)',
      flags: ['FormBody', 'ReorderedAfterSigning', 'EmptyQuery'],
      result: 'invalid',
      query: '',
      body: withSig(bodyReordered, sig),
      bodyKind: 'form',
      presentedSignature: sig,
    });
    const changed = q.replace(`timestamp=${TS}`, `timestamp=${TS + 1}`);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'timestamp changed by 1 ms after signing (a replay with a fresh timestamp)',
      flags: ['QueryOnly', 'ValueChangedAfterSigning', 'EmptyBody'],
      result: 'invalid',
      query: withSig(changed, sig),
      body: '',
      bodyKind: 'none',
      presentedSignature: sig,
    });
    // Split request whose signature covers only one side.
    const qPart = encodePairs(params.slice(0, 4));
    const bPart = encodePairs(params.slice(4));
    const bodyOnly = sign(own.secret, bPart);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Split request whose signature covers only the body: the query is not covered',
      flags: ['Split', 'QueryNotCovered'],
      result: 'invalid',
      query: qPart,
      body: withSig(bPart, bodyOnly),
      bodyKind: 'form',
      presentedSignature: bodyOnly,
    });
    const amp = sign(own.secret, `${qPart}&${bPart}`);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Split request signed over query + "&" + body',
      flags: ['Split', 'AmpersandAtJoin', 'SignatureInQuery'],
      result: 'invalid',
      query: withSig(qPart, amp),
      body: bPart,
      bodyKind: 'form',
      presentedSignature: amp,
    });
  }

  // `+` versus `%20`, and percent-escape case: bytes as sent are signed.
  {
    const withPlus =
      'symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=1&price=50000&newClientOrderId=take+profit+1&timestamp=1767225600000';
    const withPct = withPlus.replace(/\+/g, '%20');
    const sPlus = sign(own.secret, withPlus);
    const sPct = sign(own.secret, withPct);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Space sent as "+" (form encoding) and signed as sent',
      flags: ['QueryOnly', 'PlusForSpace', 'EmptyBody'],
      result: 'valid',
      query: withSig(withPlus, sPlus),
      body: '',
      bodyKind: 'none',
      presentedSignature: sPlus,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signed with "%20" for the spaces, sent with "+": the bytes differ',
      flags: ['QueryOnly', 'PlusVersusPercent20', 'EmptyBody'],
      result: 'invalid',
      query: withSig(withPlus, sPct),
      body: '',
      bodyKind: 'none',
      presentedSignature: sPct,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signed with "+" for the spaces, sent with "%20" (a proxy re-encoded the query)',
      flags: ['QueryOnly', 'PlusVersusPercent20', 'EmptyBody'],
      result: 'invalid',
      query: withSig(withPct, sPlus),
      body: '',
      bodyKind: 'none',
      presentedSignature: sPlus,
    });
    const lower = 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.5&newClientOrderId=caf%c3%a9&timestamp=1767225600000';
    const upper = lower.replace('%c3%a9', '%C3%A9');
    const sLower = sign(own.secret, lower);
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Lower-case percent escapes (%c3%a9) signed as sent',
      flags: ['FormBody', 'PercentEncoded', 'NonAscii', 'EmptyQuery'],
      result: 'valid',
      query: '',
      body: withSig(lower, sLower),
      bodyKind: 'form',
      presentedSignature: sLower,
    });
    add({
      ...own,
      path: ORDER_PATH_V1,
      comment: 'Signed with lower-case escapes, sent with upper-case ones (percent-encoding normalised in transit)',
      flags: ['FormBody', 'PercentEncoded', 'EncodingNormalised', 'EmptyQuery'],
      result: 'invalid',
      query: '',
      body: withSig(upper, sLower),
      bodyKind: 'form',
      presentedSignature: sLower,
    });
    const longSig = sign(LONG_SECRET, withPct);
    add({
      secret: LONG_SECRET,
      path: ORDER_PATH_V1,
      comment: 'Secret longer than the 64-byte SHA-256 block (HMAC hashes such a key first)',
      flags: ['QueryOnly', 'LongSecret', 'EmptyBody'],
      result: 'valid',
      query: withSig(withPct, longSig),
      body: '',
      bodyKind: 'none',
      presentedSignature: longSig,
    });
  }
  return out;
}
