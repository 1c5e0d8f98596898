/**
 * Test harness (not published): helpers for tests and self-tests that drive a reference server over loopback:
 * a clock the test sets, and one-call signed requests built with the kit's client
 * builders (so tests sign exactly as the client does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { sendRaw, type RawRequest, type RawResponse } from '../../src/client/http.js';
import { kitPath } from '../../src/paths.js';
import {
  batchOrdersRequest,
  orderRequest,
  type BatchElement,
  type NewOrderV11,
  type SigningAuth,
} from '../../src/client/requests.js';
import type { Placement } from '../../src/core/signing/build.js';
import type { Clock } from '../../src/core/time.js';
import type { ApiVersion } from '../../src/core/validation/order.js';
import type { Credential } from '../../src/server/policy.js';
import type { RunningServer } from '../../src/server/server.js';

/** A clock standing still until the test moves it. */
export interface SettableClock {
  /** Reads the current setting. */
  clock: Clock;
  /** Set the time, epoch ms. */
  set(ms: number): void;
  /** Move the time by `ms`. */
  advance(ms: number): void;
}

/** A clock that reads `start` until set or advanced. */
export function settableClock(start: number): SettableClock {
  let now = start;
  return {
    clock: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** Signed requests to one server with one credential, timestamps from a clock. */
export interface Caller {
  /** Send a raw request as is. */
  raw(req: RawRequest): Promise<RawResponse>;
  /** A signed batch; `auth` overrides the signing inputs (timestamp, recvWindow, secret...). */
  batch(orders: ReadonlyArray<BatchElement>, auth?: Partial<SigningAuth>): Promise<RawResponse>;
  /** A signed single order. */
  order(
    order: NewOrderV11 | Record<string, unknown>,
    opts?: { version?: ApiVersion; placement?: Placement },
    auth?: Partial<SigningAuth>,
  ): Promise<RawResponse>;
}

/** A caller for `server` signing with `cred`, timestamps from `clock`. */
export function caller(server: RunningServer, cred: Credential, clock: Clock): Caller {
  const auth = (over: Partial<SigningAuth> = {}): SigningAuth => ({
    apiKey: cred.apiKey,
    secret: cred.secret,
    timestamp: clock(),
    ...over,
  });
  const raw = (req: RawRequest): Promise<RawResponse> => sendRaw(server.url, req, { timeoutMs: 5000 });
  return {
    raw,
    batch: (orders, over) => raw(batchOrdersRequest(orders, auth(over)).request),
    order: (order, opts = {}, over) =>
      raw(
        orderRequest(
          order as NewOrderV11,
          { version: opts.version ?? 'v1', placement: opts.placement ?? 'query' },
          auth(over),
        ).request,
      ),
  };
}

let specSchemas: Ajv2020 | undefined;

/** Validator of one generated schema of spec/schemas, by file name (`batch-order-response`). */
export function specSchema(name: string): ValidateFunction {
  if (specSchemas === undefined) {
    specSchemas = new Ajv2020({ strict: false });
    for (const f of readdirSync(kitPath('spec', 'schemas')))
      specSchemas.addSchema(JSON.parse(readFileSync(kitPath('spec', 'schemas', f), 'utf8')) as object);
  }
  const v = specSchemas.getSchema(`urn:spotcheck:schemas:${name}`);
  if (v === undefined) throw new Error(`no schema ${name} in spec/schemas`);
  return v;
}
