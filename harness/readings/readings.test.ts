/**
 * The other readings (harness/readings/readings.ts) against spec/decisions.md: every open point
 * has at least one, each names only recorded decisions, and each one does what it says: a
 * request of its own (its witness) is answered otherwise through the reading than by the
 * reference alone. The kit's runs against them are harness/readings/matrix.test.ts.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { kitPath } from '../../src/paths.js';
import { sign } from '../../src/signing/hmac.js';
import { DEMO_READONLY_API_KEY, DEMO_READONLY_SECRET } from '../../src/server/credentials.js';
import { decisionRows } from '../../docs/lib/helpers.js';
import { startFront, type RunningFront } from './front.js';
import { READINGS, TIGHT_BODY_LIMIT, allTogether, reading } from './readings.js';

const DECISIONS = [...decisionRows(readFileSync(kitPath('spec', 'decisions.md'), 'utf8')).keys()];

describe('every open point of spec/decisions.md has its other reading', () => {
  it('each decision is read otherwise by at least one reading, and each reading names recorded decisions', () => {
    expect(DECISIONS.length).toBeGreaterThan(30);
    const read = new Set(READINGS.flatMap((r) => r.decisions));
    expect(DECISIONS.filter((d) => !read.has(d))).toEqual([]);
    expect([...read].filter((d) => !DECISIONS.includes(d))).toEqual([]);
  });

  it('reading IDs are unique, and all together takes one of each group', () => {
    expect(new Set(READINGS.map((r) => r.id)).size).toBe(READINGS.length);
    for (const seed of [1, 2, 3]) {
      const groups = allTogether(seed).flatMap((r) => (r.group === undefined ? [] : [r.group]));
      expect(new Set(groups).size).toBe(groups.length);
    }
  });
});

// ---------------------------------------------------------------- witnesses

interface Answer {
  status: number;
  type: string;
  text: string;
  json: Record<string, unknown> | undefined;
}

interface Call {
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
  /** Sign with this secret (default the demo key's); `false`: send the query as given. */
  secret?: string | false;
  apiKey?: string;
  /** The API-key header line as sent, blanks included. */
  rawKey?: string;
  /** A wrong signature. */
  wrongSignature?: boolean;
  /** The timestamp's age, ms (default 0). */
  age?: number;
}

const V1 = '/api/v1/spot/order';
const V11 = '/api/v1.1/spot/order';
const BATCH = '/api/v1/spot/batchOrders';
const LIMIT = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.1';
let n = 0;
const id = () => `w${Date.now().toString(36)}${(n++).toString(36)}`;
const order = (extra = '') =>
  `{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"0.1","newClientOrderId":"${id()}"${extra}}`;

/** Send one call to a front, signed as the seed says (§5.3): the query with a timestamp, then the body. */
async function call(front: RunningFront, c: Call): Promise<Answer> {
  const ts = Date.now() - (c.age ?? 0);
  const query =
    c.secret === false
      ? (c.query ?? '')
      : `${c.query === undefined || c.query === '' ? '' : `${c.query}&`}timestamp=${ts}`;
  const body = c.body ?? '';
  const json = c.path === BATCH;
  const sig = sign(c.secret === false || c.secret === undefined ? front.secret : c.secret, query + body);
  const signed =
    c.secret === false
      ? query
      : `${query}&signature=${c.wrongSignature === true ? sig.replace(/^./, (d) => (d === '0' ? '1' : '0')) : sig}`;
  const headers: Record<string, string> = {};
  if (body !== '')
    headers['content-type'] = c.contentType ?? (json ? 'application/json' : 'application/x-www-form-urlencoded');
  if (c.rawKey === undefined) headers['x-svc-apikey'] = c.apiKey ?? front.apiKey;
  if (c.rawKey !== undefined) return rawCall(front, c.path, signed, c.rawKey);
  const res = await request(`${front.url}${c.path}${signed === '' ? '' : `?${signed}`}`, {
    method: 'POST',
    headers,
    body,
  });
  const text = await res.body.text();
  return answerOf(res.statusCode, String(res.headers['content-type'] ?? ''), text);
}

