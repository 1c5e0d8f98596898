import { describe, expect, it } from 'vitest';
import { quantile, summariseTraffic, timeProbeOf } from './traffic.js';
import type { Exchange } from './transport.js';

const exchange = (over: Partial<Exchange>): Exchange => ({
  request: {
    method: 'POST',
    path: '/api/v1/spot/batchOrders',
    query: 'timestamp=1&recvWindow=3000&signature=ab',
    body: '[{"recvWindow":"9"}]',
    headers: {},
  },
  observation: { verdict: 'accepted' },
  timestampShiftMs: 1250,
  route: { endpoint: 'batch', placement: 'json' },
  ...over,
});

describe('timeProbeOf', () => {
  it('places the timestamp against the server clock estimate and reads recvWindow from the query', () => {
    expect(timeProbeOf(exchange({}), 250)).toEqual({
      offsetMs: 1000,
      recvWindow: 3000,
      route: 'batch/json',
      verdict: 'accepted',
    });
  });
  it('reads recvWindow from a form body, never from a JSON batch body', () => {
    const form = exchange({
      request: {
        method: 'POST',
        path: '/api/v1/spot/order',
        query: '',
        body: 'symbol=X&recvWindow=1000&timestamp=1',
        headers: {},
      },
      route: { endpoint: 'v1', placement: 'body' },
    });
    expect(timeProbeOf(form, 0)?.recvWindow).toBe(1000);
    const json = exchange({
      request: { method: 'POST', path: '/b', query: 'timestamp=1', body: '[{"recvWindow":"9"}]', headers: {} },
    });
    expect(timeProbeOf(json, 0)).not.toHaveProperty('recvWindow');
  });
  it('gives nothing for a request never sent or without a numeric timestamp', () => {
    expect(timeProbeOf(exchange({ observation: { verdict: 'not-sent', error: 'budget' } }), 0)).toBeUndefined();
    const { timestampShiftMs: _, ...noShift } = exchange({});
    expect(timeProbeOf(noShift, 0)).toBeUndefined();
  });
});

describe('summariseTraffic', () => {
  it('gives nearest-rank percentiles, a histogram holding every sample, and the answers', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100 ms
    const t = summariseTraffic(samples, { accepted: 60, rejected: 40 });
    expect([t.p50, t.p90, t.p99, t.max]).toEqual([50, 90, 99, 100]);
    expect(t.histogram.reduce((n, b) => n + b.count, 0)).toBe(100);
    expect(t.histogram.find((b) => b.upToMs === 1)?.count).toBe(1);
    expect(t.histogram.find((b) => b.upToMs === 100)?.count).toBe(50);
    expect(t.answers).toEqual({ accepted: 60, rejected: 40 });
  });
  it('puts a round trip past the last bound in the open bucket, and has no percentiles without samples', () => {
    expect(summariseTraffic([60_000], {}).histogram.at(-1)).toEqual({ upToMs: null, count: 1 });
    const empty = summariseTraffic([], {});
    expect(empty.timed).toBe(0);
    expect(empty).not.toHaveProperty('p50');
    expect(quantile([], 0.5)).toBeUndefined();
  });
});
