import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import type { Built } from '../engine/requests.js';
import type { SendResult } from '../engine/transport.js';
import { clientIdsOf, createEffectProber, duplicateMark, lookupRequest, readLookup, readReuse } from './effects.js';

const BATCH = { endpoint: 'batch', placement: 'json' } as const;
const V1Q = { endpoint: 'v1', placement: 'query' } as const;
const req = (query: string, body: string) => ({ method: 'POST', path: '/x', query, body, headers: {} });
const acceptedBatch = (...codes: number[]): Observation => ({
  verdict: 'accepted',
  status: 200,
  json: { code: 0, result: codes.map((code) => ({ code, msg: '' })) },
});
const rejected = (status: number, code: number): Observation => ({ verdict: 'rejected', status, code, json: { code } });

describe('place-nothing by effect: reading requests and answers', () => {
  it('finds the client ids a refused request carried: batch elements, single parameters, even in a malformed body', () => {
    expect(
      clientIdsOf(BATCH, req('timestamp=1', '[{"symbol":"A","newClientOrderId":"a1"},{"newClientOrderId":"a2"}]')).map(
        (c) => c.id,
      ),
    ).toEqual(['a1', 'a2']);
    expect(clientIdsOf(V1Q, req('symbol=A&newClientOrderId=q1&timestamp=1', '')).map((c) => c.id)).toEqual(['q1']);
    expect(clientIdsOf(V1Q, req('timestamp=1', 'symbol=A&newClientOrderId=b1')).map((c) => c.id)).toEqual(['b1']);
    expect(
      clientIdsOf(BATCH, req('', '[{"newClientOrderId":"cut1"},{"newClientOrderId":"cu')).map((c) => c.id),
    ).toEqual(['cut1']);
    expect(clientIdsOf(BATCH, req('', '[{"newClientOrderId":""}]'))).toEqual([]);
  });

  it('a repeated id leaves a mark: a whole-call fingerprint, or a failed first entry in a batch', () => {
    expect(duplicateMark(V1Q, rejected(400, -1141))).toBe('HTTP 400 code -1141');
    expect(duplicateMark(BATCH, acceptedBatch(-1141))).toBe('entry code -1141');
    expect(duplicateMark(BATCH, acceptedBatch(0))).toBeUndefined();
    expect(duplicateMark(V1Q, { verdict: 'accepted', status: 200, json: { code: 0 } })).toBeUndefined();
  });

  it('a reuse follow-up accepted shows nothing placed; refused like a repeat while the fresh-id twin was placed shows the refused call placed it; anything else shows nothing', () => {
    const placedV1 = { verdict: 'accepted', status: 200, json: { code: 0 } } as const;
    expect(readReuse(BATCH, acceptedBatch(0), 'entry code -1141')).toBe('placed-nothing');
    expect(readReuse(BATCH, acceptedBatch(-1141), 'entry code -1141', acceptedBatch(0))).toBe('placed');
    expect(readReuse(V1Q, rejected(400, -1141), 'HTTP 400 code -1141', placedV1)).toBe('placed');
    expect(readReuse(V1Q, rejected(400, -2010), 'HTTP 400 code -1141', placedV1)).toBe('unknown');
  });

  it('a refusal sharing the duplicate code is no duplicate when the fresh-id twin sent with it was refused too (a balance refusal), or no twin was sent', () => {
    const cases: Array<[Observation, Observation | undefined]> = [
      [rejected(400, -2010), rejected(400, -2010)],
      [rejected(400, -2010), undefined],
      [rejected(400, -2010), { verdict: 'no-answer' }],
    ];
    for (const [reuse, fresh] of cases) expect(readReuse(V1Q, reuse, 'HTTP 400 code -2010', fresh)).toBe('unknown');
    expect(readReuse(BATCH, acceptedBatch(-2010), 'entry code -2010', acceptedBatch(-2010))).toBe('unknown');
  });

  it('an order lookup: refused or without the id is not found; accepted naming the id is found', () => {
    expect(readLookup(rejected(400, -2013), 'x1')).toBe('placed-nothing');
    expect(readLookup({ verdict: 'accepted', status: 200, text: '{"code":0,"clientOrderId":"x1"}' }, 'x1')).toBe(
      'placed',
    );
    expect(readLookup({ verdict: 'accepted', status: 200, text: '{"code":0}' }, 'x1')).toBe('placed-nothing');
    expect(readLookup({ verdict: 'server-error', status: 500 }, 'x1')).toBe('unknown');
    const r = lookupRequest({ path: '/q', method: 'GET', param: 'origClientOrderId' }, 'x 1', {
      apiKey: 'k',
      secret: 's',
      apiKeyHeader: 'X-K',
      now: 5,
    });
    expect(r.query).toMatch(/^origClientOrderId=x%201&timestamp=5&signature=[0-9a-f]{64}$/);
    expect(r.headers).toEqual({ 'X-K': 'k' });
  });
});

