/**
 * Generator of the golden vector files (run on demand, never by the tests):
 *
 *     npx tsc -p vectors/tsconfig.generate.json && node dist/generate/vectors/generate.js
 *
 * Signing vectors: the published examples are written with their published
 * signatures verbatim (the generator only checks they still verify); our own vectors
 * are built with src/signing and every signature is cross-checked against a plain
 * `node:crypto` HMAC. Time-window and order vectors carry expectations written here
 * by hand from the seed and spec/decisions.md, never computed by the code under test.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { kitPath } from '../src/paths.js';
import { encodePairs, sign, signingSteps, signJsonBody, signParams, type BodyKind, type Params } from '../src/signing/index.js';
import type { OrderVector, SigningVector, TimeWindowVector, VectorBase, VectorFile } from './types.js';

/** Vector fields before numbering. */
type Draft<T extends VectorBase> = T extends unknown ? Omit<T, 'tcId'> : never;

function write<T extends VectorBase>(kind: string, header: string[], notes: Record<string, string>, drafts: Array<Draft<T>>): void {
  const tests = drafts.map((d, i) => ({ tcId: i + 1, ...d }) as T);
  const used = new Set(tests.flatMap((t) => t.flags));
  for (const f of used) if (!(f in notes)) throw new Error(`${kind}: flag ${f} has no note`);
  for (const f of Object.keys(notes)) if (!used.has(f)) throw new Error(`${kind}: note ${f} is not used`);
  const file: VectorFile<T> = { $schema: `./schema/${kind}.schema.json`, header, numberOfTests: tests.length, notes, tests };
  writeFileSync(kitPath('vectors', `${kind}.json`), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`vectors/${kind}.json: ${tests.length} vectors`);
}

// ---------------------------------------------------------------------------
// Signing

const plainHmac = (secret: string, s: string): string => createHmac('sha256', secret).update(s, 'utf8').digest('hex');

const BINANCE = {
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
  source: 'Binance spot REST API docs (github.com/binance/binance-spot-api-docs, rest-api.md), SIGNED endpoint examples for POST /api/v3/order',
};
const HASHKEY = {
  apiKey: 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW',
  secret: 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76',
  source: 'HashKey spot API docs, Authentication page (hashkeyglobal-apidoc.readme.io/reference/authentication-1)',
};

/** Our own key pair (64-character secret, the usual length). */
const OWN = {
  apiKey: 'sck-golden-apikey-0001-Zm9yIHRlc3RzIG9ubHksIG5ldmVyIGEgcmVhbCBrZXk',
  secret: 'gQ7vN2kX9pL4wR8tY1uE6iO3aS5dF0hJ2kL7zX4cV9bN1mQ8wE3rT6yU0iO5pA2s',
};
const OTHER_SECRET = 'Zx8cV1bN4mQ7wE0rT3yU6iO9pA2sD5fG8hJ1kL4zX7cV0bN3mQ6wE9rT2yU5iO8';
const LONG_SECRET = `${OWN.secret}-longer-than-the-64-byte-sha256-block-so-hmac-hashes-the-key-first`;

const A_QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A_SIG = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';
const A3_QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC';
const A3_BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A3_SIG = '0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77';
const A4_QUERY =
  'symbol=%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95%EF%BC%96&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const A4_SIG = 'e1353ec6b14d888f1164ae9af8228a3dbd508bc82eb867db8ab6046442f33ef3';
const B_QUERY = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const B_SIG = '5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6';
const B3_QUERY = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC';
const B3_BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const B3_SIG = '885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa';

interface RequestSpec {
  comment: string;
  flags: string[];
  result: SigningVector['result'];
  source?: string;
  secret: string;
  apiKey?: string;
  path: string;
  query: string;
  body: string;
  bodyKind: BodyKind;
  presentedSignature: string;
  /** A published signature, written verbatim (checked, never recomputed). */
  publishedSignature?: string;
}

/** Fill in every intermediate value of a request as sent; cross-check the signer. */
function signingVector(r: RequestSpec): Draft<SigningVector> {
  const steps = signingSteps(r.query, r.body, r.bodyKind);
  const computed = sign(r.secret, steps.totalParams);
  if (computed !== plainHmac(r.secret, steps.totalParams)) throw new Error(`signer disagrees with node:crypto: ${r.comment}`);
  if (r.publishedSignature !== undefined && r.publishedSignature !== computed) {
    throw new Error(`published signature does not verify: ${r.comment}`);
  }
  return {
    comment: r.comment,
    flags: r.flags,
    result: r.result,
    ...(r.source === undefined ? {} : { source: r.source }),
    secret: r.secret,
    ...(r.apiKey === undefined ? {} : { apiKey: r.apiKey }),
    method: 'POST',
    path: r.path,
    query: r.query,
    body: r.body,
    bodyKind: r.bodyKind,
    queryWithoutSignature: steps.queryWithoutSignature,
    signedBody: steps.body,
    totalParams: steps.totalParams,
    signature: r.publishedSignature ?? computed,
    presentedSignature: r.presentedSignature,
  };
}

