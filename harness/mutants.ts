/**
 * Mutant servers for the runner's self-test: the reference server with exactly one
 * deliberate fault each, built by overriding one rule seam (src/server policy) or
 * one option. Each names the rule family whose checks must catch it.
 */
import { verify } from '../src/signing/hmac.js';
import { checkTimeWindow, MAX_LEAD_MS } from '../src/core/time.js';
import { defaultPolicy, type OutgoingResponse } from '../src/server/policy.js';
import type { ServerOptions } from '../src/server/server.js';
import type { RuleFamily, RuleId } from '../src/core/rule-id.js';
import { isRecord } from '../src/core/response.js';

export interface Mutant {
  name: string;
  /** The family a failing check must belong to. */
  family: RuleFamily;
  /** The checks of that family that catch it (check IDs, or prefixes of them): the self-test runs these. */
  caughtBy: readonly string[];
  options: ServerOptions;
}

const dropIssues = (ruleId: RuleId) => ({
  validateBatch: (body: unknown) => defaultPolicy.validateBatch(body).filter((i) => i.ruleId !== ruleId),
  validateOrder: (input: unknown, o: Parameters<typeof defaultPolicy.validateOrder>[1]) =>
    defaultPolicy.validateOrder(input, o).filter((i) => i.ruleId !== ruleId),
});

/** Rewrite the entries of an accepted batch answer. */
function mapEntries(f: (entries: unknown[]) => unknown[]) {
  return {
    finalizeResponse: (res: OutgoingResponse): OutgoingResponse =>
      isRecord(res.body) && Array.isArray(res.body.result)
        ? { ...res, body: { ...res.body, result: f(res.body.result) } }
        : res,
  };
}

const mapOrders = (f: (order: Record<string, unknown>) => Record<string, unknown>) =>
  mapEntries((es) => es.map((e) => (isRecord(e) && isRecord(e.order) ? { ...e, order: f(e.order) } : e)));

