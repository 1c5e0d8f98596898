/**
 * AUTH family: the API key header (§5.2), the key's own secret (§5.3), permissions
 * and security type (§5.1), each on every route.
 */
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import { routeKey } from '../engine/requests.js';
import { expectAccepted, expectRejected, firstFailure, send, skip, type Step } from './helpers.js';
import type { RawRequest } from '../../src/client/http.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { ALL_ROUTES, onRoute, perRoute } from './routes.js';

/** AUTH-PERMISSION's probes; the check skips when no key without TRADE was given. */
const permissionByRoute = perRoute({
  id: 'AUTH-PERMISSION',
  ruleId: 'AUTH-PERMISSION',
  title: 'a key without the TRADE permission is refused on the order endpoints, on every route',
  routes: ALL_ROUTES,
  probe: async (ctx, r) => {
    const k = ctx.target.noTradeKey;
    return k === undefined
      ? undefined
      : expectRejected(
          await send(ctx, onRoute(ctx, r, { apiKey: k.apiKey, secret: k.secret })),
          `${routeKey(r)} with a key lacking TRADE`,
          'auth',
        );
  },
});

export const authChecks: CheckDefinition[] = [
  perRoute({
    id: 'AUTH-APIKEY-REQUIRED',
    ruleId: 'AUTH-APIKEY-REQUIRED',
    title: 'a correctly signed request without the API-key header is rejected, on every route',
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectRejected(await send(ctx, onRoute(ctx, r, { apiKey: null })), `${routeKey(r)} without API key`, 'auth'),
  }),
  perRoute({
    id: 'AUTH-APIKEY-REQUIRED.header-case',
    ruleId: 'AUTH-APIKEY-REQUIRED',
    title:
      'the API-key header is found whatever the case of its name (RFC 9110 §5.1: field names are case-insensitive), on every route',
    placesOrders: true,
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const header = (ctx.target.profile?.apiKeyHeader ?? API_KEY_HEADER).toLowerCase();
      const steps: Step[] = [];
      for (const [what, spell] of [
        ['lower case', (n: string) => n.toLowerCase()],
        [
          'mixed case',
          (n: string) => [...n].map((ch, i) => (i % 2 === 0 ? ch.toLowerCase() : ch.toUpperCase())).join(''),
        ],
      ] as const) {
        const rename = (req: RawRequest): RawRequest => ({
          ...req,
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [k.toLowerCase() === header ? spell(k) : k, v]),
          ),
        });
        steps.push(
          expectAccepted(
            await send(ctx, onRoute(ctx, r, { tamper: rename })),
            `${routeKey(r)} with the API-key header name in ${what}`,
          ),
        );
      }
      return firstFailure(...steps);
    },
  }),
  perRoute({
    id: 'AUTH-APIKEY-UNKNOWN',
    ruleId: 'AUTH-APIKEY-UNKNOWN',
    title: 'an unknown API key is rejected even with a signature made with a valid secret, on every route',
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectRejected(
        await send(ctx, onRoute(ctx, r, { apiKey: `spotcheck-unknown-${ctx.clientId()}` })),
        `${routeKey(r)} with an unknown API key, valid secret`,
        'auth',
      ),
  }),
  perRoute({
    id: 'AUTH-SECRET-BOUND',
    ruleId: 'AUTH-SECRET-BOUND',
    title: 'a valid API key with a signature made with another secret is rejected, on every route',
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectRejected(
        await send(ctx, onRoute(ctx, r, { secret: `${ctx.target.secret}x` })),
        `${routeKey(r)} signed with a wrong secret`,
        'auth',
      ),
  }),
  {
    ...permissionByRoute,
    run(ctx: CheckContext) {
      if (ctx.target.noTradeKey === undefined)
        return Promise.resolve(
          skip('no key without TRADE permission was given (--no-trade-api-key / --no-trade-secret)'),
        );
      return permissionByRoute.run(ctx);
    },
  },
  perRoute({
    id: 'AUTH-SECURITY-TYPE',
    ruleId: 'AUTH-SECURITY-TYPE',
    title: 'each order endpoint is TRADE: an API key alone, without a signature, is rejected on every route',
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectRejected(
        await send(ctx, onRoute(ctx, r, { omitSignature: true })),
        `${routeKey(r)} with key, no signature`,
        'auth',
      ),
  }),
];