const withSig = (raw: string, sig: string): string => (raw === '' ? `signature=${sig}` : `${raw}&signature=${sig}`);

/** Flip the lowest bit of the hex digit at `i`. */
function flipBit(sig: string, i: number): string {
  const d = (parseInt(sig[i] ?? '0', 16) ^ 1).toString(16);
  return sig.slice(0, i) + d + sig.slice(i + 1);
}

function mixedCase(sig: string): string {
  return [...sig].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
}

const ORDER_PATH_V1 = '/api/v1/spot/order';
const ORDER_PATH_V11 = '/api/v1.1/spot/order';
const BATCH_PATH = '/api/v1/spot/batchOrders';
const TS = 1767225600000; // 2026-01-01T00:00:00Z

function singleOrderParams(extra: Params = [], ts = TS): Params {
  return [
    ['symbol', 'BTCUSDT'],
    ['side', 'BUY'],
    ['type', 'LIMIT'],
    ['timeInForce', 'GTC'],
    ['quantity', '0.0105'],
    ['price', '43250.5'],
    ...extra,
    ['recvWindow', '5000'],
    ['timestamp', String(ts)],
  ];
}

interface BatchOrder {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
  quantity: string | number;
  price?: string | number;
  newClientOrderId?: string;
  timeInForce?: string;
  stpMode?: string;
}

/** `n` batch orders for BTCUSDT, decimals as strings or numbers. */
function batchOrders(n: number, decimals: 'string' | 'number'): BatchOrder[] {
  return Array.from({ length: n }, (_, i) => {
    const qty = (0.001 * (i + 1)).toFixed(3);
    const price = (42000 + i * 12.5).toFixed(2);
    const maker = i % 5 === 4;
    return {
      symbol: 'BTCUSDT',
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      type: maker ? 'LIMIT_MAKER' : 'LIMIT',
      quantity: decimals === 'string' ? qty : Number(qty),
      price: decimals === 'string' ? price : Number(price),
      newClientOrderId: `golden-batch-${String(i + 1).padStart(2, '0')}`,
      ...(maker ? {} : { timeInForce: 'GTC' }),
      ...(i % 3 === 2 ? { stpMode: 'EXPIRE_MAKER' } : {}),
    };
  });
}

const batchQuery = (ts = TS): Params => [
  ['timestamp', String(ts)],
  ['recvWindow', '5000'],
];

