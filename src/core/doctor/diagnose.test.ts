import { createHmac } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { sign } from '../../signing/hmac.js';
import {
  candidates,
  diagnose,
  diagnoseAsync,
  DIFFERENCE_CLOSE,
  DIFFERENCE_OPEN,
  firstDifference,
  firstDifferenceLines,
  DOCTOR_SENTENCES,
  SEARCH_BUDGET_CHARS,
  type DoctorRequest,
  type DoctorCode,
} from './diagnose.js';
import { webCryptoHmac } from '../signing/webcrypto.js';
import { withoutSignature } from '../signing/query.js';
import { signedBody } from '../signing/total-params.js';

const SECRET = 'doctor-test-secret-0123456789';
const Q = 'symbol=BTC-USDT&side=BUY&timestamp=1700000000000';
const B = 'quantity=1.5&price=30000&note=a%20b';
const JSON_SENT = '[{"symbol":"BTC-USDT","price":1.0,"id":"café"}]';

function sent(
  query: string,
  body: string,
  clientSigned: string,
  kind: DoctorRequest['bodyKind'] = 'form',
): DoctorRequest {
  return { query, body, bodyKind: kind, signature: sign(SECRET, clientSigned) };
}

const cases: Array<[DoctorCode, DoctorRequest]> = [
  ['BODY_NOT_SIGNED', sent(Q, B, Q)],
  ['QUERY_NOT_SIGNED', sent(Q, B, B)],
  ['SEPARATOR_INSERTED', sent(Q, B, `${Q}&${B}`)],
  [
    'SIGNATURE_PARAM_SIGNED',
    { query: `${Q}&signature=${sign(SECRET, `${Q}&signature=`)}`, body: '', bodyKind: 'none' },
  ],
  ['PARAMS_REORDERED', sent(Q, '', 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000', 'none')],
  ['PARAMS_REORDERED', sent(Q, B, B + Q)],
  ['SIGNED_BEFORE_ENCODING', sent(`${Q}&note=a%20b`, '', `${Q}&note=a b`, 'none')],
  ['ENCODING_MISMATCH', sent(`${Q}&note=a%20b%21`, '', `${Q}&note=a%20b!`, 'none')],
  ['JSON_RESERIALISED', sent(Q, '{ "a": 1 }', `${Q}{"a":1}`, 'json')],
  [
    'OTHER_TIMESTAMP',
    { ...sent(Q, '', Q.replace('1700000000000', '1699999999000'), 'none'), otherTimestamps: ['1699999999000'] },
  ],
  ['UNKNOWN', sent(Q, B, 'something else')],
  ['SEPARATOR_INSERTED', sent('', B, `&${B}`)],
  ['SPACE_SIGNED_AS_PLUS', sent(Q, B, `${Q}quantity=1.5&price=30000&note=a+b`)],
  [
    'LOWERCASE_ESCAPES_SIGNED',
    sent(`${Q}&newClientOrderId=a%2Cb%C3%A9`, '', `${Q}&newClientOrderId=a%2cb%c3%a9`, 'none'),
  ],
  ['SIGNED_DOUBLE_ENCODED', sent(`${Q}&newClientOrderId=a%20b`, '', `${Q}&newClientOrderId=a%2520b`, 'none')],
  [
    'JSON_SIGNED_WITH_SPACES',
    sent(Q, JSON_SENT, `${Q}[{"symbol": "BTC-USDT", "price": 1.0, "id": "caf\\u00e9"}]`, 'json'),
  ],
  ['JSON_SIGNED_WITH_SPACES', sent(Q, JSON_SENT, `${Q}[{"symbol": "BTC-USDT", "price": 1.0, "id": "café"}]`, 'json')],
  ['JSON_KEYS_SORTED', sent(Q, JSON_SENT, `${Q}[{"id":"café","price":1.0,"symbol":"BTC-USDT"}]`, 'json')],
  ['PATH_SIGNED', { ...sent(Q, B, `/api/v1/spot/order?${Q}${B}`), path: '/api/v1/spot/order' }],
  ['PATH_SIGNED', { ...sent(Q, B, `POST/api/v1/spot/order${Q}${B}`), method: 'POST', path: '/api/v1/spot/order' }],
  [
    'SIGNATURE_BASE64',
    { query: Q, body: B, bodyKind: 'form', signature: Buffer.from(sign(SECRET, Q + B), 'hex').toString('base64') },
  ],
  [
    'API_KEY_AS_SECRET',
    { query: Q, body: B, bodyKind: 'form', signature: sign('the-api-key', Q + B), apiKey: 'the-api-key' },
  ],
  // The API key as HMAC key is tried over the server's string only: with another mistake it is beyond the search.
  ['UNKNOWN', { query: Q, body: B, bodyKind: 'form', signature: sign('the-api-key', Q), apiKey: 'the-api-key' }],
  // The path is tried alone: with another mistake it is beyond the search.
  [
    'UNKNOWN',
    {
      ...sent(Q, '', `/api/v1/spot/order?side=BUY&symbol=BTC-USDT&timestamp=1700000000000`, 'none'),
      path: '/api/v1/spot/order',
    },
  ],
  // The signed text followed by a line ending (echo without -n, a text template).
  ['TRAILING_NEWLINE_SIGNED', sent(Q, B, `${Q}${B}\n`)],
  ['TRAILING_NEWLINE_SIGNED', sent(Q, JSON_SENT, `${Q}${JSON_SENT}\r\n`, 'json')],
  ['TRAILING_NEWLINE_SIGNED', sent(Q, '', `${Q}\n`, 'none')],
  // A JSON body signed before the query string (body + query).
  ['PARAMS_REORDERED', sent(Q, JSON_SENT, JSON_SENT + Q, 'json')],
  // A value whose only special character is `'`: the text signed is a valid encoding, so the stack re-encoded it.
  ['ENCODING_MISMATCH', sent(`${Q}&newClientOrderId=it%27s`, '', `${Q}&newClientOrderId=it's`, 'none')],
  // Double-encoded on the wire: the client signed `%20`, its stack encoded the `%` again.
  ['ENCODING_MISMATCH', sent(`${Q}&newClientOrderId=a%2520b`, '', `${Q}&newClientOrderId=a%20b`, 'none')],
];

describe('diagnose (§5.3)', () => {
  it.each(cases)('names %s', (code, req) => {
    const d = diagnose(req, SECRET, sign);
    expect(d?.code).toBe(code);
    expect(JSON.stringify(d)).not.toContain(SECRET);
    if (code !== 'UNKNOWN') expect(d?.firstDifference ?? d?.clientSigned).toBeDefined();
  });

  it('never diagnoses a correctly signed request', () => {
    const pair = fc
      .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[A-Za-z0-9%.-]{0,8}$/))
      .map(([k, v]) => `${k}=${v}`);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 5 }), fc.array(pair, { maxLength: 5 }), (qs, bs) => {
        const q = qs.join('&');
        const b = bs.join('&');
        const kind = b === '' ? 'none' : 'form';
        expect(
          diagnose({ query: q, body: b, bodyKind: kind, signature: sign(SECRET, q + b) }, SECRET, sign),
        ).toBeNull();
      }),
    );
  });

  it('marks the first difference', () => {
    expect(firstDifference('abc', 'abd')).toEqual({
      index: 2,
      server: 'ab⟦c⟧',
      client: 'ab⟦d⟧',
      serverChar: '"c" (U+0063)',
      clientChar: '"d" (U+0064)',
    });
    expect(firstDifference('abc', 'abc')).toBeUndefined();
  });

  it('marks a differing bracket readably: the marks are never characters of a query string or a JSON body', () => {
    // the batch body signed with and without its opening bracket, and a query against a body
    const d = firstDifference('timestamp=1[{"symbol":"BTCUSDT"}]', 'timestamp=1&[{"symbol":"BTCUSDT"}]');
    expect(d?.server).toBe('timestamp=1⟦[⟧{"symbol":"BTCUS');
    expect(d?.client).toBe('timestamp=1⟦&⟧[{"symbol":"BTCU');
    expect(firstDifferenceLines(d as NonNullable<typeof d>)).toEqual([
      'first difference at index 11: the server signed "[" (U+005B), the client "&" (U+0026):',
      '  server timestamp=1⟦[⟧{"symbol":"BTCUS',
      '  client timestamp=1⟦&⟧[{"symbol":"BTCU',
    ]);
    for (const c of ['[', ']', '<', '>', '{', '}', '(', ')']) {
      const m = firstDifference(`a=${c}`, 'a=x');
      // exactly one pair of marks, around the differing character, whatever it is
      expect(m?.server).toBe(`a=${DIFFERENCE_OPEN}${c}${DIFFERENCE_CLOSE}`);
      expect(m?.server.split(DIFFERENCE_OPEN)).toHaveLength(2);
    }
    // the shorter side ends there: nothing between the marks, and said in words
    expect(firstDifference('a=1', 'a=1&b=2')).toMatchObject({
      server: 'a=1⟦⟧',
      client: 'a=1⟦&⟧b=2',
      serverChar: 'the end of the text',
      clientChar: '"&" (U+0026)',
    });
  });
});

