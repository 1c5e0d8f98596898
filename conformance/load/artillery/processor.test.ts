import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sign } from '../../../src/signing/hmac.js';
import { parsePairs, withoutSignature } from '../../../src/core/signing/query.js';
import hooks from './processor.js';

type Hook = (...args: unknown[]) => void;
const hook = (name: string): Hook => (hooks as Record<string, Hook>)[name] as Hook;

function emitter() {
  const events: Array<[string, string, number]> = [];
  return { events, ee: { emit: (e: string, n: string, v: number) => events.push([e, n, v]) } };
}

describe('Artillery processor hooks', () => {
  beforeEach(() => {
    vi.stubEnv('SPOTCHECK_API_KEY', 'key-1');
    vi.stubEnv('SPOTCHECK_SECRET', 'secret-1');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('sets the final URL and a string body it built, signed over exactly those bytes, then counts the answer', () => {
    const req: Record<string, unknown> = { url: '/api/v1/spot/batchOrders', json: { x: 1 }, qs: { a: 1 } };
    const context = { vars: { target: 'http://127.0.0.1:9/', spotcheckBatchSize: '2' } };
    const { events, ee } = emitter();
    let nextArg: unknown = 'not called';
    hook('sign_batch')(req, context, ee, (e?: unknown) => (nextArg = e));
    expect(nextArg).toBeUndefined();
    expect(req.json).toBeUndefined();
    expect(req.qs).toBeUndefined();
    const url = new URL(req.url as string);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/api/v1/spot/batchOrders');
    const query = (req.url as string).split('?')[1] as string;
    const sig = parsePairs(query).find(([k]) => k === 'signature')?.[1];
    expect(sig).toBe(sign('secret-1', withoutSignature(query) + (req.body as string)));
    expect((req.headers as Record<string, string>)['X-SVC-APIKEY']).toBe('key-1');
    const ids = (JSON.parse(req.body as string) as Array<{ newClientOrderId: string }>).map((o) => o.newClientOrderId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    // The correctness totals exist from the first request on, so `ensure` can read them.
    expect(events.filter(([, n, v]) => n.startsWith('spotcheck.fail.') && v === 0).length).toBe(8);

    const answer = JSON.stringify({
      code: 0,
      result: [
        { code: 0, order: { clientOrderId: ids[1] } },
        { code: 0, order: { clientOrderId: ids[0] } },
      ],
    });
    // one clock reading: two would differ by a millisecond now and then, and so the latency
    const upload = Date.now();
    hook('check')(
      req,
      { statusCode: 200, body: answer, timings: { upload, end: upload + 3 } },
      context,
      ee,
      () => undefined,
    );
    const counters = Object.fromEntries(
      events.filter(([e, , v]) => e === 'counter' && v !== 0).map(([, n, v]) => [n, v]),
    );
    expect(counters).toMatchObject({
      'spotcheck.batch.requests': 1,
      'spotcheck.batch.accepted': 1,
      'spotcheck.batch.results.misalignedEntries': 2,
      'spotcheck.fail.misalignedEntries': 2,
    });
    expect(events).toContainEqual(['histogram', 'spotcheck.batch.latency', 3]);
  });

  it('signs a split single order over query then body (§5.3 item 4)', () => {
    const req: Record<string, unknown> = {};
    hook('sign_v1_1_split')(req, { vars: { target: 'http://h' } }, emitter().ee, () => undefined);
    const query = (req.url as string).split('?')[1] as string;
    const body = req.body as string;
    expect(body).not.toBe('');
    const sig = [...parsePairs(query), ...parsePairs(body)].find(([k]) => k === 'signature')?.[1];
    expect(sig).toBe(sign('secret-1', withoutSignature(query) + withoutSignature(body)));
    expect(req.url as string).toMatch(/^http:\/\/h\/api\/v1\.1\/spot\/order\?/);
  });

  it('sends nothing without credentials in the environment, and nothing past spotcheckMaxOrders', () => {
    vi.stubEnv('SPOTCHECK_SECRET', '');
    let err: unknown;
    hook('sign_v1_query')({}, { vars: { target: 'http://h' } }, emitter().ee, (e?: unknown) => (err = e));
    expect(String(err)).toContain('SPOTCHECK_API_KEY and SPOTCHECK_SECRET');
    expect(String(err)).not.toContain('secret-1');
    vi.stubEnv('SPOTCHECK_SECRET', 'secret-1');
    const { events, ee } = emitter();
    hook('sign_v1_query')(
      {},
      { vars: { target: 'http://h', spotcheckMaxOrders: '0' } },
      ee,
      (e?: unknown) => (err = e),
    );
    expect(String(err)).toContain('spotcheckMaxOrders');
    expect(events).toContainEqual(['counter', 'spotcheck.notSent.maxOrders', 1]);
  });
});
