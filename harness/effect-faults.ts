/**
 * Servers that refuse a batch as a whole yet place its valid orders (§4.1, §5.4 item 3
 * "otherwise it is rejected"): the answer says refused, the order book says otherwise. The
 * reference server behind the variant proxy, which answers the refusal itself and forwards
 * the valid part, re-signed, so the orders are placed. Only an effect shows them: a client
 * id of the refused call reused, or the order-lookup path. Test harness only.
 */
import { DEMO_SECRET } from '../src/server/credentials.js';
import { resign, type ProxiedRequest, type VariantOptions } from './variants.js';

export interface EffectFault {
  name: string;
  options: VariantOptions;
}

function ordersOf(r: ProxiedRequest): Array<Record<string, unknown>> | undefined {
  try {
    const v = JSON.parse(r.body) as unknown;
    return Array.isArray(v) ? (v as Array<Record<string, unknown>>) : undefined;
  } catch {
    return undefined;
  }
}

/** Refuse with `answer` but place `keep` of the batch's orders. */
function refuseButPlace(
  when: (r: ProxiedRequest, orders: Array<Record<string, unknown>>) => Array<Record<string, unknown>> | undefined,
  answer: { status: number; body: unknown },
): VariantOptions {
  return {
    rewrite: (r) => {
      const orders = r.route === 'batch/json' ? ordersOf(r) : undefined;
      const keep = orders === undefined ? undefined : when(r, orders);
      if (keep === undefined) return r;
      return {
        answer,
        forward: resign(
          { ...r, body: JSON.stringify(keep), headers: { ...r.headers, 'content-type': 'application/json' } },
          DEMO_SECRET,
        ),
      };
    },
  };
}

const signatureOf = (r: ProxiedRequest): string | undefined =>
  /(?:^|&)signature=([^&]*)/.exec(r.query)?.[1]?.toLowerCase();

export const effectFaults: readonly EffectFault[] = [
  {
    name: 'a batch of more than 20 orders refused, its first 20 placed',
    options: refuseButPlace((_r, o) => (o.length > 20 ? o.slice(0, 20) : undefined), {
      status: 400,
      body: { code: -1193, msg: 'too many orders' },
    }),
  },
  {
    name: 'a mixed-symbol batch refused, the orders of its first symbol placed',
    options: refuseButPlace(
      (_r, o) => (new Set(o.map((x) => x.symbol)).size > 1 ? o.filter((x) => x.symbol === o[0]?.symbol) : undefined),
      { status: 400, body: { code: -1194, msg: 'one symbol per batch' } },
    ),
  },
  {
    name: 'a batch refused for its signature, its orders placed',
    options: refuseButPlace((r, o) => (signatureOf(r) !== signatureOf(resign(r, DEMO_SECRET)) ? o : undefined), {
      status: 401,
      body: { code: -1022, msg: 'Signature for this request is not valid.' },
    }),
  },
];
