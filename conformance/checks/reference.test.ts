/**
 * RESULT-REFERENCE-ANSWER compares an answer with the reference's to the same request, read at
 * the earliest and latest moment the server may have read it; what depends on the moment, on an
 * id the server holds, or on values it generates is left out.
 */
import { describe, expect, it } from 'vitest';
import { batchOrdersRequest, orderRequest } from '../../src/client/requests.js';
import { classify } from '../../src/core/response.js';
import { SEED_WIRE } from '../../src/core/wire.js';
import { referenceReply } from '../../src/server/answer.js';
import { DEMO_CREDENTIALS } from '../../src/server/credentials.js';
import type { Answered } from '../engine/transport.js';
import { runAgainstVenue, runVenue } from '../../harness/strangers/run-venue.js';
import { startServletVenue } from '../../harness/strangers/servlet-venue.js';
import { compareHeaders, compareWithReference } from './reference.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[number];
const setting = { credentials: DEMO_CREDENTIALS, wire: SEED_WIRE, offsetMs: 0, uncertaintyMs: 5 };
const auth = { apiKey: TRADE.apiKey, secret: TRADE.secret, timestamp: NOW };
const limit = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '1.5',
  price: '2',
  newClientOrderId: 'c-1',
} as const;

/** An exchange whose answer is `status` and `body`, sent at NOW. */
function answered(
  request: Answered['exchange']['request'],
  status: number,
  body: unknown,
  headers: Answered['headers'] = { contentType: 'application/json', date: new Date(NOW).toUTCString() },
): Answered {
  const text = JSON.stringify(body);
  const observation = classify({ status, headers: {}, text, json: body, elapsedMs: 1 });
  return { exchange: { request, observation }, sentAt: NOW, receivedAt: NOW + 2, headers };
}

/** The reference's own answer to `request` at NOW, as a server would send it. */
function asReference(request: Answered['exchange']['request']): { status: number; body: unknown } {
  const r = referenceReply(
    {
      method: request.method,
      target: request.query === '' ? request.path : `${request.path}?${request.query}`,
      headers: request.headers,
      body: request.body,
    },
    { credentials: DEMO_CREDENTIALS, now: NOW },
  );
  return { status: r.status, body: JSON.parse(JSON.stringify(r.body)) };
}

describe('compareHeaders', () => {
  const single = orderRequest(limit, { version: 'v1', placement: 'body' }, auth).request;
  const put = { ...single, method: 'PUT' };
  const date = new Date(NOW).toUTCString();

  it("the reference's headers are the same: application/json in any case and with parameters, Allow in any order and case", () => {
    const ref = asReference(single);
    expect(compareHeaders(answered(single, ref.status, ref.body), setting)?.same).toBe(true);
    const h = { contentType: 'Application/JSON; charset=utf-8', date };
    expect(compareHeaders(answered(single, ref.status, ref.body, h), setting)?.same).toBe(true);
    const refused = asReference(put);
    expect(refused.status).toBe(405);
    const allow = { contentType: 'application/json', date, allow: ' post' };
    expect(compareHeaders(answered(put, 405, refused.body, allow), setting)?.same).toBe(true);
  });

  it('another media type, a 405 without Allow (or Allow on another answer), and a missing, unreadable or stale Date differ', () => {
    const ref = asReference(single);
    const refused = asReference(put);
    const differs = (req: typeof single, status: number, body: unknown, h: Answered['headers']) =>
      compareHeaders(answered(req, status, body, h), setting);
    expect(differs(single, ref.status, ref.body, { contentType: 'text/plain', date })?.same).toBe(false);
    expect(differs(single, ref.status, ref.body, { date })?.same).toBe(false);
    expect(differs(put, 405, refused.body, { contentType: 'application/json', date })).toMatchObject({
      same: false,
      expected: expect.stringContaining('Allow POST'),
    });
    const extra = { contentType: 'application/json', date, allow: 'POST' };
    expect(differs(single, ref.status, ref.body, extra)?.same).toBe(false);
    expect(differs(single, ref.status, ref.body, { contentType: 'application/json' })?.same).toBe(false);
    expect(differs(single, ref.status, ref.body, { contentType: 'application/json', date: 'soon' })?.same).toBe(false);
    // a second stale, a year in milliseconds read as seconds, a second early beyond the floor
    for (const ms of [NOW - 2_000, NOW * 1000, NOW + 2_000])
      expect(
        differs(single, ref.status, ref.body, { contentType: 'application/json', date: new Date(ms).toUTCString() })
          ?.same,
      ).toBe(false);
    // the second the request went out in, floored, is within
    const floored = new Date(Math.floor((NOW - 1) / 1000) * 1000).toUTCString();
    expect(differs(single, ref.status, ref.body, { contentType: 'application/json', date: floored })?.same).toBe(true);
  });
});

