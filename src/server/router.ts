/**
 * Routing: the three served paths, each POST only (§4.1, §4.2, §9). Other paths
 * are not served (D-PREFIX: not even `/openapi/v1/order`).
 */
import { ApiCode, reject } from '../core/codes.js';
import { ENDPOINTS } from '../core/wire.js';
import type { Endpoint } from './policy.js';
import { rejectionReply, type Reply } from './respond.js';

/** Served paths and their endpoints. */
export const ROUTES: Readonly<Record<string, Exclude<Endpoint, 'none'>>> = Object.freeze(
  Object.fromEntries(Object.values(ENDPOINTS).map((e) => [e.path, e.name])),
);

/** The endpoint for a method and raw path, or the 404/405 reply (code -1000). */
export function route(method: string | undefined, path: string): { ok: true; endpoint: Exclude<Endpoint, 'none'> } | { ok: false; reply: Reply } {
  const endpoint = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (endpoint === undefined) {
    const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
    return { ok: false, reply: rejectionReply(reject('not-found', 404, ApiCode.REQUEST, `No endpoint at ${JSON.stringify(shown)}; served: ${Object.keys(ROUTES).join(', ')}`)) };
  }
  if (method !== 'POST') {
    return {
      ok: false,
      reply: rejectionReply(reject('method', 405, ApiCode.REQUEST, `${endpoint === 'batchOrders' ? 'Batch orders' : 'Orders'} are created with POST only`), { allow: 'POST' }),
    };
  }
  return { ok: true, endpoint };
}