/** HMAC-SHA256 hex by node:crypto itself, independent of the kit's signer. */
const mac = (message: string): string => createHmac('sha256', SECRET).update(message, 'utf8').digest('hex');
const SORTED_Q = 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000';
const SORTED_B = 'note=a%20b&price=30000&quantity=1.5';
const Q_ENC = `${Q}&newClientOrderId=my%20order`;

/** Requests whose signature was made over a string holding two mistakes: [primary, also, request]. */
const pairs: Array<[DoctorCode, DoctorCode, DoctorRequest]> = [
  [
    'PARAMS_REORDERED',
    'SEPARATOR_INSERTED',
    { query: Q, body: B, bodyKind: 'form', signature: mac(`${SORTED_Q}&${SORTED_B}`) },
  ],
  ['PARAMS_REORDERED', 'SEPARATOR_INSERTED', { query: Q, body: B, bodyKind: 'form', signature: mac(`${B}&${Q}`) }],
  [
    'SIGNATURE_PARAM_SIGNED',
    'BODY_NOT_SIGNED',
    { query: `${Q}&signature=${mac(`${Q}&signature=`)}`, body: B, bodyKind: 'form' },
  ],
  [
    'SIGNED_BEFORE_ENCODING',
    'SEPARATOR_INSERTED',
    {
      query: Q_ENC,
      body: B,
      bodyKind: 'form',
      signature: mac(`${Q}&newClientOrderId=my order&quantity=1.5&price=30000&note=a b`),
    },
  ],
  [
    'JSON_RESERIALISED',
    'SEPARATOR_INSERTED',
    { query: Q, body: '{ "a": 1, "b": [2] }', bodyKind: 'json', signature: mac(`${Q}&{"a":1,"b":[2]}`) },
  ],
  [
    'OTHER_TIMESTAMP',
    'BODY_NOT_SIGNED',
    {
      query: Q,
      body: B,
      bodyKind: 'form',
      signature: mac(Q.replace('1700000000000', '1699999999000')),
      otherTimestamps: ['1699999999000'],
    },
  ],
  [
    'OTHER_TIMESTAMP',
    'PARAMS_REORDERED',
    {
      query: Q,
      body: '',
      bodyKind: 'none',
      signature: mac(SORTED_Q.replace('1700000000000', '1699999999000')),
      otherTimestamps: ['1699999999000'],
    },
  ],
  [
    'ENCODING_MISMATCH',
    'QUERY_NOT_SIGNED',
    { query: Q, body: 'quantity=1.5&note=a%20b%21', bodyKind: 'form', signature: mac('quantity=1.5&note=a%20b!') },
  ],
  // Python's json.dumps(..., sort_keys=True): default separators and sorted keys.
  [
    'JSON_SIGNED_WITH_SPACES',
    'JSON_KEYS_SORTED',
    { query: Q, body: '{"b":1,"a":[2,3]}', bodyKind: 'json', signature: mac(`${Q}{"a": [2, 3], "b": 1}`) },
  ],
  [
    'SIGNATURE_BASE64',
    'SEPARATOR_INSERTED',
    { query: Q, body: B, bodyKind: 'form', signature: Buffer.from(mac(`${Q}&${B}`), 'hex').toString('base64') },
  ],
  [
    'SIGNATURE_BASE64',
    'API_KEY_AS_SECRET',
    {
      query: Q,
      body: B,
      bodyKind: 'form',
      signature: Buffer.from(sign('the-api-key', Q + B), 'hex').toString('base64url'),
      apiKey: 'the-api-key',
    },
  ],
];