function signingDrafts(): Array<Draft<SigningVector>> {
  const out: Array<Draft<SigningVector>> = [];
  const add = (r: RequestSpec): void => {
    out.push(signingVector(r));
  };

  // --- Published examples, verbatim -------------------------------------------------
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
    comment: 'Published A3: split between query and form body; totalParams joins them with no "&" (...GTCquantity=1...)',
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
    comment: 'Published A4: non-ASCII symbol (full-width digits) percent-encoded before signing; the encoded bytes are signed',
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

  // --- Derived from published examples ------------------------------------------------
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
  const bReordered = 'side=BUY&symbol=ETHBTC&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
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
    comment: 'B3 request signed with another key pair\'s secret',
    flags: ['DerivedFromPublished', 'Split', 'OtherPathPrefix', 'WrongSecret'],
    result: 'invalid',
    source: `derived from ${HASHKEY.source}, vector B3, signed with the secret of ${BINANCE.source}`,
    query: B3_QUERY,
    body: withSig(B3_BODY, b3Wrong),
    bodyKind: 'form',
    presentedSignature: b3Wrong,
    publishedSignature: B3_SIG,
  });

  // --- Our own: form placements -------------------------------------------------------
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
  form('Single v1 LIMIT order, all in the query string, empty body', ['QueryOnly', 'EmptyBody'], singleOrderParams(), 'query');
  form('Single v1 LIMIT order, all in a form body, empty query string', ['FormBody', 'EmptyQuery'], singleOrderParams(), 'body');
  form('Single v1 order split after timeInForce, signature pair in the query', ['Split', 'SignatureInQuery'], singleOrderParams(), 'split', {
    splitAt: 4,
    signatureIn: 'query',
  });
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
    const withPlus = 'symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=1&price=50000&newClientOrderId=take+profit+1&timestamp=1767225600000';
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

  // --- Our own: JSON batch bodies ----------------------------------------------------
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
  const oneSigned = batch('Batch of 1 order, JSON body, decimals as strings; the raw JSON text is signed', ['JsonBody', 'Batch', 'DecimalsAsStrings'], one);
  batch('Batch of 1 order, decimals as JSON numbers', ['JsonBody', 'Batch', 'DecimalsAsNumbers'], JSON.stringify(batchOrders(1, 'number')));
  const twenty = JSON.stringify(batchOrders(20, 'string'));
  const twentySigned = batch('Batch of 20 orders (the maximum), decimals as strings', ['JsonBody', 'Batch', 'MaxBatch', 'DecimalsAsStrings'], twenty);
  batch('Batch of 20 orders, decimals as JSON numbers', ['JsonBody', 'Batch', 'MaxBatch', 'DecimalsAsNumbers'], JSON.stringify(batchOrders(20, 'number')));
  const unicodeOrders = batchOrders(2, 'string').map((o, i) => ({ ...o, newClientOrderId: i === 0 ? '注文-ü-😀' : 'ордер-№2' }));
  const unicodeText = JSON.stringify(unicodeOrders);
  const unicodeSigned = batch('Batch with non-ASCII newClientOrderId values written as raw UTF-8 in the JSON text', ['JsonBody', 'Batch', 'NonAscii', 'DecimalsAsStrings'], unicodeText);
  const escapedText = unicodeText.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  batch('The same batch with the non-ASCII characters written as \\u escapes: the escapes are the bytes signed', ['JsonBody', 'Batch', 'NonAscii', 'JsonEscapes'], escapedText);
  const pretty = JSON.stringify(batchOrders(2, 'string'), null, 2);
  const prettySigned = batch('Pretty-printed JSON body (newlines, indentation) signed as sent', ['JsonBody', 'Batch', 'JsonWhitespace'], pretty);
  batch('Batch whose query carries only timestamp (recvWindow omitted)', ['JsonBody', 'Batch'], one, [['timestamp', String(TS)]]);
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
    const reformatted = firstOrder === undefined ? numbersText : numbersText.replace(`"price":${firstOrder.price}`, `"price":${firstOrder.price}.00`);
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
      comment: 'Signature of the query only, JSON body not covered (what some client libraries send; a server must refuse it)',
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
      (JSON.parse(twenty) as Array<Record<string, unknown>>).map((o, i) => (i === 7 ? { ...o, side: o['side'] === 'BUY' ? 'SELL' : 'BUY' } : o)),
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
    const injected = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"1","newClientOrderId":"x&signature=00"}]';
    batch('JSON body containing the text "&signature=" inside a string: a JSON body is signed whole, never stripped', ['JsonBody', 'Batch', 'SignatureTextInJson'], injected);
  }
  return out;
}

const SIGNING_HEADER = [
  'Golden vectors for request signing (seed §5.3): signature = lower-case hex HMAC-SHA256 of totalParams keyed with the secret.',
  'Each vector is one request as sent (method, path, raw query without "?", raw body, body kind) plus its secret, then every intermediate value:',
  'queryWithoutSignature (query minus its signature pair, other bytes as sent), signedBody (a form body minus its signature pair; a JSON body as sent),',
  'totalParams (queryWithoutSignature immediately followed by signedBody, nothing inserted), signature (the correct signature of totalParams),',
  'and presentedSignature (the value the request carries). A request is valid iff presentedSignature, compared case-insensitively as hex, equals signature.',
  'result: valid; acceptable (valid, with a flag worth noting); invalid (a verifier must refuse it). Invalid requests are the tampered ones as sent.',
  'Vectors flagged Published carry the signature values of public documentation verbatim (cited in source), so they check a signer independently.',
  'Generated by vectors/generate.ts; checked against vectors/schema/signing.schema.json by vectors/load.ts.',
];

