import { describe, expect, it } from 'vitest';
import { buildRequest, type RequestSpec } from '../../src/core/request.js';
import { sign } from '../../src/signing/hmac.js';
import {
  bytesKey,
  contentKey,
  encodingFault,
  factsOf,
  gradeRequest,
  type ClientRuleId,
  type GradeContext,
  type RecordedRequest,
} from './rules.js';

const KEY = 'grade-key';
const SECRET = 'grade-secret-0123456789';
const NOW = 1_700_000_000_000;

function recorded(spec: Partial<RequestSpec> & Pick<RequestSpec, 'endpoint' | 'params'>, at = NOW): RecordedRequest {
  const b = buildRequest(sign, { secret: SECRET, apiKey: KEY, ...spec });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.request.headers)) headers[k.toLowerCase()] = v;
  return {
    seq: 1,
    receivedAt: at,
    method: 'POST',
    path: b.request.path,
    query: b.request.query,
    body: b.request.body,
    headers,
  };
}

const ctx = (over: Partial<GradeContext> = {}): GradeContext => ({
  apiKey: KEY,
  secret: SECRET,
  seenBytes: new Map(),
  seenContent: new Map(),
  placedIds: new Set(),
  idFields: new Map(),
  ...over,
});

const LIMIT: Array<[string, string]> = [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '0.5'],
  ['price', '30000'],
  ['newClientOrderId', 'order-1'],
  ['timestamp', String(NOW)],
];

function broken(r: RecordedRequest, c = ctx()): ClientRuleId[] {
  return gradeRequest(r, factsOf(r), c)
    .filter((x) => !x.kept)
    .map((x) => x.rule);
}

describe('client rules (§2.1, §4.1, §5.2-§5.4)', () => {
  it('keeps every rule for a request built by the library signer, in each placement', () => {
    for (const placement of ['query', 'body', 'split'] as const) {
      const r = recorded({ endpoint: 'v1', params: LIMIT, placement });
      expect(broken(r)).toEqual([]);
      expect(factsOf(r).placement).toBe(placement);
    }
  });

  it('names a wrong signature with the doctor (BODY_NOT_SIGNED)', () => {
    const r = recorded({
      endpoint: 'v1',
      params: LIMIT,
      placement: 'split',
      defects: { signedString: (_tp, q) => q },
    });
    const res = gradeRequest(r, factsOf(r), ctx()).find((x) => x.rule === 'CLIENT-SIGNATURE');
    expect(res?.kept).toBe(false);
    expect(res?.diagnosis?.code).toBe('BODY_NOT_SIGNED');
  });

  it('breaks the API-key, Content-Type, timestamp and recvWindow rules one at a time', () => {
    expect(broken(recorded({ endpoint: 'v1', params: LIMIT, apiKey: null }))).toEqual(['CLIENT-APIKEY-HEADER']);
    expect(
      broken(recorded({ endpoint: 'v1', params: LIMIT, placement: 'body', headers: { 'content-type': 'text/plain' } })),
    ).toEqual(['CLIENT-CONTENT-TYPE']);
    expect(broken(recorded({ endpoint: 'v1', params: LIMIT }, NOW + 6000))).toEqual(['CLIENT-TIMESTAMP']);
    expect(broken(recorded({ endpoint: 'v1', params: LIMIT }, NOW - 1000))).toEqual(['CLIENT-TIMESTAMP']);
    expect(broken(recorded({ endpoint: 'v1', params: [...LIMIT, ['recvWindow', '60000']] }))).toEqual([
      'CLIENT-RECVWINDOW',
    ]);
    expect(broken(recorded({ endpoint: 'v1', params: [...LIMIT, ['recvWindow', '5000']] }))).toEqual([]);
    const capped = recorded({ endpoint: 'v1', params: [...LIMIT, ['recvWindow', '3000']] });
    expect(broken(capped, ctx({ recvWindowCap: 2000 }))).toEqual(['CLIENT-RECVWINDOW']);
    expect(
      gradeRequest(capped, factsOf(capped), ctx({ recvWindowCap: 2000 })).find((x) => x.rule === 'CLIENT-RECVWINDOW')
        ?.detail,
    ).toContain('declared cap of 2000');
  });

  it('finds a replay by its bytes and a re-signed retry by its content', () => {
    const r = recorded({ endpoint: 'v1', params: LIMIT });
    const f = factsOf(r);
    expect(broken(r, ctx({ seenBytes: new Map([[bytesKey(r), 1]]) }))).toEqual(['CLIENT-RETRY-RESIGNED']);
    const later = recorded(
      { endpoint: 'v1', params: LIMIT.map(([k, v]) => [k, k === 'timestamp' ? String(NOW + 5) : v]) },
      NOW + 5,
    );
    expect(contentKey(later, factsOf(later))).toBe(contentKey(r, f));
    const res = gradeRequest(later, factsOf(later), ctx({ seenContent: new Map([[contentKey(r, f), 1]]) }));
    expect(res.find((x) => x.rule === 'CLIENT-RETRY-RESIGNED')?.kept).toBe(true);
  });

  it('breaks client-id uniqueness on a reused or placed id, and the length rule past 255', () => {
    const r = recorded({ endpoint: 'v1', params: LIMIT });
    expect(broken(r, ctx({ placedIds: new Set(['order-1']) }))).toEqual(['CLIENT-ID-UNIQUE']);
    expect(broken(r, ctx({ idFields: new Map([['order-1', 'another order']]) }))).toEqual(['CLIENT-ID-UNIQUE']);
    const long = recorded({
      endpoint: 'v1',
      params: LIMIT.map(([k, v]) => [k, k === 'newClientOrderId' ? 'x'.repeat(256) : v]),
    });
    expect(broken(long)).toEqual(['CLIENT-ID-LENGTH']);
  });

  it('grades batches: size, one symbol, decimals, time in the query, duplicate ids', () => {
    const order = (i: number, symbol = 'BTCUSDT', price: unknown = '30000') => ({
      symbol,
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price,
      newClientOrderId: `b-${i}`,
    });
    const batch = (orders: unknown[]) =>
      recorded({ endpoint: 'batch', params: [['timestamp', String(NOW)]], jsonText: JSON.stringify(orders) });
    expect(broken(batch(Array.from({ length: 20 }, (_, i) => order(i))))).toEqual([]);
    expect(broken(batch(Array.from({ length: 21 }, (_, i) => order(i))))).toEqual(['CLIENT-BATCH-SIZE']);
    expect(broken(batch([order(1), order(2, 'ETHUSDT')]))).toEqual(['CLIENT-BATCH-ONE-SYMBOL']);
    expect(broken(batch([order(1), order(2, 'BTCUSDT', '1e-7')]))).toEqual(['CLIENT-DECIMAL-FORM']);
    expect(broken(batch([order(1), order(1)]))).toEqual(['CLIENT-ID-UNIQUE']);
  });

  it('names encoding faults and leaves clean encodings alone', () => {
    expect(encodingFault('a=1&b=x%20y', 'query string')).toBeUndefined();
    expect(encodingFault('a=1&b=x y', 'query string')).toContain('unencoded " "');
    expect(encodingFault('a=1&b=50%', 'query string')).toContain('malformed escape');
    expect(encodingFault('a=1&&b=2', 'query string')).toContain('empty segment');
  });
});
