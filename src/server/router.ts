/**
 * Routing: the three served paths of the wire profile, each POST only (§4.1, §4.2, §9). Other paths
 * are not served (D-PREFIX: not even `/openapi/v1/order`).
 */
import { ApiCode, reject } from '../core/codes.js';
import { SEED_WIRE, type WireProfile } from '../core/wire.js';
import type { Endpoint } from './policy.js';
import { rejectionReply, type Reply } from './respond.js';

/** Paths of a wire and their endpoints. */
export type Routes = Readonly<Record<string, Exclude<Endpoint, 'none'>>>;

/** The served paths of a wire profile and their endpoints. */
export function routesOf(wire: WireProfile): Routes {
  return Object.freeze(Object.fromEntries(Object.values(wire.endpoints).map((e) => [e.path, e.name])));
}

/** Served paths and their endpoints, on the seed's wire. */
export const ROUTES: Routes = routesOf(SEED_WIRE);

/** The endpoint for a method and raw path, or the 404/405 reply (code -1000). */
export function route(
  method: string | undefined,
  path: string,
  routes: Routes = ROUTES,
): { ok: true; endpoint: Exclude<Endpoint, 'none'> } | { ok: false; reply: Reply } {
  const endpoint = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (endpoint === undefined) {
    const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
    return {
      ok: false,
      reply: rejectionReply(
        reject(
          'not-found',
          404,
          ApiCode.REQUEST,
          `No endpoint at ${JSON.stringify(shown)}; served: ${Object.keys(routes).join(', ')}`,
        ),
      ),
    };
  }
  if (method !== 'POST') {
    return {
      ok: false,
      reply: rejectionReply(
        reject(
          'method',
          405,
          ApiCode.REQUEST,
          `${endpoint === 'batch' ? 'Batch orders' : 'Orders'} are created with POST only`,
        ),
        { allow: 'POST' },
      ),
    };
  }
  return { ok: true, endpoint };
}