/** The mutants; at least one per family. */
export const mutants: readonly Mutant[] = [
  {
    name: 'signature never checked',
    family: 'SIG',
    caughtBy: ['SIG-HMAC-SHA256-HEX.flipped-bit'],
    options: { policy: { verifySignature: () => true } },
  },
  {
    name: 'JSON body not covered by the signature (query-only signatures accepted too)',
    family: 'SIG',
    caughtBy: ['SIG-BODY-COVERED'],
    options: {
      policy: {
        verifySignature: (secret, steps, sig) =>
          defaultPolicy.verifySignature(secret, steps, sig) ||
          (steps.body.trimStart().startsWith('[') && verify(secret, steps.queryWithoutSignature, sig)),
      },
    },
  },
  {
    name: 'JSON body re-serialised before verifying',
    family: 'SIG',
    caughtBy: ['SIG-BODY-COVERED.tampered'],
    options: {
      policy: {
        verifySignature: (secret, steps, sig) => {
          if (defaultPolicy.verifySignature(secret, steps, sig)) return true;
          try {
            return (
              steps.body.trimStart().startsWith('[') &&
              verify(secret, steps.queryWithoutSignature + JSON.stringify(JSON.parse(steps.body)), sig)
            );
          } catch {
            return false;
          }
        },
      },
    },
  },
  {
    name: 'case-sensitive signature',
    family: 'SIG',
    caughtBy: ['SIG-CASE-INSENSITIVE'],
    options: {
      policy: {
        verifySignature: (secret, steps, sig) =>
          sig === sig.toLowerCase() && defaultPolicy.verifySignature(secret, steps, sig),
      },
    },
  },
  {
    name: "'&' inserted at the query/body join",
    family: 'SIG',
    caughtBy: ['SIG-TOTALPARAMS-NO-SEPARATOR'],
    options: {
      policy: {
        verifySignature: (secret, s, sig) =>
          verify(
            secret,
            s.queryWithoutSignature !== '' && s.body !== '' ? `${s.queryWithoutSignature}&${s.body}` : s.totalParams,
            sig,
          ),
      },
    },
  },
  {
    name: 'API key not required',
    family: 'AUTH',
    caughtBy: ['AUTH-APIKEY-REQUIRED'],
    options: {
      policy: {
        authenticate: (h, creds) =>
          h === undefined || h === '' ? { ok: true, credential: creds[0]! } : defaultPolicy.authenticate(h, creds),
      },
    },
  },
  {
    name: 'any API key accepted',
    family: 'AUTH',
    caughtBy: ['AUTH-APIKEY-UNKNOWN'],
    options: {
      policy: {
        authenticate: (h, creds) => {
          const r = defaultPolicy.authenticate(h, creds);
          return !r.ok && r.reason === 'unknown' ? { ok: true, credential: creds[0]! } : r;
        },
      },
    },
  },
  {
    name: 'TRADE permission not checked',
    family: 'AUTH',
    caughtBy: ['AUTH-PERMISSION'],
    options: {
      policy: {
        authenticate: (h, creds) => {
          const r = defaultPolicy.authenticate(h, creds);
          return r.ok
            ? { ok: true, credential: { ...r.credential, permissions: [...r.credential.permissions, 'TRADE'] } }
            : r;
        },
      },
    },
  },
  {
    name: 'no time check',
    family: 'TIME',
    caughtBy: ['TIME-WINDOW-PAST.hour', 'TIME-WINDOW-LEAD.hour'],
    options: {
      policy: {
        checkTime: (i) => ({ accepted: true, age: i.serverTime - i.timestamp, recvWindow: i.recvWindow ?? 5000 }),
      },
    },
  },
  {
    name: '5 s lead allowed',
    family: 'TIME',
    caughtBy: ['TIME-WINDOW-LEAD'],
    options: {
      policy: {
        checkTime: (i) =>
          i.timestamp >= i.serverTime + MAX_LEAD_MS && i.timestamp < i.serverTime + 5000
            ? { accepted: true, age: i.serverTime - i.timestamp, recvWindow: i.recvWindow ?? 5000 }
            : checkTimeWindow(i),
      },
    },
  },
  {
    name: 'recvWindow ignored (always 5000)',
    family: 'TIME',
    caughtBy: ['TIME-RECVWINDOW-HONOURED.width', 'TIME-RECVWINDOW-HONOURED.zero'],
    options: { policy: { checkTime: (i) => checkTimeWindow({ ...i, recvWindow: undefined }) } },
  },
  {
    name: '60 s default window',
    family: 'TIME',
    caughtBy: ['TIME-RECVWINDOW-DEFAULT.width', 'TIME-REJECTED'],
    options: { policy: { checkTime: (i) => checkTimeWindow({ ...i, recvWindow: i.recvWindow ?? 60000 }) } },
  },
  {
    name: '21 orders accepted',
    family: 'BATCH',
    caughtBy: ['BATCH-MAX-ORDERS'],
    options: { policy: dropIssues('BATCH-MAX-ORDERS') },
  },
  {
    name: '20 orders rejected',
    family: 'BATCH',
    caughtBy: ['BATCH-ACCEPT-UP-TO-MAX'],
    options: {
      policy: {
        validateBatch: (b) => {
          const issues = defaultPolicy.validateBatch(b);
          return Array.isArray(b) && b.length === 20
            ? [
                ...issues,
                {
                  ruleId: 'BATCH-MAX-ORDERS',
                  path: [],
                  expected: 'fewer than 20',
                  received: '20',
                  missing: false,
                  message: 'mutant',
                },
              ]
            : issues;
        },
      },
    },
  },
  {
    name: 'mixed symbols accepted',
    family: 'BATCH',
    caughtBy: ['BATCH-SINGLE-SYMBOL'],
    options: { policy: dropIssues('BATCH-SINGLE-SYMBOL') },
  },
  {
    // a string "0" reads as 0 (D-CODE-READING): the answer says the invalid order was placed
    name: 'failed batch entries answered with "code":"0"',
    family: 'BATCH',
    caughtBy: ['BATCH-PER-ORDER-RULES'],
    options: { policy: mapEntries((es) => es.map((e) => (isRecord(e) && e.code !== 0 ? { ...e, code: '0' } : e))) },
  },
  {
    name: 'LIMIT without price accepted',
    family: 'ORDER',
    caughtBy: ['ORDER-PRICE-REQUIRED-LIMIT'],
    options: { policy: dropIssues('ORDER-PRICE-REQUIRED-LIMIT') },
  },
  {
    name: '256-character client ids accepted',
    family: 'ORDER',
    caughtBy: ['ORDER-CLIENT-ID-LENGTH'],
    options: { policy: dropIssues('ORDER-CLIENT-ID-LENGTH') },
  },
  {
    name: 'invalid side accepted',
    family: 'ORDER',
    caughtBy: ['ORDER-SIDE-ENUM'],
    options: { policy: dropIssues('ORDER-SIDE-ENUM') },
  },
  {
    name: 'results reversed',
    family: 'RESULT',
    caughtBy: ['RESULT-ORDER-MATCH'],
    options: { policy: mapEntries((es) => [...es].reverse()) },
  },
  {
    name: 'results missing code',
    family: 'RESULT',
    caughtBy: ['RESULT-ENTRY-CODE-MSG'],
    options: {
      policy: mapEntries((es) =>
        es.map((e) => (isRecord(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'code')) : e)),
      ),
    },
  },
  {
    name: 'failed orders dropped from results',
    family: 'RESULT',
    caughtBy: ['RESULT-FAILED-ORDER-REPORTED'],
    options: { policy: mapEntries((es) => es.filter((e) => isRecord(e) && e.code === 0)) },
  },
  {
    name: 'clientOrderId not echoed',
    family: 'RESULT',
    caughtBy: ['RESULT-CLIENT-ORDER-ID-ECHO'],
    options: { policy: mapOrders((o) => ({ ...o, clientOrderId: `srv-${String(o.orderId)}` })) },
  },
  {
    name: 'orderId longer than 20 characters',
    family: 'RESULT',
    caughtBy: ['RESULT-ORDER-ID'],
    options: {
      policy: mapOrders((o) => ({ ...o, orderId: `${String(o.orderId)}000000000000000000000`.slice(0, 24) })),
    },
  },
  {
    name: 'order fields of the wrong type',
    family: 'SCHEMA',
    caughtBy: ['SCHEMA-BATCH-RESPONSE'],
    options: { policy: mapOrders((o) => ({ ...o, transactTime: new Date().toISOString() })) },
  },
  {
    name: 'malformed JSON answered 500',
    family: 'ROBUST',
    caughtBy: ['ROBUST-NO-5XX.malformed-json'],
    options: {
      policy: { finalizeResponse: (res, ctx) => (ctx.rejection === 'malformed-json' ? { ...res, status: 500 } : res) },
    },
  },
];
