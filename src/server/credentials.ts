/**
 * The keys a reference server accepts (§5.1, §5.2), including the documented demo
 * credentials used when none are given.
 */
import { SpotcheckError } from '../core/errors.js';
import type { Credential } from './policy.js';
import { API_KEY_HEADER } from '../core/wire.js';

/** Demo API key with the TRADE permission (documented; not a secret). */
export const DEMO_API_KEY = 'spotcheck-demo-key';
/** Secret of the demo key (documented; may be printed). */
export const DEMO_SECRET = 'spotcheck-demo-secret';
/** Demo API key without the TRADE permission, to exercise AUTH-PERMISSION (§5.1). */
export const DEMO_READONLY_API_KEY = 'spotcheck-demo-readonly-key';
/** Secret of the read-only demo key (documented; may be printed). */
export const DEMO_READONLY_SECRET = 'spotcheck-demo-readonly-secret';

/** The demo credentials: one key that may trade and one that may only read (USER_DATA). */
export const DEMO_CREDENTIALS: ReadonlyArray<Credential> = Object.freeze([
  Object.freeze({
    apiKey: DEMO_API_KEY,
    secret: DEMO_SECRET,
    permissions: Object.freeze(['TRADE', 'USER_DATA'] as const),
  }),
  Object.freeze({
    apiKey: DEMO_READONLY_API_KEY,
    secret: DEMO_READONLY_SECRET,
    permissions: Object.freeze(['USER_DATA'] as const),
  }),
]);

/** True when the secret is one of the documented demo secrets (the only secrets ever printed). */
export function isDemoSecret(secret: string): boolean {
  return secret === DEMO_SECRET || secret === DEMO_READONLY_SECRET;
}

/** Visible ASCII only: a key has to travel in an HTTP header (§5.2). */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Check a credential set before serving: at least one key, each key non-empty,
 * header-safe and unique, each secret non-empty. Throws `ERR_SERVER_START`; the
 * message never contains a secret.
 */
export function checkCredentials(list: ReadonlyArray<Credential>): void {
  if (list.length === 0)
    throw new SpotcheckError('ERR_SERVER_START', 'no credentials: the server needs at least one API key');
  const seen = new Set<string>();
  list.forEach((c, i) => {
    if (typeof c.apiKey !== 'string' || !HEADER_SAFE.test(c.apiKey)) {
      throw new SpotcheckError(
        'ERR_SERVER_START',
        `credential ${i}: the API key must be non-empty visible ASCII (it travels in the ${API_KEY_HEADER} header)`,
      );
    }
    if (seen.has(c.apiKey))
      throw new SpotcheckError('ERR_SERVER_START', `credential ${i}: API key ${c.apiKey} is listed twice`);
    seen.add(c.apiKey);
    if (typeof c.secret !== 'string' || c.secret === '') {
      throw new SpotcheckError(
        'ERR_SERVER_START',
        `credential ${i} (${c.apiKey}): the secret must be a non-empty string`,
      );
    }
    if (!Array.isArray(c.permissions)) {
      throw new SpotcheckError('ERR_SERVER_START', `credential ${i} (${c.apiKey}): permissions must be a list`);
    }
  });
}
