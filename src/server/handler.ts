/**
 * What the endpoint handlers receive and share.
 */
import type { AuthDeps } from './auth.js';
import type { OrderStore } from './store.js';

/** One request as received, reduced to what the endpoints read. */
export interface RequestInput {
  /** Raw query string without `?`, as sent. */
  rawQuery: string;
  /** Body text as sent. */
  body: string;
  /** The Content-Type header. */
  contentType: string | undefined;
  /** The X-SVC-APIKEY header (§5.2). */
  apiKeyHeader: string | undefined;
  /** HTTP method and path as received, for the signature doctor (PATH_SIGNED). */
  method?: string;
  path?: string;
}

/** Method and path of a request, when known (for the signature doctor). */
export function methodAndPath(input: RequestInput): { method?: string; path?: string } {
  return {
    ...(input.method !== undefined ? { method: input.method } : {}),
    ...(input.path !== undefined ? { path: input.path } : {}),
  };
}

/** Server state the endpoint handlers use. */
export interface HandlerDeps extends AuthDeps {
  /** Where placed orders go. */
  store: OrderStore;
  /** Account number of each API key (order.accountId, §2.2). */
  accountIdOf: (apiKey: string) => string;
}