function answerOf(status: number, type: string, text: string): Answer {
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status, type, text, json };
}

/** A request written by hand, so the API-key header line carries exactly `keyLine`'s blanks. */
function rawCall(front: RunningFront, path: string, query: string, keyLine: string): Promise<Answer> {
  const { port } = new URL(front.url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () =>
      s.write(
        `POST ${path}?${query} HTTP/1.1\r\nHost: x\r\nX-SVC-APIKEY:${keyLine}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      ),
    );
    let data = '';
    s.on('data', (d: Buffer) => {
      data += d.toString();
    });
    s.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0);
      resolve(answerOf(status, '', data.slice(data.indexOf('\r\n\r\n') + 4)));
    });
    s.on('error', reject);
  });
}

const entry = (a: Answer, i = 0): Record<string, unknown> =>
  ((a.json?.result as unknown[] | undefined)?.[i] as Record<string, unknown> | undefined) ?? {};
const orderOf = (a: Answer): Record<string, unknown> =>
  ((entry(a).order ?? a.json?.data ?? a.json) as Record<string, unknown> | undefined) ?? {};

/**
 * Per reading: the calls of its witness (the last one's answer compared) and what of the answer
 * differs from the reference's: the HTTP status unless told.
 */
const WITNESSES: Record<string, { calls: () => Call[]; show?: (a: Answer) => unknown }> = {
  'empty-optional-omitted': { calls: () => [{ path: V1, query: `${LIMIT}&stpMode=` }] },
  'undefined-fields-ignored': { calls: () => [{ path: V1, query: `${LIMIT}&amount=10` }] },
  'unknown-parameters-refused': { calls: () => [{ path: V1, query: `${LIMIT}&foo=1` }] },
  'duplicate-first-wins': { calls: () => [{ path: V1, query: `${LIMIT}&side=HOLD` }] },
  'duplicate-last-wins': { calls: () => [{ path: V1, query: `side=HOLD&${LIMIT}` }] },
  'names-case-insensitive': { calls: () => [{ path: V1, query: LIMIT.replace('side=', 'SIDE=') }] },
  'empty-pairs-refused': { calls: () => [{ path: V1, query: LIMIT.replace('&', '&&') }] },
  'malformed-escape-refused': { calls: () => [{ path: V1, query: `${LIMIT}&newClientOrderId=${id()}%ZZ` }] },
  'semicolon-refused': { calls: () => [{ path: V1, query: `${LIMIT}&newClientOrderId=${id()};x` }] },
  'long-lenient': { calls: () => [{ path: V1, query: `${LIMIT}&recvWindow=05000` }] },
  'json-first-wins': {
    calls: () => [{ path: BATCH, body: `[${order(',"side":"HOLD"')}]` }],
    show: (a) => entry(a).code,
  },
  'json-lenient': { calls: () => [{ path: BATCH, body: `[${order()},]` }] },
  'json-scalars-as-text': {
    calls: () => [
      { path: BATCH, body: `[${order().replace(/"newClientOrderId":"[^"]*"/, `"newClientOrderId":${Date.now()}`)}]` },
    ],
    show: (a) => entry(a).code,
  },
  'symbol-case-folded': {
    calls: () => [{ path: V1, query: LIMIT.replace('BTCUSDT', 'btcusdt') }],
    show: (a) => orderOf(a).symbol,
  },
  'header-blanks-dropped': { calls: () => [{ path: V1, query: LIMIT, rawKey: '  spotcheck-demo-key ' }] },
  'client-id-utf16-units': {
    calls: () => [{ path: V1, query: `${LIMIT}&newClientOrderId=${encodeURIComponent(`${id()}${'😀'.repeat(200)}`)}` }],
  },
  'recvwindow-max-10000': { calls: () => [{ path: V1, query: `${LIMIT}&recvWindow=20000` }] },
  'recvwindow-unbounded': { calls: () => [{ path: V1, query: `${LIMIT}&recvWindow=70000` }] },
  'decimals-range-refused': {
    calls: () => [{ path: V1, query: LIMIT.replace('quantity=1', 'quantity=18446744073709551621') }],
  },
  'decimals-exponent-accepted': { calls: () => [{ path: V1, query: LIMIT.replace('quantity=1', 'quantity=1e3') }] },
  'decimals-exponent-refused': {
    calls: () => [{ path: BATCH, body: `[${order().replace('"quantity":"1"', '"quantity":1E2')}]` }],
  },
  'json-numbers-as-doubles': {
    calls: () => [{ path: BATCH, body: `[${order().replace('"quantity":"1"', '"quantity":9007199254740993')}]` }],
    show: (a) => orderOf(a).origQty,
  },
  'market-needs-both': { calls: () => [{ path: V11, query: 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1' }] },
  'market-quantity-only': { calls: () => [{ path: V11, query: 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=10' }] },
  'market-amount-only': { calls: () => [{ path: V11, query: 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1' }] },
  'v11-limit-without-quantity': { calls: () => [{ path: V11, query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&price=0.1' }] },
  'tif-strict': { calls: () => [{ path: V1, query: `${LIMIT}&timeInForce=FOK` }] },
  'time-before-signature': {
    calls: () => [{ path: V1, query: LIMIT, wrongSignature: true, age: 3_600_000 }],
    show: (a) => a.json?.code,
  },
  'validation-before-signature': {
    calls: () => [{ path: V1, query: LIMIT.replace('side=BUY', 'side=HOLD'), wrongSignature: true }],
    show: (a) => a.json?.code,
  },
  'duplicate-client-id-allowed': {
    calls: () => {
      const same = id();
      return [
        { path: V1, query: `${LIMIT}&newClientOrderId=${same}` },
        { path: V1, query: `${LIMIT}&newClientOrderId=${same}` },
      ];
    },
  },
  'empty-batch-accepted': { calls: () => [{ path: BATCH, body: '[]' }] },
  'content-type-ignored': { calls: () => [{ path: V1, body: LIMIT, contentType: 'text/plain' }] },
  'openapi-prefix-served': { calls: () => [{ path: '/openapi/v1/order', query: LIMIT }] },
  'json-depth-3': { calls: () => [{ path: BATCH, body: `[${order(',"x":[[1]]')}]` }] },
  'body-limit-tight': {
    calls: () => [{ path: BATCH, body: `[${order(`,"x":"${'y'.repeat(TIGHT_BODY_LIMIT)}"`)}]` }],
  },
  'store-small': {
    calls: () => {
      const first = id();
      const fill = Array.from({ length: 11 }, () => ({
        path: BATCH,
        body: `[${Array.from({ length: 20 }, () => order()).join(',')}]`,
      }));
      return [
        { path: V1, query: `${LIMIT}&newClientOrderId=${first}` },
        ...fill,
        { path: V1, query: `${LIMIT}&newClientOrderId=${first}` },
      ];
    },
  },
  'batch-all-or-nothing': {
    calls: () => [{ path: BATCH, body: `[${order()},${order().replace('"BUY"', '"HOLD"')}]` }],
  },
  'errors-as-200': { calls: () => [{ path: V1, query: LIMIT, wrongSignature: true }] },
  'front-html-pages': { calls: () => [{ path: '/nowhere', query: '', secret: false }], show: (a) => a.type },
  'own-codes': { calls: () => [{ path: V1, query: LIMIT, wrongSignature: true }], show: (a) => a.json?.code },
  'permission-401': {
    calls: () => [{ path: V1, query: LIMIT, apiKey: DEMO_READONLY_API_KEY, secret: DEMO_READONLY_SECRET }],
  },
  'top-code-when-all-failed': {
    calls: () => [{ path: BATCH, body: `[${order().replace('"BUY"', '"HOLD"')}]` }],
    show: (a) => a.json?.code,
  },
  'failed-entries-echo-order': {
    calls: () => [{ path: BATCH, body: `[${order().replace('"BUY"', '"HOLD"')}]` }],
    show: (a) => entry(a).order !== undefined,
  },
  'stp-top-level': { calls: () => [{ path: BATCH, body: `[${order()}]` }], show: (a) => entry(a).stpMode },
  'status-pending': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => orderOf(a).status },
  'entry-msg-empty': { calls: () => [{ path: BATCH, body: `[${order()}]` }], show: (a) => entry(a).msg },
  'wire-numbers-json': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => typeof orderOf(a).orderId },
  'decimals-normalised': {
    calls: () => [{ path: V1, query: LIMIT.replace('price=0.1', 'price=0.10') }],
    show: (a) => orderOf(a).price,
  },
  'decimals-padded': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => orderOf(a).price },
  'keys-reordered-nulls-omitted': {
    calls: () => [{ path: V1, query: 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1' }],
    show: (a) => Object.keys(orderOf(a)).join(','),
  },
  'order-ids-own': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => String(orderOf(a).orderId).length },
  'single-answer-wrapped': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => a.json?.data !== undefined },
  'single-answer-bare': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => a.json?.code },
  'codes-as-decimals': { calls: () => [{ path: V1, query: LIMIT }], show: (a) => /"code":0[,}]/.test(a.text) },
  'connection-cap-low': { calls: () => [] },
};

async function witness(front: RunningFront, calls: readonly Call[]): Promise<Answer> {
  let last: Answer | undefined;
  for (const c of calls) last = await call(front, c);
  if (last === undefined) throw new Error('a witness sends at least one call');
  return last;
}

/** Hold `count` connections open, then send one request on a new one: its status. */
async function overTheCap(front: RunningFront, count: number): Promise<number> {
  const { port } = new URL(front.url);
  const held: Socket[] = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const s = connect(Number(port), '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  try {
    await new Promise((r) => setTimeout(r, 50));
    return (await call(front, { path: V1, query: LIMIT })).status;
  } finally {
    for (const s of held) s.destroy();
  }
}

describe('each reading does what it says: its witness is answered otherwise than by the reference', () => {
  let base: RunningFront;
  beforeAll(async () => {
    base = await startFront([]);
  });
  afterAll(async () => {
    await base.close();
  });

  it('every reading has a witness', () => {
    expect(READINGS.map((r) => r.id).filter((r) => WITNESSES[r] === undefined)).toEqual([]);
  });

  for (const r of READINGS) {
    it(`${r.id}: ${r.summary}`, async () => {
      const front = await startFront([reading(r.id)]);
      try {
        if (r.id === 'connection-cap-low') {
          expect(await overTheCap(base, 30)).toBe(200);
          expect(await overTheCap(front, 30)).toBe(503);
          return;
        }
        const w = WITNESSES[r.id];
        if (w === undefined) throw new Error(`no witness for ${r.id}`);
        const show = w.show ?? ((a: Answer) => a.status);
        const plain = show(await witness(base, w.calls()));
        const read = show(await witness(front, w.calls()));
        expect(read, `${r.id}: the reference gave ${JSON.stringify(plain)}`).not.toEqual(plain);
      } finally {
        await front.close();
      }
    });
  }
});

describe('the tight body limit is just above the largest valid request in its longest usual spelling', () => {
  it('the largest batch spelt as json.dumps writes it fits under the limit, with less than 5 KiB to spare', async () => {
    const { largestBatchEscaped } = await import('../../conformance/judgement/domain.js');
    const { clientIdSource } = await import('../../conformance/engine/generators.js');
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' };
    for (const seed of [1, 99999, 2 ** 31 - 1]) {
      const size = Buffer.byteLength(largestBatchEscaped(order, clientIdSource(seed)));
      expect(size).toBeLessThan(TIGHT_BODY_LIMIT);
      expect(size).toBeGreaterThan(TIGHT_BODY_LIMIT - 5 * 1024);
    }
  });
});
