/**
 * Edge mutants: the reference server with one fault at the edge of a rule, where a request
 * the kit sends only at that edge takes the faulty path (recvWindow 0, an over-limit batch
 * with an invalid or repeated member, a repeated client id inside a batch, a v1 order with
 * the v1.1-only amount, a zero decimal, a split request signed over one half, a long client
 * id echoed short, an order field echoed altered, an extreme decimal read into 64 bits or a
 * double). Each is caught by one edge check and no other. Test harness only.
 */
import { verify } from '../src/signing/hmac.js';
import { checkTimeWindow } from '../src/core/time.js';
import { defaultPolicy, type OutgoingResponse, type ResponseContext } from '../src/server/policy.js';
import type { ServerOptions } from '../src/server/server.js';
import { isRecord } from '../src/core/response.js';

export interface EdgeMutant {
  name: string;
  /** The one check that must fail. */
  caughtBy: string;
  options: ServerOptions;
}

type Issues = ReturnType<typeof defaultPolicy.validateBatch>;

/** Order values read as zero count as one (a lenient positive check); anything else is left as sent. */
const zeroAsOne = (o: unknown): unknown => {
  if (!isRecord(o)) return o;
  const out: Record<string, unknown> = { ...o };
  for (const f of ['quantity', 'price'])
    if (out[f] !== undefined && out[f] !== '' && Number(out[f]) === 0) out[f] = '1';
  return out;
};

/** Rewrite the entries of a batch answer. */
const mapEntries = (f: (entries: unknown[]) => unknown[]) => ({
  finalizeResponse: (res: OutgoingResponse): OutgoingResponse =>
    isRecord(res.body) && Array.isArray(res.body.result)
      ? { ...res, body: { ...res.body, result: f(res.body.result) } }
      : res,
});

/** Rewrite the order object of every placed entry of a batch answer. */
const mapOrders = (f: (o: Record<string, unknown>) => Record<string, unknown>) =>
  mapEntries((es) => es.map((e) => (isRecord(e) && isRecord(e.order) ? { ...e, order: f(e.order) } : e)));

/** A decimal rounded to two fraction digits, kept in the type it came in (string or number). */
const toCents = (v: unknown): unknown => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  // whole numbers are left as written: this rounder only cuts fraction digits
  if (!Number.isFinite(n) || Number.isInteger(n)) return v;
  const r = Math.round(n * 100) / 100;
  return typeof v === 'string' ? String(r) : r;
};

/** A decimal string whose integer part is past 64 bits, read into a signed 64-bit integer (wrapped), fraction dropped. */
const wrap64 = (v: unknown): unknown => {
  if (typeof v !== 'string' || !/^[0-9]+(\.[0-9]+)?$/.test(v)) return v;
  const int = BigInt(v.split('.')[0] ?? '0');
  return int > 2n ** 63n - 1n ? String(BigInt.asIntN(64, int)) : v;
};

/** Rewrite the top level of a single-order answer that placed an order (D-SINGLE-RESPONSE: the order fields sit there). */
const mapSingle = (endpoints: readonly string[], f: (o: Record<string, unknown>) => Record<string, unknown>) => ({
  finalizeResponse: (res: OutgoingResponse, c: ResponseContext): OutgoingResponse =>
    endpoints.includes(c.endpoint) && c.rejection === undefined && isRecord(res.body) && res.body.code === 0
      ? { ...res, body: f(res.body) }
      : res,
});

/** A decimal string read into a double and written back (`18446744073709551621` becomes `18446744073709552000`). */
const viaDouble = (v: unknown): unknown => (typeof v === 'string' && v !== '' ? String(Number(v)) : v);

/** A decimal with an exponent (`1e400`) or a JSON number past the double range (Infinity). */
const scientific = (v: unknown): boolean =>
  (typeof v === 'string' && /^[0-9.]+[eE][+-]?[0-9]+$/.test(v)) || (typeof v === 'number' && !Number.isFinite(v));

/** A float reader without a finiteness check: a positive exponent form (Infinity included) reads as a valid decimal. */
const expandScientific = (o: unknown): unknown => {
  if (!isRecord(o)) return o;
  const out: Record<string, unknown> = { ...o };
  for (const f of ['quantity', 'price', 'amount']) if (scientific(out[f]) && Number(out[f]) > 0) out[f] = '1';
  return out;
};

