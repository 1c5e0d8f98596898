/**
 * Credential confusion (AUTH, §5.2, §5.3): a request whose key is missing, empty or unknown,
 * signed with a secret a key lookup may fall back to (the empty text, the key itself, the
 * texts `undefined` and `null`), and the key sent as a query parameter instead of the header.
 * Every one must be refused and place nothing; the routes rotate with the seed.
 */
import type { RuleId } from '../../src/core/rule-id.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import { routeKey, type Route } from '../engine/requests.js';
import { expectRejected, firstFailure, outcome, send, type Step } from './helpers.js';
import { inOrder } from '../engine/pool.js';
import { limitParams } from './orders.js';
import { ALL_ROUTES, onRoute, SINGLE_ROUTES } from './routes.js';

/** The secrets a lookup falling back on a missing key may verify with. */
const FALLBACK_SECRETS: ReadonlyArray<[string, (ctx: CheckContext) => string]> = [
  ['an empty secret', () => ''],
  ['the API key as secret', (ctx) => ctx.target.apiKey],
  ['the text "undefined" as secret', () => 'undefined'],
  ['the text "null" as secret', () => 'null'],
];

/** The keys of a confused request: none, empty, unknown. */
const KEYS: ReadonlyArray<[string, RuleId, (ctx: CheckContext) => string | null]> = [
  ['no API-key header', 'AUTH-APIKEY-REQUIRED', () => null],
  ['an empty API-key header', 'AUTH-APIKEY-REQUIRED', () => ''],
  ['an unknown API key', 'AUTH-APIKEY-UNKNOWN', (ctx) => `spotcheck-unknown-${ctx.clientId()}`],
];

/** A route chosen by the seed for probe `i`. */
const routeFor = (seed: number, i: number, from: readonly Route[]): Route =>
  from[(((seed >>> 0) % 9973) + i * 7) % from.length] as Route;

function confusion(ruleId: RuleId): CheckDefinition {
  const keys = KEYS.filter(([, r]) => r === ruleId);
  return {
    id: `${ruleId}.confusion`,
    ruleId,
    title: `${keys.map(([k]) => k).join(' or ')}, signed with an empty secret, the key itself, "undefined" or "null"${ruleId === 'AUTH-APIKEY-REQUIRED' ? ', or the key sent as a query parameter instead of the header,' : ''} is refused and places nothing (§5.2, §5.3)`,
    async run(ctx) {
      const probes: Array<() => Promise<Step>> = [];
      let i = 0;
      for (const [what, , key] of keys)
        for (const [how, secret] of FALLBACK_SECRETS) {
          const r = routeFor(ctx.seed, i++, ALL_ROUTES);
          probes.push(async () =>
            expectRejected(
              await send(ctx, onRoute(ctx, r, { apiKey: key(ctx), secret: secret(ctx) })),
              `${routeKey(r)} with ${what}, signed with ${how}`,
              'auth',
            ),
          );
        }
      if (ruleId === 'AUTH-APIKEY-REQUIRED') {
        const header = ctx.target.profile?.apiKeyHeader ?? API_KEY_HEADER;
        for (const name of [header, 'apiKey']) {
          const r = routeFor(ctx.seed, i++, SINGLE_ROUTES);
          const version = r.endpoint === 'v1.1' ? 'v1.1' : 'v1';
          const placement = r.placement === 'json' ? 'query' : r.placement;
          probes.push(async () =>
            expectRejected(
              await send(
                ctx,
                ctx.requests.order({ ...limitParams(ctx), [name]: ctx.target.apiKey }, version, placement, {
                  apiKey: null,
                }),
              ),
              `${routeKey(r)} with the key as the signed parameter ${name}, no API-key header`,
              'auth',
            ),
          );
        }
      }
      const steps = await inOrder(probes, ctx.parallel ?? 1, (p) => p());
      return outcome(firstFailure(...steps), { runs: probes.length });
    },
  };
}

export const credentialChecks: CheckDefinition[] = [
  confusion('AUTH-APIKEY-REQUIRED'),
  confusion('AUTH-APIKEY-UNKNOWN'),
];
