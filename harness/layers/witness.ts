/**
 * One hand-made, correctly signed request per fault the kit misses, showing the bug is live: the
 * faulty venue answers it wrongly, the clean venue rightly. A `missed` entry of faults.ts is then
 * a blind spot of the kit, never an inert fault. Test harness only.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { LayerVenue } from './venues.js';

/** What a witness saw: whether the answer shows the bug, and the answer itself (for messages). */
export interface Witnessed {
  buggy: boolean;
  answer: string;
}

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

const sign = (v: LayerVenue, total: string): string => createHmac('sha256', v.secret).update(total).digest('hex');

async function post(v: LayerVenue, path: string, query: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${v.url}${path}?${query}`, {
    method: 'POST',
    ...init,
    headers: { 'X-SVC-APIKEY': v.apiKey, ...(init.headers as Record<string, string> | undefined) },
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text: `HTTP ${res.status} ${text.slice(0, 300)}`, json };
}

const code = (a: Answer): unknown => (a.json as { code?: unknown } | undefined)?.code;
const accepted = (a: Answer): boolean => a.status === 200 && code(a) === 0;
const fresh = (): string => randomBytes(4).toString('hex');

/** A single order with every parameter in the query, signed. */
function signedQuery(v: LayerVenue, params: Record<string, string>): string {
  const q = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  return `${q}&signature=${sign(v, q)}`;
}

const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' };

export const WITNESSES: Record<string, (v: LayerVenue) => Promise<Witnessed>> = {
  /** A client id with an apostrophe, in the query: refused by the front (403), not by the API. */
  async waf_blacklist(v) {
    const a = await post(v, '/api/v1/spot/order', signedQuery(v, { ...LIMIT, newClientOrderId: `o'neil-${fresh()}` }));
    return { buggy: a.status === 403, answer: a.text };
  },

  /** Every field but side signed in the query; side=SELL in an unsigned multipart body: placed. */
  async multipart_unsigned(v) {
    const { side: _side, ...rest } = LIMIT;
    const form = new FormData();
    form.set('side', 'SELL');
    const a = await post(v, '/api/v1/spot/order', signedQuery(v, rest), { body: form });
    return { buggy: accepted(a), answer: a.text };
  },

  /** A batch whose order has "side": true: the entry is placed. */
  async loose_in_array(v) {
    const body = JSON.stringify([{ ...LIMIT, side: true }]);
    const q = `timestamp=${Date.now()}`;
    const a = await post(v, '/api/v1/spot/batchOrders', `${q}&signature=${sign(v, q + body)}`, {
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    const entry = (a.json as { result?: { code?: unknown }[] } | undefined)?.result?.[0];
    return { buggy: accepted(a) && entry?.code === 0, answer: a.text };
  },

  /** Two fresh client ids differing in letter case: the second is refused as a duplicate. */
  async like_client_id(v) {
    const id = `Case-${fresh()}`;
    const first = await post(v, '/api/v1/spot/order', signedQuery(v, { ...LIMIT, newClientOrderId: id }));
    const second = await post(
      v,
      '/api/v1/spot/order',
      signedQuery(v, { ...LIMIT, newClientOrderId: id.toLowerCase() }),
    );
    return { buggy: accepted(first) && !accepted(second), answer: `${first.text} / ${second.text}` };
  },

  /** A v1.1 MARKET order with quantity and amount (§2.1 requires both for v1.1 MARKET): refused. */
  async v11_alias(v) {
    const a = await post(
      v,
      '/api/v1.1/spot/order',
      signedQuery(v, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', amount: '100' }),
    );
    return { buggy: !accepted(a), answer: a.text };
  },
};