describe('compareWithReference', () => {
  const batch = batchOrdersRequest(
    [limit, { ...limit, newClientOrderId: 'c-2', side: 'SIDEWAYS' as 'BUY' }],
    auth,
  ).request;
  const single = orderRequest(limit, { version: 'v1', placement: 'body' }, auth).request;

  it('the reference answer itself is the same; a generated orderId, transactTime and accountId of its own are too', () => {
    const ref = asReference(single);
    expect(compareWithReference(answered(single, ref.status, ref.body), setting)).toMatchObject({
      kind: 'accepted',
      same: true,
    });
    const other = { ...(ref.body as Record<string, unknown>), orderId: '99', transactTime: '1', accountId: '7' };
    expect(compareWithReference(answered(single, ref.status, other), setting)).toMatchObject({
      kind: 'accepted',
      same: true,
    });
  });

  it('an accepted answer writing another field differs (status NEW where the reference writes FILLED, a number for a string)', () => {
    const ref = asReference(single);
    const body = ref.body as Record<string, unknown>;
    expect(compareWithReference(answered(single, 200, { ...body, status: 'FILLED' }), setting)).toMatchObject({
      kind: 'accepted',
      same: false,
    });
    expect(compareWithReference(answered(single, 200, { ...body, origQty: 1.5 }), setting)).toMatchObject({
      kind: 'accepted',
      same: false,
    });
  });

  it('a batch: each entry code is compared; the same entries pass, another code on the bad entry differs', () => {
    const ref = asReference(batch);
    expect(compareWithReference(answered(batch, ref.status, ref.body), setting)).toMatchObject({
      kind: 'refusal',
      same: true,
    });
    const body = structuredClone(ref.body) as { result: Array<{ code: number }> };
    (body.result[1] as { code: number }).code = -1102;
    expect(compareWithReference(answered(batch, ref.status, body), setting)).toMatchObject({
      kind: 'refusal',
      same: false,
      expected: 'HTTP 200 code 0 {code,result} entries [0, -1130]',
      received: 'HTTP 200 code 0 {code,result} entries [0, -1102]',
    });
  });

  it('a refusal with another status or code differs; with the reference status and code it is the same', () => {
    const bad = { ...single, headers: { ...single.headers, 'X-SVC-APIKEY': 'nobody' } };
    const cases: Array<[status: number, body: unknown, same: boolean]> = [
      [401, { code: -2015, msg: 'x' }, true],
      [400, { code: -2015, msg: 'x' }, false],
      [401, { code: -2014, msg: 'x' }, false],
      [200, { code: -2015, msg: 'x' }, false],
      // D-ERROR-SHAPE: {code, msg}, nothing more (a diagnosis only when the server explains)
      [401, { code: -2015, msg: 'x', diagnosis: {} }, false],
    ];
    for (const [status, body, same] of cases)
      expect(compareWithReference(answered(bad, status, body), setting), JSON.stringify([status, body])).toMatchObject({
        kind: 'refusal',
        same,
      });
  });

  it('a request the reference accepts or refuses depending on the moment (a timestamp at the window edge) is not compared', () => {
    const edge = orderRequest(limit, { version: 'v1', placement: 'body' }, { ...auth, timestamp: NOW - 5000 }).request;
    expect(compareWithReference(answered(edge, 400, { code: -1021, msg: 'x' }), setting)).toEqual({
      kind: 'not-compared',
      why: 'moment',
    });
    const fresh = orderRequest(limit, { version: 'v1', placement: 'body' }, { ...auth, timestamp: NOW - 2000 }).request;
    expect(compareWithReference(answered(fresh, 400, { code: -1021, msg: 'x' }), setting)).toMatchObject({
      kind: 'refusal',
      same: false,
    });
  });

  it('a HEAD answer has no body (RFC 9110 §9.3.2): only its status is compared', () => {
    const head = { ...single, method: 'HEAD' };
    expect(compareWithReference(answered(head, 405, undefined), setting)).toMatchObject({
      kind: 'refusal',
      same: true,
    });
    expect(compareWithReference(answered(head, 404, undefined), setting)).toMatchObject({
      kind: 'refusal',
      same: false,
    });
  });

  it('a refusal whose words name the moment is still compared: a microsecond timestamp is -1021 at every moment', () => {
    const micro = orderRequest(limit, { version: 'v1', placement: 'body' }, { ...auth, timestamp: NOW * 1000 }).request;
    expect(compareWithReference(answered(micro, 400, { code: -1130, msg: 'x' }), setting)).toMatchObject({
      kind: 'refusal',
      same: false,
      expected: 'HTTP 400 code -1021 {code,msg}',
    });
  });

  it('a duplicate newClientOrderId (-1141) depends on what the server holds: not compared', () => {
    expect(compareWithReference(answered(single, 400, { code: -1141, msg: 'x' }), setting)).toEqual({
      kind: 'not-compared',
      why: 'held',
    });
  });
});

