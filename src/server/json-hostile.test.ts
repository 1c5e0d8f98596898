/**
 * ROBUST-NO-5XX: a correctly signed batch whose JSON is hostile (deep nesting, objects where
 * strings belong, huge numbers, `toString` fields) is refused with a 4xx or fails every
 * entry, never a 5xx, and places nothing (ROBUST-NO-5XX, D-JSON-DEPTH).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../client/http.js';
import { buildRequest } from '../core/request.js';
import { sign } from '../signing/hmac.js';
import { MAX_JSON_DEPTH } from './batch.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';

const NOW = 1_750_000_000_000;
const TRADE = DEMO_CREDENTIALS[0] as (typeof DEMO_CREDENTIALS)[0];
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ clock: () => NOW });
});
afterAll(() => server.close());

/** Send `jsonText` as a batch body, signed exactly as sent (SIG-BODY-COVERED). */
function sendSigned(jsonText: string): ReturnType<typeof sendRaw> {
  const { request } = buildRequest(sign, {
    endpoint: 'batch',
    params: [['timestamp', String(NOW)]],
    jsonText,
    secret: TRADE.secret,
    apiKey: TRADE.apiKey,
  });
  return sendRaw(server.url, request, { timeoutMs: 5000 });
}

const nested = (n: number, inner = '1'): string => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;

/** JSON text of a value no field of an order accepts as a string field (symbol, side, type). */
const notAString = fc.oneof(
  fc
    .jsonValue({ maxDepth: 6 })
    .filter((v) => typeof v !== 'string')
    .map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ toString: v, valueOf: v, toJSON: v })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => nested(n)),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
    '1e-400',
    '{"__proto__":{"x":1}}',
    '[{"constructor":{"prototype":1}}]',
  ),
);

describe('hostile JSON in a signed batch', () => {
  it('refuses any JSON value where an order or one of its string fields belongs: no 5xx, nothing placed', async () => {
    const shape = fc.oneof(
      notAString.map((v) => v),
      notAString.map((v) => `[${v}]`),
      fc
        .tuple(notAString, fc.constantFrom('symbol', 'side', 'type', 'newClientOrderId'))
        .map(
          ([v, field]) =>
            `[${JSON.stringify({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' }).replace(/}$/, `,"${field}":${v}}`)}]`,
        ),
      fc.tuple(notAString, notAString).map(([a, b]) => `[{"symbol":${a}},{"symbol":${b}}]`),
    );
    let statuses = 0;
    await fc.assert(
      fc.asyncProperty(shape, async (text) => {
        const before = server.orders.count();
        const r = await sendSigned(text);
        statuses++;
        expect(r.status, text.slice(0, 200)).toBeLessThan(500);
        if (r.status === 200) {
          const entries = (r.json as { result?: Array<{ code: number }> }).result ?? [];
          expect(entries.length).toBeGreaterThan(0);
          for (const e of entries) expect(e.code, text.slice(0, 200)).not.toBe(0);
        } else {
          expect(r.status).toBeGreaterThanOrEqual(400);
        }
        expect(server.orders.count()).toBe(before);
      }),
      { numRuns: 250 },
    );
    expect(statuses).toBeGreaterThanOrEqual(250);
  });

  it(`D-JSON-DEPTH: more than ${MAX_JSON_DEPTH} levels is 400 -1130 before parsing; ${MAX_JSON_DEPTH} levels are parsed and validated`, async () => {
    const deep = await sendSigned(nested(5000));
    expect(deep.status).toBe(400);
    expect(deep.json).toMatchObject({ code: -1130, msg: expect.stringContaining('D-JSON-DEPTH') as unknown });
    const limit = await sendSigned(`[{"symbol":"BTCUSDT","x":${nested(MAX_JSON_DEPTH - 2)}}]`);
    expect(limit.status).toBe(200);
    expect((limit.json as { result: Array<{ code: number }> }).result[0]?.code).toBe(-1102); // side missing: validated, not refused for depth
    expect(server.orders.count()).toBe(0);
  });

  it('a symbol object with a toString field is named in the mixed-symbol 400, not a 500 (the case the fuzzer found)', async () => {
    const r = await sendSigned(
      '[{"symbol":{"toString":1},"side":"BUY","type":"MARKET","quantity":"1"},{"symbol":"BTCUSDT","side":"BUY","type":"MARKET","quantity":"1"}]',
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: -1194 });
    expect(server.orders.count()).toBe(0);
  });
});
