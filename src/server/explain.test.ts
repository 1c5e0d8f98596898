/**
 * `explain` (serve --explain): a signature rejection carries the signature
 * doctor's diagnosis and one log line, over real HTTP; off by default; never the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '../core/wire.js';
import { sendRaw, type RawRequest, type RawResponse } from '../client/http.js';
import { sign } from '../signing/hmac.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';
import { settableClock } from '../../harness/testing/server.js';

const NOW = 1_750_000_000_000;
const [TRADE] = DEMO_CREDENTIALS as [(typeof DEMO_CREDENTIALS)[0]];
const clock = settableClock(NOW);
const Q = `symbol=BTCUSDT&side=BUY&type=LIMIT&timestamp=${NOW}`;
const B = 'quantity=1&price=100&newClientOrderId=a%20b%21';
const ORDERS = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"100"}]';

let explaining: RunningServer;
let quiet: RunningServer;
const log: string[] = [];
const quietLog: string[] = [];

beforeAll(async () => {
  explaining = await startServer({ clock: clock.clock, explain: true, log: (l) => log.push(l) });
  quiet = await startServer({ clock: clock.clock, log: (l) => quietLog.push(l) });
});
afterAll(async () => {
  await explaining.close();
  await quiet.close();
});

/** A request whose signature is the HMAC of `clientSigned`, the signature pair appended to the query. */
function order(query: string, body: string, clientSigned: string): RawRequest {
  return {
    method: 'POST',
    path: '/api/v1/spot/order',
    query: `${query}&signature=${sign(TRADE.secret, clientSigned)}`,
    body,
    headers: {
      [API_KEY_HEADER]: TRADE.apiKey,
      ...(body !== '' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
  };
}

function batch(clientSigned: string): RawRequest {
  return {
    method: 'POST',
    path: '/api/v1/spot/batchOrders',
    query: `timestamp=${NOW}&signature=${sign(TRADE.secret, clientSigned)}`,
    body: ORDERS,
    headers: { [API_KEY_HEADER]: TRADE.apiKey, 'content-type': 'application/json' },
  };
}

interface Explained {
  code: number;
  msg: string;
  diagnosis?: {
    code: string;
    sentence: string;
    serverSigned: string;
    clientSigned?: string;
    firstDifference?: { index: number };
  };
}

async function send(server: RunningServer, req: RawRequest): Promise<{ res: RawResponse; json: Explained }> {
  const res = await sendRaw(server.url, req, { timeoutMs: 5000 });
  return { res, json: res.json as Explained };
}

describe('serve --explain: signature rejections carry a diagnosis (§5.3)', () => {
  const cases: Array<[string, RawRequest, string, string]> = [
    ['SEPARATOR_INSERTED', order(Q, B, `${Q}&${B}`), Q + B, `${Q}&${B}`],
    ['BODY_NOT_SIGNED', batch(`timestamp=${NOW}`), `timestamp=${NOW}${ORDERS}`, `timestamp=${NOW}`],
    ['SIGNATURE_PARAM_SIGNED', order(Q, '', `${Q}&signature=`), Q, `${Q}&signature=`],
    [
      'SIGNED_BEFORE_ENCODING',
      order(`${Q}&newClientOrderId=a%20b`, '', `${Q}&newClientOrderId=a b`),
      `${Q}&newClientOrderId=a%20b`,
      `${Q}&newClientOrderId=a b`,
    ],
    [
      'ENCODING_MISMATCH',
      order(Q, B, `${Q}quantity=1&price=100&newClientOrderId=a%20b!`),
      Q + B,
      `${Q}quantity=1&price=100&newClientOrderId=a%20b!`,
    ],
    ['PARAMS_REORDERED', order(Q, B, B + Q), Q + B, B + Q],
    // the clock read twice: signed 4 ms before the timestamp sent, no hint given
    [
      'OTHER_TIMESTAMP',
      order(Q, B, Q.replace(String(NOW), String(NOW - 4)) + B),
      Q + B,
      Q.replace(String(NOW), String(NOW - 4)) + B,
    ],
  ];

  it.each(cases)(
    '%s: in the 401 body and in one log line, the secret in neither',
    async (code, req, serverSigned, clientSigned) => {
      const before = log.length;
      const { res, json } = await send(explaining, req);
      expect(res.status).toBe(401);
      expect(json.code).toBe(-1022);
      expect(json.diagnosis).toMatchObject({ code, serverSigned, clientSigned });
      expect(json.diagnosis?.firstDifference?.index).toBeGreaterThanOrEqual(0);
      expect(explaining.orders.count()).toBe(0);
      expect(log.length).toBe(before + 1);
      const line = JSON.parse(log.at(-1) ?? '') as { event: string; path: string; diagnosis: unknown };
      expect(line).toEqual({ event: 'signature-rejected', method: 'POST', path: req.path, diagnosis: json.diagnosis });
      expect(res.text + log.join('\n')).not.toContain(TRADE.secret);
    },
  );

  it('another secret is UNKNOWN, with the server string and no client string', async () => {
    const req = order(Q, B, Q + B);
    req.query = `${Q}&signature=${sign('some-other-secret', Q + B)}`;
    const { json } = await send(explaining, req);
    expect(json.diagnosis).toEqual({ code: 'UNKNOWN', sentence: expect.any(String) as unknown, serverSigned: Q + B });
  });

  it('a correctly signed request is accepted and logs nothing', async () => {
    const before = log.length;
    const { res, json } = await send(explaining, order(Q, B, Q + B));
    expect(res.status).toBe(200);
    expect(json.code).toBe(0);
    expect(json.diagnosis).toBeUndefined();
    expect(log.length).toBe(before);
  });

  it('off by default: the same rejection has only code and msg, and nothing is logged', async () => {
    const { res, json } = await send(quiet, order(Q, B, `${Q}&${B}`));
    expect(res.status).toBe(401);
    expect(json).toEqual({ code: -1022, msg: expect.any(String) as unknown });
    expect(quietLog).toEqual([]);
  });
});