describe('diagnose: two mistakes combined (§5.3)', () => {
  it.each(pairs)('names %s also %s', (code, also, req) => {
    const d = diagnose(req, SECRET, sign);
    expect(d).toMatchObject({ code, also: [also] });
    expect(d?.sentence).toBe(`${DOCTOR_SENTENCES[code]} Also: ${DOCTOR_SENTENCES[also]}`);
    expect(d?.clientSigned).toBeDefined();
    // Only the key or the signature's form wrong: the strings are the same, no difference to mark.
    if (d?.clientSigned !== d?.serverSigned) expect(d?.firstDifference).toBeDefined();
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it('does not report a pair when the signature matches a single mistake', () => {
    // Parameters already sorted: "sorted + `&` inserted" is the same string as "`&` inserted" alone.
    const d = diagnose(
      { query: SORTED_Q, body: SORTED_B, bodyKind: 'form', signature: mac(`${SORTED_Q}&${SORTED_B}`) },
      SECRET,
      sign,
    );
    expect(d?.code).toBe('SEPARATOR_INSERTED');
    expect(d).not.toHaveProperty('also');
    expect(d?.sentence).toBe(DOCTOR_SENTENCES.SEPARATOR_INSERTED);
  });

  const pair = fc
    .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[A-Za-z0-9%!:/ .-]{0,8}$/))
    .map(([k, v]) => `${k}=${v}`);
  const request = fc
    .record({
      qs: fc.array(pair, { maxLength: 4 }),
      bs: fc.array(pair, { maxLength: 4 }),
      kind: fc.constantFrom<DoctorRequest['bodyKind']>('form', 'json', 'none'),
      ts: fc.boolean(),
      sig: fc.boolean(),
    })
    .map(
      ({ qs, bs, kind, ts, sig }): DoctorRequest => ({
        query: [
          ...qs,
          ...(ts ? ['timestamp=1700000000000'] : []),
          ...(sig ? [`signature=${'ab'.repeat(32)}`] : []),
        ].join('&'),
        body: kind === 'form' ? bs.join('&') : kind === 'json' ? JSON.stringify({ n: bs.length, s: bs }, null, 1) : '',
        bodyKind: kind,
        ...(ts ? { otherTimestamps: ['1699999999000'] } : {}),
      }),
    );

  it('names every single mistake as itself, never with `also` (property)', () => {
    fc.assert(
      fc.property(request, (req) => {
        for (const [code, text, also] of candidates(req)) {
          if (also !== undefined) continue;
          const d = diagnose({ ...req, signature: mac(text) }, SECRET, sign);
          expect(d?.code).toBe(code);
          expect(d).not.toHaveProperty('also');
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the candidates unique and bounded, single mistakes first, and names every pair (property)', () => {
    fc.assert(
      fc.property(request, (req) => {
        const all = candidates(req);
        expect(new Set(all.map(([, t]) => t)).size).toBe(all.length);
        expect(all.map(([, t]) => t)).not.toContain(withoutSignature(req.query) + signedBody(req.body, req.bodyKind));
        const firstPair = all.findIndex(([, , also]) => also !== undefined);
        if (firstPair !== -1) expect(all.slice(firstPair).every(([, , also]) => also !== undefined)).toBe(true);
        // bounded by the text budget (the documented bound), and the fixed lists keep the count small:
        // 20,000 random requests of this shape gave at most 90 candidates (80 was once reached in a run)
        expect(all.reduce((n, [, t]) => n + t.length, 0)).toBeLessThanOrEqual(SEARCH_BUDGET_CHARS);
        expect(all.length).toBeLessThan(150);
        for (const [code, text, also] of all.slice(Math.max(firstPair, 0))) {
          if (also === undefined) continue;
          expect(also).toHaveLength(1);
          expect(also[0]).not.toBe(code);
          expect(diagnose({ ...req, signature: mac(text) }, SECRET, sign)).toMatchObject({ code, also });
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('diagnoseAsync (§5.3)', () => {
  it('names the same code as diagnose with an asynchronous HMAC (Web Crypto)', async () => {
    for (const [code, req] of cases) expect((await diagnoseAsync(req, SECRET, webCryptoHmac))?.code).toBe(code);
    for (const [code, also, req] of pairs)
      expect(await diagnoseAsync(req, SECRET, webCryptoHmac)).toMatchObject({ code, also: [also] });
    expect(
      await diagnoseAsync(
        { query: Q, body: B, bodyKind: 'form', signature: sign(SECRET, Q + B) },
        SECRET,
        webCryptoHmac,
      ),
    ).toBeNull();
  });
});

describe('diagnose: the search is bounded by the text it signs (§5.3, D-BODY-LIMIT)', () => {
  const big = JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '2',
      newClientOrderId: `id-${i}-café`,
    })),
  );
  const req = (clientSigned: string): DoctorRequest => ({
    query: Q,
    body: big,
    bodyKind: 'json',
    signature: mac(clientSigned),
  });

  it('signs at most the budget for a 64 KiB-class body, single mistakes first', () => {
    expect(big.length).toBeGreaterThan(40_000);
    const all = candidates(req(''));
    expect(all.reduce((n, [, t]) => n + t.length, 0)).toBeLessThanOrEqual(SEARCH_BUDGET_CHARS);
    expect(all.length).toBeGreaterThan(0);
    expect(all.every(([, , also]) => also === undefined)).toBe(true);
  });

  it('still names the likeliest single mistake on such a body, and a correct one is never diagnosed', () => {
    expect(diagnose(req(Q), SECRET, sign)?.code).toBe('BODY_NOT_SIGNED');
    expect(diagnose(req(Q + big), SECRET, sign)).toBeNull();
  });

  it('keeps every single mistake and pair of a batch of 20 typical orders (the most a batch holds, §4.1)', () => {
    const batch = JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.0105',
        price: '43250.5',
        timeInForce: 'GTC',
        newClientOrderId: `ordre-${i}-café`,
      })),
    );
    const all = candidates({
      query: 'recvWindow=5000&timestamp=1700000000000',
      body: batch,
      bodyKind: 'json',
      path: '/api/v1/spot/batchOrders',
    });
    const pairs = all.filter(([, , also]) => also !== undefined);
    expect(pairs.length).toBeGreaterThan(0);
    // near-timestamp guesses come after every pair and the search stops at the first over budget: one present means all pairs are
    expect(all.some(([code, t]) => code === 'OTHER_TIMESTAMP' && t.includes('timestamp=1700000000001'))).toBe(true);
  });
});