const SIGNING_NOTES: Record<string, string> = {
  Published: 'A worked example from public documentation; every value, the signature included, is as published (see source).',
  DerivedFromPublished: 'A published example changed in one named way; the change is in the comment.',
  QueryOnly: 'All parameters travel in the query string (placement 1 of §5.3).',
  FormBody: 'All parameters travel in a form-encoded body (placement 2 of §5.3).',
  Split: 'Parameters split between query string and form body; totalParams is query immediately followed by body (§5.3 item 4).',
  EmptyBody: 'The request has no body; totalParams is the query string alone.',
  EmptyQuery: 'The request has no query string; totalParams is the body alone.',
  SignatureInQuery: 'The signature pair travels in the query string although (part of) the parameters are in the body.',
  SignatureMidQuery: 'The signature pair sits between other pairs of the query string; removing it must leave the other bytes as sent.',
  SignatureMidBody: 'The signature pair sits between other pairs of a form body.',
  SignatureFirst: 'The signature pair is the first pair of the query string.',
  OtherPathPrefix: 'The request uses a path prefix other than /api/ (seed §4.2); the path is not part of the signed string.',
  PercentEncoded: 'Values carry percent-escapes; the escaped bytes as sent are signed, never the decoded text.',
  NonAscii: 'The request contains non-ASCII characters (percent-encoded UTF-8, raw UTF-8 or JSON escapes).',
  PlusForSpace: 'A space is sent as "+" (form encoding) and signed that way.',
  PlusVersusPercent20: 'The request was signed with one spelling of a space ("+" or "%20") and sent with the other.',
  EncodingNormalised: 'Percent-escapes were rewritten (case changed) after signing.',
  LongSecret: 'The secret is longer than the 64-byte SHA-256 block, so HMAC hashes the key first.',
  UpperCaseSignature: 'The signature is written in upper-case hex; the signature is not case sensitive (§5.3 item 3), so the request is valid.',
  MixedCaseSignature: 'The signature mixes upper- and lower-case hex digits; still valid (§5.3 item 3).',
  FlippedBit: 'One bit of the presented signature differs from the correct one.',
  TruncatedSignature: 'The presented signature is not 64 hex digits long (shorter, longer or empty).',
  NonHexSignature: 'The presented signature contains a character that is not a hex digit.',
  WrongSecret: 'The presented signature was made with another secret (another key, or the secret in another case).',
  ReorderedAfterSigning: 'Parameters (or JSON keys) were reordered after signing: same content, other bytes.',
  ValueChangedAfterSigning: 'A value was changed after signing.',
  AmpersandAtJoin: 'The client inserted "&" between query and body when signing; §5.3 item 4 inserts nothing.',
  QueryNotCovered: 'The presented signature covers the body only, not the query string.',
  BodyNotCovered: 'The presented signature covers the query string only, not the JSON body: a server accepting it lets anyone in transit rewrite the orders.',
  JsonBody: 'The body is a JSON document (the batch endpoint, §4.1), signed as the raw text sent.',
  Batch: 'A request to the batch endpoint POST /api/v1/spot/batchOrders.',
  MaxBatch: 'The batch holds 20 orders, the maximum (§4.1).',
  DecimalsAsStrings: 'DECIMAL values are JSON strings in the body.',
  DecimalsAsNumbers: 'DECIMAL values are JSON numbers in the body.',
  JsonEscapes: 'Non-ASCII characters of the JSON body are written as \\u escapes.',
  JsonWhitespace: 'The JSON body contains insignificant whitespace (newlines, indentation), which is signed as sent.',
  JsonReserialised: 'The JSON body was re-serialised after signing (whitespace, escapes or number format changed): same value, other bytes.',
  SignatureTextInJson: 'A JSON string value contains the text "&signature=", which must not be treated as a signature pair.',
};

// ---------------------------------------------------------------------------
// Time window (§5.4)

function timeDrafts(): Array<Draft<TimeWindowVector>> {
  const S = 1767225600000;
  const ok = (comment: string, flags: string[], timestamp: number, recvWindow?: number, serverTime = S): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'valid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
  });
  const old = (comment: string, flags: string[], timestamp: number, recvWindow?: number, serverTime = S): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'invalid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
    reason: 'too-old',
    ruleId: 'TIME-WINDOW-PAST',
  });
  const ahead = (comment: string, flags: string[], timestamp: number, recvWindow?: number, serverTime = S): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'invalid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
    reason: 'too-far-ahead',
    ruleId: 'TIME-WINDOW-LEAD',
  });
  return [
    ok('timestamp equal to serverTime, recvWindow omitted', ['SameMillisecond', 'DefaultRecvWindow'], S),
    ok('timestamp equal to serverTime, recvWindow 5000', ['SameMillisecond'], S, 5000),
    ok('exactly 5000 ms old with the default recvWindow (serverTime - timestamp <= recvWindow)', ['DefaultRecvWindow', 'Boundary'], S - 5000),
    old('5001 ms old with the default recvWindow', ['DefaultRecvWindow', 'Boundary'], S - 5001),
    ok('exactly 5000 ms old with recvWindow 5000 given', ['Boundary'], S - 5000, 5000),
    old('5001 ms old with recvWindow 5000 given', ['Boundary'], S - 5001, 5000),
    ok('exactly recvWindow (3000) old', ['Boundary'], S - 3000, 3000),
    old('recvWindow (3000) + 1 ms old', ['Boundary'], S - 3001, 3000),
    ok('1 ms old, recvWindow omitted', ['DefaultRecvWindow'], S - 1),
    ok('timestamp leads serverTime by 1 ms', ['Lead'], S + 1),
    ok('timestamp leads serverTime by 999 ms (timestamp < serverTime + 1000)', ['Lead', 'Boundary'], S + 999),
    ahead('timestamp leads serverTime by 1000 ms', ['Lead', 'Boundary'], S + 1000),
    ahead('timestamp leads serverTime by 1001 ms', ['Lead'], S + 1001),
    ahead('lead of 1000 ms with recvWindow 60000: recvWindow does not widen the lead', ['Lead', 'Boundary', 'LargeRecvWindow'], S + 1000, 60000),
    ok('lead of 999 ms with recvWindow 0: the lead allowance does not depend on recvWindow', ['Lead', 'Boundary', 'ZeroRecvWindow'], S + 999, 0),
    ahead('timestamp a day ahead', ['Lead', 'FarOff'], S + 86_400_000),
    ok('recvWindow 0, same millisecond', ['ZeroRecvWindow', 'SameMillisecond', 'Boundary'], S, 0),
    old('recvWindow 0, 1 ms old', ['ZeroRecvWindow', 'Boundary'], S - 1, 0),
    ok('recvWindow 1, 1 ms old', ['Boundary'], S - 1, 1),
    old('recvWindow 1, 2 ms old', ['Boundary'], S - 2, 1),
    ok('recvWindow 60000, exactly 60000 ms old', ['LargeRecvWindow', 'Boundary'], S - 60000, 60000),
    old('recvWindow 60000, 60001 ms old', ['LargeRecvWindow', 'Boundary'], S - 60001, 60000),
    ok('recvWindow 60000, 30000 ms old', ['LargeRecvWindow'], S - 30000, 60000),
    old('recvWindow 10000 but 10 minutes old', ['FarOff'], S - 600_000, 10000),
    old('timestamp 0 (epoch): far too old', ['FarOff', 'DefaultRecvWindow'], 0),
    old('timestamp in seconds instead of milliseconds', ['FarOff', 'DefaultRecvWindow', 'Seconds'], Math.floor(S / 1000)),
    ahead('timestamp in microseconds instead of milliseconds', ['Lead', 'FarOff', 'Microseconds'], S * 1000),
    ok('serverTime and timestamp of a published signing example (HashKey, 1538323200000), 4999 ms old', ['DefaultRecvWindow'], 1538323200000 - 4999, undefined, 1538323200000),
    old('6000 ms old with recvWindow 5999', ['Boundary'], S - 6000, 5999),
    ok('6000 ms old with recvWindow 6000', ['Boundary'], S - 6000, 6000),
  ];
}