describe('place-nothing by effect: following up a refused call', () => {
  const DUP = rejected(400, -1141);
  const PLACED: Observation = { verdict: 'accepted', status: 200, json: { code: 0 } };
  /** A prober over a fake target: `answer(id, n)` answers the n-th order sent, by its client id. */
  const prober = (answer: (id: string, n: number) => Observation) => {
    const sent: string[] = [];
    let fresh = 0;
    const result = (id: string): SendResult =>
      ({
        observation: answer(id, sent.length),
        exchange: { route: V1Q, request: req(`newClientOrderId=${id}`, '') },
      }) as unknown as SendResult;
    const p = createEffectProber({
      send: async (b: Built) => {
        const id = /newClientOrderId=([^&]*)/.exec(b.request.query)?.[1] ?? '';
        sent.push(id);
        return result(id);
      },
      sendPlain: async () => result(''),
      validOrder: (_r, id) => ({ request: req(`newClientOrderId=${id}`, ''), facts: {} }) as Built,
      clientId: () => `fresh${++fresh}`,
      auth: { apiKey: 'k', secret: 's', apiKeyHeader: 'X-K', now: () => 0 },
      symbol: 'A',
    });
    const refusedCall = {
      observation: rejected(400, -1022),
      exchange: { route: V1Q, request: req('symbol=A&newClientOrderId=r1', '') },
    } as unknown as SendResult;
    return { p, sent, refusedCall };
  };

  /** A target refusing a repeated client id (`used`: ids already taken), placing every new one. */
  const repeatsRefused = (used: string[] = []) => {
    const seen = new Set(used);
    return (id: string): Observation => {
      const dup = seen.has(id);
      seen.add(id);
      return dup ? DUP : PLACED;
    };
  };
  /** The reading of a follow-up once the route learnt its method (`then`: what changes after), and the ids it sent. */
  const followed = async (answer: (id: string) => Observation, then?: () => void) => {
    const { p, sent, refusedCall } = prober(answer);
    await p.methodFor(V1Q);
    then?.();
    const learnt = sent.length;
    const f = await p.followUp(refusedCall);
    return { reading: f?.reading, sent: sent.slice(learnt) };
  };

  it('a correct target costs one request: the reused id alone, placed (after the route learnt its repeat refusal)', async () => {
    expect(await followed(repeatsRefused())).toEqual({ reading: 'placed-nothing', sent: ['r1'] });
  });

  it('a refused call that placed its order: the reused id refused like a repeat, then sent again beside a fresh-id twin that is placed', async () => {
    expect(await followed(repeatsRefused(['r1']))).toEqual({
      reading: 'placed',
      sent: ['r1', 'r1', expect.stringMatching(/^fresh/)],
    });
  });

  it('a refusal unlike a repeat needs no twin: unknown after one request', async () => {
    let balance = false;
    const target = repeatsRefused();
    const answer = (id: string) => (balance ? rejected(400, id === 'r1' ? -2010 : -1141) : target(id));
    expect(await followed(answer, () => (balance = true))).toEqual({ reading: 'unknown', sent: ['r1'] });
  });

  it('a repeat-like refusal whose fresh-id twin is refused the same way (a balance refusal sharing the code) stays unknown', async () => {
    let broke = false;
    const target = repeatsRefused();
    const answer = (id: string) => (broke ? DUP : target(id));
    expect(await followed(answer, () => (broke = true))).toEqual({
      reading: 'unknown',
      sent: ['r1', 'r1', expect.stringMatching(/^fresh/)],
    });
  });
});
