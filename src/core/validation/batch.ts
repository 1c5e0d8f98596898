/**
 * Validation of a batch body (§4.1).
 */
import { describeValue, issue, type Issue } from './issue.js';
import { validateOrder } from './order.js';

/** Orders per batch request (§4.1 rule 1, §8). */
export const MAX_BATCH_ORDERS = 20;

/**
 * Issues of a batch body (§4.1): a JSON array of 1 to 20 order objects (v1 rules),
 * all for one symbol. Issues about the whole batch have an empty path; issues of
 * one order have that order's index first.
 */
export function validateBatch(body: unknown): Issue[] {
  if (!Array.isArray(body)) {
    return [
      issue(
        'BATCH-JSON-BODY',
        [],
        'a JSON array of order objects',
        Array.isArray(body) ? 'array' : body === null ? 'null' : typeof body,
      ),
    ];
  }
  const out: Issue[] = [];
  if (body.length === 0) out.push(issue('BATCH-EMPTY', [], 'at least one order', '0 orders'));
  if (body.length > MAX_BATCH_ORDERS) {
    out.push(issue('BATCH-MAX-ORDERS', [], `at most ${MAX_BATCH_ORDERS} orders`, `${body.length} orders`));
  }
  const symbols = new Set<unknown>();
  for (const o of body) {
    if (typeof o === 'object' && o !== null && 'symbol' in o) symbols.add((o as { symbol: unknown }).symbol);
  }
  if (symbols.size > 1) {
    out.push(
      issue(
        'BATCH-SINGLE-SYMBOL',
        [],
        'every order for the same symbol',
        [...symbols].map((v) => (typeof v === 'string' ? v : describeValue(v))).join(', '),
      ),
    );
  }
  body.forEach((o, i) => out.push(...validateOrder(o, { version: 'v1', path: [i] })));
  return out;
}

/** Issues about the batch as a whole (empty path) versus those of single orders, by index. */
export function splitBatchIssues(issues: readonly Issue[]): { whole: Issue[]; byOrder: Map<number, Issue[]> } {
  const whole: Issue[] = [];
  const byOrder = new Map<number, Issue[]>();
  for (const i of issues) {
    const first = i.path[0];
    if (typeof first === 'number') {
      const list = byOrder.get(first) ?? [];
      list.push(i);
      byOrder.set(first, list);
    } else {
      whole.push(i);
    }
  }
  return { whole, byOrder };
}
