/**
 * The server serves the wire it is given (core/wire.ts): the API-key header name, the
 * paths and each endpoint's permission (§5.1, §5.2) come from the WireProfile, not
 * from constants of the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../client/http.js';
import { buildRequest } from '../core/request.js';
import { ENDPOINTS, SEED_WIRE, type WireProfile } from '../core/wire.js';
import { sign } from '../signing/hmac.js';
import { DEMO_CREDENTIALS } from './credentials.js';
import { startServer, type RunningServer } from './server.js';

const [TRADE, READONLY] = DEMO_CREDENTIALS as [(typeof DEMO_CREDENTIALS)[0], (typeof DEMO_CREDENTIALS)[0]];
const OTHER: WireProfile = {
  ...SEED_WIRE,
  apiKeyHeader: 'X-Venue-Key',
  endpoints: {
    ...SEED_WIRE.endpoints,
    v1: { ...ENDPOINTS.v1, path: '/venue/v1/order' },
    // a deployment where placing a single v1.1 order needs only USER_DATA
    'v1.1': { ...ENDPOINTS['v1.1'], permission: 'USER_DATA' },
  },
};
const ORDER: Array<[string, string]> = [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '1'],
  ['price', '100'],
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ wire: OTHER });
});
afterAll(() => server.close());

function send(endpoint: 'v1' | 'v1.1', cred: { apiKey: string; secret: string }, wire: WireProfile = OTHER) {
  const { request } = buildRequest(
    sign,
    {
      endpoint,
      params: [...ORDER, ['timestamp', String(Date.now())]],
      placement: 'query',
      secret: cred.secret,
      apiKey: cred.apiKey,
    },
    wire,
  );
  return sendRaw(server.url, request, { timeoutMs: 5000 });
}

describe('startServer({ wire })', () => {
  it('reads the API key from the profile header and serves the profile paths', async () => {
    const res = await send('v1', TRADE);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ code: 0 });
  });

  it('the seed header is not the key header of this wire: missing key, named by the profile', async () => {
    const res = await send('v1', TRADE, { ...OTHER, apiKeyHeader: SEED_WIRE.apiKeyHeader });
    expect(res.status).toBe(401);
    expect(res.text).toContain('X-Venue-Key header is missing');
  });

  it('the seed path is not served when the profile moved it', async () => {
    const res = await send('v1', TRADE, { ...OTHER, endpoints: { ...OTHER.endpoints, v1: ENDPOINTS.v1 } });
    expect(res.status).toBe(404);
  });

  it("the permission is the endpoint's: the read-only key is refused TRADE on v1, placed on the USER_DATA v1.1", async () => {
    expect((await send('v1', READONLY)).status).toBe(403);
    const placed = await send('v1.1', READONLY);
    expect(placed.status).toBe(200);
    expect(placed.json).toMatchObject({ code: 0 });
  });
});