const TIME_HEADER = [
  'Golden vectors for the time-based security of seed §5.4: a request is processed iff timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow.',
  'recvWindow absent means the default 5000 (§5.4 item 2). All values are integer milliseconds since the epoch.',
  'Invalid vectors name the reason (too-old: serverTime - timestamp > recvWindow, rule TIME-WINDOW-PAST; too-far-ahead: timestamp >= serverTime + 1000, rule TIME-WINDOW-LEAD).',
  'When both would apply the lead check is reported first; no vector here has both.',
  'Limits on recvWindow itself (D-RECVWINDOW-MAX) are parameter validation, not part of this check.',
  'Generated by vectors/generate.ts; checked against vectors/schema/time-window.schema.json by vectors/load.ts.',
];

const TIME_NOTES: Record<string, string> = {
  SameMillisecond: 'timestamp equals serverTime.',
  DefaultRecvWindow: 'recvWindow is omitted, so the default of 5000 ms applies.',
  Boundary: 'The case sits on, or one millisecond past, an edge of the window.',
  Lead: 'The timestamp is ahead of the server time; only a lead under 1000 ms is accepted (§5.4 item 4).',
  ZeroRecvWindow: 'recvWindow is 0: only a timestamp not older than serverTime is accepted.',
  LargeRecvWindow: 'recvWindow is 60000, far above the recommended 5000 (still honoured as sent).',
  FarOff: 'The timestamp is far from the server time.',
  Seconds: 'A client bug: the timestamp is in seconds.',
  Microseconds: 'A client bug: the timestamp is in microseconds.',
};

// ---------------------------------------------------------------------------
// Orders and batches (§2.1, §4.1)

type Obj = Record<string, unknown>;

const limitV1: Obj = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '43000.5', timestamp: TS };
const marketV1: Obj = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.25', timestamp: TS };
const makerV1: Obj = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', quantity: '1', price: '44000', timestamp: TS };

function without(o: Obj, ...keys: string[]): Obj {
  const c = { ...o };
  for (const k of keys) delete c[k];
  return c;
}