/** An order's echoed decimals as the double an exponent form was read into (`1e400` is `Infinity`). */
const doubleEcho = (o: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...o };
  for (const k of ['origQty', 'price', 'reqAmount']) if (scientific(out[k])) out[k] = String(Number(out[k]));
  return out;
};

const formBody = (body: string): boolean => body !== '' && !body.trimStart().startsWith('[');

export const edgeMutants: readonly EdgeMutant[] = [
  {
    name: 'recvWindow 0 read as absent (the default window)',
    caughtBy: 'TIME-RECVWINDOW-HONOURED.zero',
    options: {
      policy: {
        checkTime: (i) => checkTimeWindow({ ...i, recvWindow: i.recvWindow === 0 ? undefined : i.recvWindow }),
      },
    },
  },
  {
    name: 'a batch over 20 counted by its valid members with distinct client ids',
    caughtBy: 'BATCH-MAX-ORDERS.members',
    options: {
      policy: {
        validateBatch: (b: unknown): Issues => {
          const issues = defaultPolicy.validateBatch(b);
          if (!Array.isArray(b)) return issues;
          const bad = new Set(issues.filter((i) => typeof i.path[0] === 'number').map((i) => i.path[0]));
          const ids = new Set(
            b.map((o, k) => (isRecord(o) && typeof o.newClientOrderId === 'string' ? o.newClientOrderId : `#${k}`)),
          );
          const counted = Math.min(b.length - bad.size, ids.size);
          return counted <= 20 ? issues.filter((i) => i.ruleId !== 'BATCH-MAX-ORDERS') : issues;
        },
      },
    },
  },
  {
    name: 'a repeated client id inside a batch loses its entry',
    caughtBy: 'RESULT-ONE-PER-ORDER.duplicate-ids',
    options: { policy: mapEntries((es) => es.filter((e) => !(isRecord(e) && e.code === -1141))) },
  },
  {
    name: 'a v1 order takes the v1.1-only amount for its quantity',
    caughtBy: 'ORDER-QUANTITY-REQUIRED-V1.amount',
    options: {
      policy: {
        validateOrder: (input, o) => {
          const issues = defaultPolicy.validateOrder(input, o);
          const lenient = isRecord(input) && input.amount !== undefined && input.quantity === undefined;
          return lenient
            ? issues.filter((i) => i.ruleId !== 'ORDER-QUANTITY-REQUIRED-V1' && i.ruleId !== 'ORDER-AMOUNT-MARKET-ONLY')
            : issues;
        },
        validateBatch: (b) => {
          const issues = defaultPolicy.validateBatch(b);
          const lenient = (k: unknown) =>
            Array.isArray(b) &&
            typeof k === 'number' &&
            isRecord(b[k]) &&
            b[k].amount !== undefined &&
            b[k].quantity === undefined;
          return issues.filter(
            (i) =>
              !(
                (i.ruleId === 'ORDER-QUANTITY-REQUIRED-V1' || i.ruleId === 'ORDER-AMOUNT-MARKET-ONLY') &&
                lenient(i.path[0])
              ),
          );
        },
      },
    },
  },
  {
    name: 'a zero quantity or price passes the positive check',
    caughtBy: 'ORDER-DECIMAL-FORMAT.zero',
    options: {
      policy: {
        validateOrder: (input, o) => defaultPolicy.validateOrder(zeroAsOne(input), o),
        validateBatch: (b) => defaultPolicy.validateBatch(Array.isArray(b) ? b.map(zeroAsOne) : b),
      },
    },
  },
  {
    name: 'a split order signed over its query half only is accepted',
    caughtBy: 'SIG-BODY-COVERED.split',
    options: {
      policy: {
        verifySignature: (secret, s, sig) =>
          defaultPolicy.verifySignature(secret, s, sig) ||
          (s.queryWithoutSignature !== '' && formBody(s.body) && verify(secret, s.queryWithoutSignature, sig)),
      },
    },
  },
  {
    name: 'a split order signed over its body half only is accepted',
    caughtBy: 'SIG-QUERY-COVERED.split',
    options: {
      policy: {
        verifySignature: (secret, s, sig) =>
          defaultPolicy.verifySignature(secret, s, sig) ||
          (s.queryWithoutSignature !== '' && formBody(s.body) && verify(secret, s.body, sig)),
      },
    },
  },
  {
    name: 'a batch signed over its JSON body only is accepted',
    caughtBy: 'SIG-QUERY-COVERED.batch-body-only',
    options: {
      policy: {
        verifySignature: (secret, s, sig) =>
          defaultPolicy.verifySignature(secret, s, sig) ||
          (s.body.trimStart().startsWith('[') && verify(secret, s.body, sig)),
      },
    },
  },
  {
    name: 'a request signed over its body followed by its query is accepted',
    caughtBy: 'SIG-TOTALPARAMS-NO-SEPARATOR.reversed',
    options: {
      policy: {
        verifySignature: (secret, s, sig) =>
          defaultPolicy.verifySignature(secret, s, sig) ||
          (s.queryWithoutSignature !== '' && s.body !== '' && verify(secret, s.body + s.queryWithoutSignature, sig)),
      },
    },
  },
  {
    name: 'the side echoed swapped (BUY as SELL and SELL as BUY)',
    caughtBy: 'RESULT-ORDER-ECHO',
    options: {
      policy: mapOrders((o) => ({ ...o, side: o.side === 'BUY' ? 'SELL' : o.side === 'SELL' ? 'BUY' : o.side })),
    },
  },
  {
    name: 'the price echoed rounded to two fraction digits',
    caughtBy: 'RESULT-ORDER-ECHO',
    options: { policy: mapOrders((o) => (o.price === undefined ? o : { ...o, price: toCents(o.price) })) },
  },
  {
    name: 'the origQty echoed rounded to two fraction digits',
    caughtBy: 'RESULT-ORDER-ECHO',
    options: { policy: mapOrders((o) => (o.origQty === undefined ? o : { ...o, origQty: toCents(o.origQty) })) },
  },
  {
    name: 'timeInForce echoed as GTC whatever was sent',
    caughtBy: 'RESULT-ORDER-ECHO',
    options: { policy: mapOrders((o) => ({ ...o, timeInForce: 'GTC' })) },
  },
  {
    name: 'a quantity or price past the LONG range wrapped to 64 bits and placed',
    caughtBy: 'RESULT-ORDER-ECHO.huge',
    options: { policy: mapOrders((o) => ({ ...o, price: wrap64(o.price), origQty: wrap64(o.origQty) })) },
  },
  {
    name: "a single order's quantity and price read as doubles and echoed from them",
    caughtBy: 'ORDER-DECIMAL-FORMAT.huge',
    options: {
      policy: mapSingle(['v1', 'v1.1'], (o) => ({ ...o, price: viaDouble(o.price), origQty: viaDouble(o.origQty) })),
    },
  },
  {
    name: 'a v1.1 amount read into a signed 64-bit integer, wrapped, and placed',
    caughtBy: 'ORDER-DECIMAL-FORMAT.huge-amount',
    options: { policy: mapSingle(['v1.1'], (o) => ({ ...o, reqAmount: wrap64(o.reqAmount) })) },
  },
  {
    name: 'decimals in exponent form read as doubles without a finiteness check (1e400 is Infinity, placed)',
    caughtBy: 'ORDER-DECIMAL-FORMAT.overflow',
    options: {
      policy: {
        validateOrder: (input, o) => defaultPolicy.validateOrder(expandScientific(input), o),
        validateBatch: (b) => defaultPolicy.validateBatch(Array.isArray(b) ? b.map(expandScientific) : b),
        // the placed order holds the double: Infinity, written as such
        finalizeResponse: (res, c) =>
          mapOrders(doubleEcho).finalizeResponse(mapSingle(['v1', 'v1.1'], doubleEcho).finalizeResponse(res, c)),
      },
    },
  },
  {
    name: 'clientOrderId echoed cut to 64 characters',
    caughtBy: 'RESULT-CLIENT-ORDER-ID-ECHO.long',
    options: {
      policy: mapEntries((es) =>
        es.map((e) =>
          isRecord(e) && isRecord(e.order) && typeof e.order.clientOrderId === 'string'
            ? { ...e, order: { ...e.order, clientOrderId: e.order.clientOrderId.slice(0, 64) } }
            : e,
        ),
      ),
    },
  },
];
