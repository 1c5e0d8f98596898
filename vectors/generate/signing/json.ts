/**
 * Our own signing vectors for JSON batch bodies (§4.1, §5.3): the raw JSON text is
 * signed as sent, so every re-serialisation in transit must be refused.
 */
import { sign } from '../../../src/signing/hmac.js';
import { signJsonBody } from '../../../src/signing/build.js';
import type { Params } from '../../../src/core/signing/build.js';
import type { SigningVector } from '../../types.js';
import type { Draft } from '../common.js';
import { batchOrders, TS } from '../fixtures.js';
import { BATCH_PATH, batchQuery, collector, flipBit, OTHER_SECRET, OWN, plainHmac, withSig } from './request.js';

/** Our own JSON batch requests: valid spellings of the JSON text, then re-serialised or tampered ones. */
export function jsonDrafts(): Array<Draft<SigningVector>> {
  const { out, add } = collector();
  const own = { secret: OWN.secret, apiKey: OWN.apiKey };

  const batch = (
    comment: string,
    flags: string[],
    jsonText: string,
    query: Params = batchQuery(),
  ): { query: string; body: string; sig: string; q: string } => {
    const r = signJsonBody(own.secret, query, jsonText);
    add({
      ...own,
      path: BATCH_PATH,
      comment,
      flags,
      result: 'valid',
      query: r.query,
      body: r.body,
      bodyKind: 'json',
      presentedSignature: r.steps.signature,
    });
    return { query: r.query, body: r.body, sig: r.steps.signature, q: r.steps.queryWithoutSignature };
  };
  const one = JSON.stringify(batchOrders(1, 'string'));
  const oneSigned = batch(
    'Batch of 1 order, JSON body, decimals as strings; the raw JSON text is signed',
    ['JsonBody', 'Batch', 'DecimalsAsStrings'],
    one,
  );
  batch(
    'Batch of 1 order, decimals as JSON numbers',
    ['JsonBody', 'Batch', 'DecimalsAsNumbers'],
    JSON.stringify(batchOrders(1, 'number')),
  );
  const twenty = JSON.stringify(batchOrders(20, 'string'));
  const twentySigned = batch(
    'Batch of 20 orders (the maximum), decimals as strings',
    ['JsonBody', 'Batch', 'MaxBatch', 'DecimalsAsStrings'],
    twenty,
  );
  batch(
    'Batch of 20 orders, decimals as JSON numbers',
    ['JsonBody', 'Batch', 'MaxBatch', 'DecimalsAsNumbers'],
    JSON.stringify(batchOrders(20, 'number')),
  );
  const unicodeOrders = batchOrders(2, 'string').map((o, i) => ({
    ...o,
    newClientOrderId: i === 0 ? '注文-ü-😀' : 'ордер-№2',
  }));
  const unicodeText = JSON.stringify(unicodeOrders);
  const unicodeSigned = batch(
    'Batch with non-ASCII newClientOrderId values written as raw UTF-8 in the JSON text',
    ['JsonBody', 'Batch', 'NonAscii', 'DecimalsAsStrings'],
    unicodeText,
  );
  const escapedText = unicodeText.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  batch(
    'The same batch with the non-ASCII characters written as \\u escapes: the escapes are the bytes signed',
    ['JsonBody', 'Batch', 'NonAscii', 'JsonEscapes'],
    escapedText,
  );
  const pretty = JSON.stringify(batchOrders(2, 'string'), null, 2);
  const prettySigned = batch(
    'Pretty-printed JSON body (newlines, indentation) signed as sent',
    ['JsonBody', 'Batch', 'JsonWhitespace'],
    pretty,
  );
  batch('Batch whose query carries only timestamp (recvWindow omitted)', ['JsonBody', 'Batch'], one, [
    ['timestamp', String(TS)],
  ]);
  {
    const r = signJsonBody(own.secret, batchQuery(), one);
    const q = r.steps.queryWithoutSignature;
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch with the signature pair between timestamp and recvWindow',
      flags: ['JsonBody', 'Batch', 'SignatureMidQuery'],
      result: 'valid',
      query: q.replace('&', `&signature=${r.steps.signature}&`),
      body: one,
      bodyKind: 'json',
      presentedSignature: r.steps.signature,
    });
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch with the signature in upper case',
      flags: ['JsonBody', 'Batch', 'UpperCaseSignature'],
      result: 'acceptable',
      query: withSig(q, r.steps.signature.toUpperCase()),
      body: one,
      bodyKind: 'json',
      presentedSignature: r.steps.signature.toUpperCase(),
    });
  }
  {
    const flipped = flipBit(twentySigned.sig, 31);
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch of 20 with one bit of the signature flipped',
      flags: ['JsonBody', 'Batch', 'MaxBatch', 'FlippedBit'],
      result: 'invalid',
      query: withSig(twentySigned.q, flipped),
      body: twenty,
      bodyKind: 'json',
      presentedSignature: flipped,
    });
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Compact JSON signed, then re-serialised pretty-printed in transit (same orders, other bytes)',
      flags: ['JsonBody', 'Batch', 'JsonReserialised'],
      result: 'invalid',
      query: oneSigned.query,
      body: JSON.stringify(JSON.parse(one), null, 2),
      bodyKind: 'json',
      presentedSignature: oneSigned.sig,
    });
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Pretty-printed JSON signed, then sent compact (whitespace stripped in transit)',
      flags: ['JsonBody', 'Batch', 'JsonReserialised'],
      result: 'invalid',
      query: prettySigned.query,
      body: JSON.stringify(JSON.parse(pretty)),
      bodyKind: 'json',
      presentedSignature: prettySigned.sig,
    });
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Raw UTF-8 JSON signed, then sent with \\u escapes (same JSON value, other bytes)',
      flags: ['JsonBody', 'Batch', 'NonAscii', 'JsonReserialised'],
      result: 'invalid',
      query: unicodeSigned.query,
      body: escapedText,
      bodyKind: 'json',
      presentedSignature: unicodeSigned.sig,
    });
    const numbersText = JSON.stringify(batchOrders(1, 'number'));
    const firstOrder = batchOrders(1, 'number')[0];
    const reformatted =
      firstOrder === undefined
        ? numbersText
        : numbersText.replace(`"price":${firstOrder.price}`, `"price":${firstOrder.price}.00`);
    const numbersSig = sign(own.secret, `${oneSigned.q}${numbersText}`);
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Decimal number re-formatted after signing (42000 sent as 42000.00): equal value, other bytes',
      flags: ['JsonBody', 'Batch', 'DecimalsAsNumbers', 'JsonReserialised'],
      result: 'invalid',
      query: withSig(oneSigned.q, numbersSig),
      body: reformatted,
      bodyKind: 'json',
      presentedSignature: numbersSig,
    });
    const keysReordered = JSON.stringify(
      (JSON.parse(one) as Array<Record<string, unknown>>).map((o) => Object.fromEntries(Object.entries(o).reverse())),
    );
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'JSON object keys reordered after signing',
      flags: ['JsonBody', 'Batch', 'ReorderedAfterSigning'],
      result: 'invalid',
      query: oneSigned.query,
      body: keysReordered,
      bodyKind: 'json',
      presentedSignature: oneSigned.sig,
    });
    const queryOnly = sign(own.secret, oneSigned.q);
    add({
      ...own,
      path: BATCH_PATH,
      comment:
        'Signature of the query only, JSON body not covered (what some client libraries send; a server must refuse it)',
      flags: ['JsonBody', 'Batch', 'BodyNotCovered'],
      result: 'invalid',
      query: withSig(oneSigned.q, queryOnly),
      body: one,
      bodyKind: 'json',
      presentedSignature: queryOnly,
    });
    const ampJson = sign(own.secret, `${oneSigned.q}&${one}`);
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch signed over query + "&" + JSON body',
      flags: ['JsonBody', 'Batch', 'AmpersandAtJoin'],
      result: 'invalid',
      query: withSig(oneSigned.q, ampJson),
      body: one,
      bodyKind: 'json',
      presentedSignature: ampJson,
    });
    const swapped = JSON.stringify(
      (JSON.parse(twenty) as Array<Record<string, unknown>>).map((o, i) =>
        i === 7 ? { ...o, side: o.side === 'BUY' ? 'SELL' : 'BUY' } : o,
      ),
    );
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch of 20 with the side of order 8 flipped after signing (the attack an unsigned body allows)',
      flags: ['JsonBody', 'Batch', 'MaxBatch', 'ValueChangedAfterSigning'],
      result: 'invalid',
      query: twentySigned.query,
      body: swapped,
      bodyKind: 'json',
      presentedSignature: twentySigned.sig,
    });
    const jsonWrong = plainHmac(OTHER_SECRET, `${oneSigned.q}${one}`);
    add({
      ...own,
      path: BATCH_PATH,
      comment: 'Batch signed with a different secret',
      flags: ['JsonBody', 'Batch', 'WrongSecret'],
      result: 'invalid',
      query: withSig(oneSigned.q, jsonWrong),
      body: one,
      bodyKind: 'json',
      presentedSignature: jsonWrong,
    });
    const injected =
      '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"1","newClientOrderId":"x&signature=00"}]';
    batch(
      'JSON body containing the text "&signature=" inside a string: a JSON body is signed whole, never stripped',
      ['JsonBody', 'Batch', 'SignatureTextInJson'],
      injected,
    );
  }
  return out;
}