describe('RESULT-REFERENCE-ANSWER over a run', () => {
  it('a venue with codes of its own: INFO under the core profile, a failure under the reference profile, naming the first difference', async () => {
    const only = ['ORDER-SIDE-ENUM', 'RESULT-REFERENCE-ANSWER'];
    const core = await runVenue({}, {}, { only, runs: 3 });
    const pinned = await runVenue({}, {}, { only, runs: 3, profile: 'reference' });
    const of = (r: typeof core, id: string) => r.report.checks.find((c) => c.id === id);
    expect(of(core, 'RESULT-REFERENCE-ANSWER')).toMatchObject({ status: 'info' });
    expect(of(core, 'RESULT-REFERENCE-ANSWER')?.observed).toMatch(
      /^[1-9]\d* of \d+ refusals differ from the reference's/,
    );
    expect(of(pinned, 'RESULT-REFERENCE-ANSWER')).toMatchObject({ status: 'fail', level: 'MUST' });
    expect(of(pinned, 'ORDER-SIDE-ENUM')?.status).toBe('pass');
  });

  it('two stranger venues answering 405 without Allow (RFC 9110 §15.5.6): INFO under the core profile, a failure under the reference profile', async () => {
    const only = ['ROBUST-REJECT-PLACES-NOTHING.domain', 'RESULT-REFERENCE-ANSWER'];
    const venue = await startServletVenue({});
    try {
      for (const run of [
        (profile: 'core' | 'reference') => runVenue({}, {}, { only, runs: 3, profile }).then((r) => r.report),
        (profile: 'core' | 'reference') => runAgainstVenue(venue, { only, runs: 3, profile }),
      ]) {
        const headers = async (profile: 'core' | 'reference') =>
          (await run(profile)).checks.find((c) => c.id === 'RESULT-REFERENCE-ANSWER.headers');
        const core = await headers('core');
        expect(core).toMatchObject({ status: 'info' });
        expect(core?.observed).toMatch(
          /differ from the reference's.*reference Content-Type application\/json; Allow POST.*Allow none/,
        );
        expect(await headers('reference')).toMatchObject({ status: 'fail', level: 'MUST' });
      }
    } finally {
      await venue.close();
    }
  });
});