function orderDrafts(): Array<Draft<OrderVector>> {
  const out: Array<Draft<OrderVector>> = [];
  const order = (version: 'v1' | 'v1.1', comment: string, flags: string[], input: unknown, expectedRuleIds: string[] = []): void => {
    out.push({ kind: 'order', version, comment, flags, result: expectedRuleIds.length === 0 ? 'valid' : 'invalid', input, expectedRuleIds });
  };
  const batchCase = (comment: string, flags: string[], input: unknown, expectedRuleIds: string[] = []): void => {
    out.push({ kind: 'batch', comment, flags, result: expectedRuleIds.length === 0 ? 'valid' : 'invalid', input, expectedRuleIds });
  };

  // v1 single orders.
  order('v1', 'v1 LIMIT order, decimals as strings', ['V1', 'DecimalsAsStrings'], limitV1);
  order('v1', 'v1 LIMIT order, decimals as JSON numbers', ['V1', 'DecimalsAsNumbers'], { ...limitV1, quantity: 0.01, price: 43000.5 });
  order('v1', 'v1 MARKET order with quantity, no price', ['V1'], marketV1);
  order('v1', 'v1 LIMIT_MAKER order', ['V1'], makerV1);
  order('v1', 'v1 LIMIT order with every optional field', ['V1'], {
    ...limitV1,
    newClientOrderId: 'golden-1',
    timeInForce: 'GTC',
    stpMode: 'EXPIRE_MAKER',
    recvWindow: 5000,
  });
  order('v1', 'v1 MARKET order with timeInForce IOC and stpMode EXPIRE_TAKER', ['V1'], { ...marketV1, timeInForce: 'IOC', stpMode: 'EXPIRE_TAKER' });
  order('v1', 'timeInForce FOK (accepted by the reference, decision D-TIF-VALUES)', ['V1', 'ReferenceChoice'], { ...limitV1, timeInForce: 'FOK' });
  order('v1', 'LIMIT without price', ['V1', 'MissingField'], without(limitV1, 'price'), ['ORDER-PRICE-REQUIRED-LIMIT']);
  order('v1', 'LIMIT_MAKER without price', ['V1', 'MissingField'], without(makerV1, 'price'), ['ORDER-PRICE-REQUIRED-LIMIT']);
  order('v1', 'v1 LIMIT without quantity', ['V1', 'MissingField'], without(limitV1, 'quantity'), ['ORDER-QUANTITY-REQUIRED-V1']);
  order('v1', 'v1 MARKET without quantity', ['V1', 'MissingField'], without(marketV1, 'quantity'), ['ORDER-QUANTITY-REQUIRED-V1']);
  order('v1', 'v1 MARKET with amount instead of quantity (no amount field in v1)', ['V1', 'MissingField', 'ReferenceChoice'], { ...without(marketV1, 'quantity'), amount: '100' }, [
    'ORDER-QUANTITY-REQUIRED-V1',
    'ORDER-AMOUNT-MARKET-ONLY',
  ]);
  order('v1', 'v1 LIMIT without quantity and without price', ['V1', 'MissingField'], without(limitV1, 'quantity', 'price'), [
    'ORDER-QUANTITY-REQUIRED-V1',
    'ORDER-PRICE-REQUIRED-LIMIT',
  ]);
  order('v1', 'symbol missing', ['V1', 'MissingField'], without(limitV1, 'symbol'), ['ORDER-SYMBOL-REQUIRED']);
  order('v1', 'symbol empty', ['V1', 'BadValue'], { ...limitV1, symbol: '' }, ['ORDER-SYMBOL-REQUIRED']);
  order('v1', 'side in lower case', ['V1', 'BadEnum'], { ...limitV1, side: 'buy' }, ['ORDER-SIDE-ENUM']);
  order('v1', 'side missing', ['V1', 'MissingField'], without(limitV1, 'side'), ['ORDER-SIDE-ENUM']);
  order('v1', 'type STOP_LOSS (not a type of §2.1)', ['V1', 'BadEnum'], { ...marketV1, type: 'STOP_LOSS' }, ['ORDER-TYPE-ENUM']);
  order('v1', 'bad side and bad type together', ['V1', 'BadEnum'], { ...marketV1, side: 'HOLD', type: 'market' }, ['ORDER-SIDE-ENUM', 'ORDER-TYPE-ENUM']);
  order('v1', 'stpMode EXPIRE_BOTH (not in §2.1)', ['V1', 'BadEnum'], { ...limitV1, stpMode: 'EXPIRE_BOTH' }, ['ORDER-STP-MODE-ENUM']);
  order('v1', 'timeInForce that is no time-in-force at all', ['V1', 'BadEnum'], { ...limitV1, timeInForce: 'FOREVER' }, ['ORDER-TIME-IN-FORCE']);
  order('v1', 'timeInForce in lower case', ['V1', 'BadEnum'], { ...limitV1, timeInForce: 'gtc' }, ['ORDER-TIME-IN-FORCE']);
  order('v1', 'decimal string with many fraction digits', ['V1', 'DecimalsAsStrings'], { ...limitV1, quantity: '0.00000001', price: '12345678.12345678' });
  order('v1', 'decimal as a JSON number in exponent form (1e-7 is a JSON number)', ['V1', 'DecimalsAsNumbers'], { ...limitV1, quantity: 1e-7 });
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
    order('v1', `quantity malformed: ${what}`, ['V1', 'MalformedDecimal'], { ...limitV1, quantity: value }, ['ORDER-DECIMAL-FORMAT']);
  }
  order('v1', 'price malformed: hexadecimal string', ['V1', 'MalformedDecimal'], { ...limitV1, price: '0x10' }, ['ORDER-DECIMAL-FORMAT']);
  order('v1', 'quantity zero (decision D-DECIMALS: positive)', ['V1', 'MalformedDecimal', 'ReferenceChoice'], { ...limitV1, quantity: 0 }, ['ORDER-DECIMAL-FORMAT']);
  order('v1', 'price negative number', ['V1', 'MalformedDecimal'], { ...limitV1, price: -43000 }, ['ORDER-DECIMAL-FORMAT']);

  // newClientOrderId lengths (characters are code points).
  order('v1', 'newClientOrderId of 255 ASCII characters', ['V1', 'ClientIdLength', 'Boundary'], { ...limitV1, newClientOrderId: 'a'.repeat(255) });
  order('v1', 'newClientOrderId of 256 ASCII characters', ['V1', 'ClientIdLength', 'Boundary'], { ...limitV1, newClientOrderId: 'a'.repeat(256) }, [
    'ORDER-CLIENT-ID-LENGTH',
  ]);
  order('v1', 'newClientOrderId of 255 "é" (255 characters, 510 UTF-8 bytes)', ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'], {
    ...limitV1,
    newClientOrderId: 'é'.repeat(255),
  });
  order(
    'v1',
    'newClientOrderId of 255 emoji outside the BMP (255 characters, 510 UTF-16 code units, 1020 UTF-8 bytes)',
    ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'],
    { ...limitV1, newClientOrderId: '🚀'.repeat(255) },
  );
  order('v1', 'newClientOrderId of 256 emoji outside the BMP', ['V1', 'ClientIdLength', 'Boundary', 'NonAscii'], { ...limitV1, newClientOrderId: '🚀'.repeat(256) }, [
    'ORDER-CLIENT-ID-LENGTH',
  ]);
  order('v1', 'newClientOrderId of 1 character', ['V1', 'ClientIdLength'], { ...limitV1, newClientOrderId: 'x' });
  order('v1', 'newClientOrderId empty (reference: 1 to 255 characters)', ['V1', 'ClientIdLength', 'ReferenceChoice'], { ...limitV1, newClientOrderId: '' }, [
    'ORDER-CLIENT-ID-LENGTH',
  ]);
  order('v1', 'newClientOrderId as a JSON number instead of a string', ['V1', 'ClientIdLength', 'BadValue'], { ...limitV1, newClientOrderId: 12345 }, [
    'ORDER-CLIENT-ID-LENGTH',
  ]);

  // v1.1 single orders.
  const marketV11: Obj = { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', timestamp: TS };
  order('v1.1', 'v1.1 MARKET with quantity only', ['V11'], { ...marketV11, quantity: '0.5' });
  order('v1.1', 'v1.1 MARKET with amount only (reference: either suffices, decision D-V11-MARKET-SIZE)', ['V11', 'ReferenceChoice'], { ...marketV11, amount: '250.75' });
  order('v1.1', 'v1.1 MARKET with quantity and amount', ['V11'], { ...marketV11, quantity: '0.5', amount: '250.75' });
  order('v1.1', 'v1.1 MARKET with amount as a JSON number', ['V11', 'DecimalsAsNumbers'], { ...marketV11, amount: 250.75 });
  order('v1.1', 'v1.1 MARKET with neither quantity nor amount', ['V11', 'MissingField'], marketV11, ['ORDER-MARKET-SIZE-V11']);
  order('v1.1', 'v1.1 LIMIT with quantity and price', ['V11', 'DecimalsAsStrings'], { ...limitV1 });
  order('v1.1', 'v1.1 LIMIT without price', ['V11', 'MissingField'], without(limitV1, 'price'), ['ORDER-PRICE-REQUIRED-LIMIT']);
  order('v1.1', 'v1.1 LIMIT_MAKER without price', ['V11', 'MissingField'], without(makerV1, 'price'), ['ORDER-PRICE-REQUIRED-LIMIT']);
  order('v1.1', 'v1.1 LIMIT without quantity (reference requires it, decision D-V11-LIMIT-QUANTITY)', ['V11', 'MissingField', 'ReferenceChoice'], without(limitV1, 'quantity'), [
    'ORDER-QUANTITY-V11',
  ]);
  order('v1.1', 'v1.1 LIMIT_MAKER without price and quantity', ['V11', 'MissingField', 'ReferenceChoice'], without(makerV1, 'price', 'quantity'), [
    'ORDER-QUANTITY-V11',
    'ORDER-PRICE-REQUIRED-LIMIT',
  ]);
  order('v1.1', 'v1.1 LIMIT with amount (amount is for market orders only, decision D-AMOUNT-ELSEWHERE)', ['V11', 'ReferenceChoice'], { ...limitV1, amount: '10' }, [
    'ORDER-AMOUNT-MARKET-ONLY',
  ]);
  order('v1.1', 'v1.1 MARKET with a malformed amount', ['V11', 'MalformedDecimal'], { ...marketV11, amount: '12.5.1' }, ['ORDER-DECIMAL-FORMAT']);
  order('v1.1', 'v1.1 MARKET with bad side, bad stpMode', ['V11', 'BadEnum'], { ...marketV11, quantity: '1', side: 'SHORT', stpMode: 'NONE' }, [
    'ORDER-SIDE-ENUM',
    'ORDER-STP-MODE-ENUM',
  ]);
  order('v1.1', 'v1.1 order with a 256-character client id of mixed scripts', ['V11', 'ClientIdLength', 'Boundary', 'NonAscii'], {
    ...marketV11,
    quantity: '1',
    newClientOrderId: `${'ab'.repeat(100)}${'ü'.repeat(28)}${'😀'.repeat(28)}`,
  }, ['ORDER-CLIENT-ID-LENGTH']);

  // Batches (v1 rules per order).
  const strings = batchOrders(20, 'string');
  const numbers = batchOrders(20, 'number');
  batchCase('empty array (reference rejects it, decision D-EMPTY-BATCH)', ['Batch', 'BatchSize', 'ReferenceChoice'], [], ['BATCH-EMPTY']);
  batchCase('batch of 1 order', ['Batch', 'BatchSize'], strings.slice(0, 1));
  batchCase('batch of 20 orders, decimals as strings', ['Batch', 'BatchSize', 'Boundary', 'DecimalsAsStrings'], strings);
  batchCase('batch of 20 orders, decimals as numbers', ['Batch', 'BatchSize', 'Boundary', 'DecimalsAsNumbers'], numbers);
  batchCase('batch of 21 orders', ['Batch', 'BatchSize', 'Boundary'], [...strings, { ...strings[0], newClientOrderId: 'golden-batch-21' }], ['BATCH-MAX-ORDERS']);
  batchCase('batch mixing string and number decimals', ['Batch', 'DecimalsAsStrings', 'DecimalsAsNumbers'], [...strings.slice(0, 3), ...numbers.slice(3, 6)]);
  batchCase('batch with two symbols', ['Batch', 'MixedSymbols'], [strings[0], { ...strings[1], symbol: 'ETHUSDT' }], ['BATCH-SINGLE-SYMBOL']);
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
  batchCase('batch with an element that is not an object', ['Batch', 'BadOrderInBatch'], [strings[0], 'order'], ['BATCH-PER-ORDER-RULES']);
  batchCase('batch order without symbol (the others agree)', ['Batch', 'BadOrderInBatch', 'MissingField'], [strings[0], without(strings[1] as unknown as Obj, 'symbol')], [
    'ORDER-SYMBOL-REQUIRED',
  ]);
  batchCase('batch of MARKET orders (no price needed)', ['Batch'], [
    { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' },
    { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: 0.2, timeInForce: 'IOC' },
  ]);
  batchCase('batch order with a non-ASCII client id of 255 characters', ['Batch', 'ClientIdLength', 'Boundary', 'NonAscii'], [
    { ...strings[0], newClientOrderId: '注'.repeat(255) },
  ]);
  batchCase('body is a JSON object, not an array', ['Batch', 'NotArray'], strings[0], ['BATCH-JSON-BODY']);
  batchCase('body is a JSON object wrapping the orders', ['Batch', 'NotArray'], { orders: strings.slice(0, 2) }, ['BATCH-JSON-BODY']);
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
  'Generated by vectors/generate.ts; checked against vectors/schema/orders.schema.json by vectors/load.ts.',
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
  MalformedDecimal: 'A DECIMAL field is neither a positive JSON number nor a decimal string (digits, optional fraction).',
  DecimalsAsStrings: 'DECIMAL values are JSON strings.',
  DecimalsAsNumbers: 'DECIMAL values are JSON numbers.',
  ClientIdLength: 'Tests the length limit of newClientOrderId (up to 255 characters).',
  Boundary: 'The case sits on, or one past, a limit.',
  NonAscii: 'The input contains non-ASCII characters; lengths count code points, not bytes or UTF-16 units.',
  ReferenceChoice: 'The expectation follows a reference choice of spec/decisions.md for a point the seed leaves open.',
};

write<SigningVector>('signing', SIGNING_HEADER, SIGNING_NOTES, signingDrafts());
write<TimeWindowVector>('time-window', TIME_HEADER, TIME_NOTES, timeDrafts());
write<OrderVector>('orders', ORDERS_HEADER, ORDERS_NOTES, orderDrafts());
