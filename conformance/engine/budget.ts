/**
 * The order budget (`--max-orders`, or a declared account budget) as a reservation: every
 * request that could place orders if the server accepted it, whatever the kit expects of it
 * (positive and negative probes, controls, fingerprints, effect probes, shrinking, retries),
 * reserves them before it is sent, requests in flight included. A request that does not fit is
 * not sent. So a server that accepts everything places at most the cap.
 */
import type { RawRequest } from '../../src/client/http.js';
import { entriesOf, entryFailed, type Observation } from '../../src/core/response.js';

/** Why a request was held back by the order budget (the start of every such reason). */
export const BUDGET_REASON = 'the order budget (';

/** The order paths of the target: batch and single-order paths place orders, a test-order path never does. */
export interface OrderPaths {
  batch: string;
  single: readonly string[];
}

/**
 * Orders a request could place if the server accepted it: every element of a batch body (a
 * server ignoring §4.1's limit of 20 places them all); a batch body that is not a JSON array
 * counts its `symbol` members (a lenient server reads an object as one order), at least one
 * when no JSON parser reads it; one for a single-order request, none for any other path.
 */
export function ordersIn(req: Pick<RawRequest, 'path' | 'body'>, paths: OrderPaths): number {
  const path = req.path.split('?')[0] ?? '';
  if (path === paths.batch) {
    if (req.body.trim() === '') return 0;
    const symbols = (): number => req.body.split(/symbol/i).length - 1;
    try {
      const v = JSON.parse(req.body) as unknown;
      return Array.isArray(v) ? v.length : symbols();
    } catch {
      return Math.max(1, symbols());
    }
  }
  return paths.single.includes(path) ? 1 : 0;
}

/**
 * Orders a sent request may have placed, of the `n` it could: none when the whole call was
 * refused (or never sent), `n` less the batch entries that failed when it was accepted, and all
 * `n` when the answer does not say (no answer, a 5xx, an unreadable body): counted, not guessed.
 */
export function mayHavePlaced(n: number, o: Observation): number {
  if (o.verdict === 'rejected' || o.verdict === 'not-sent' || o.verdict === 'rate-limited') return 0;
  if (o.verdict !== 'accepted') return n;
  const failed = (entriesOf(o.json) ?? []).filter(entryFailed).length;
  return Math.max(0, n - failed);
}

export interface OrderBudget {
  readonly max: number;
  /** `--max-orders N`, or the account budget, in words. */
  readonly label: string;
  /** Reserve `n` orders for a request about to be sent; false (and counted as withheld) when it does not fit. */
  reserve(n: number, share?: ShareState): boolean;
  /** The request got its answer: its reservation becomes the orders it may have placed (mayHavePlaced). */
  settle(n: number, o: Observation, share?: ShareState): void;
  /** Orders the sent requests may have placed. */
  placed(): number;
  /** Requests held back so far. */
  withheld(): number;
  /** A fresh share for a check that places orders (`placing` such checks still to start, this one included). */
  share(placing: number): ShareState;
}

/** A check's share of what was left when it started (a greedy early check cannot starve the MUST checks after it): its orders reserved or placed. */
export interface ShareState {
  limit: number;
  used: number;
}

export function createOrderBudget(requested: number, account?: number): OrderBudget {
  const accountCap = account ?? Infinity;
  const max = Math.min(requested, accountCap);
  const label = accountCap < requested ? `the account budget: ${accountCap} orders` : `--max-orders ${requested}`;
  let placed = 0;
  let reserved = 0;
  let withheld = 0;
  return {
    max,
    label,
    reserve(n, share) {
      if (n === 0) return true;
      if (placed + reserved + n > max || (share !== undefined && share.used + n > share.limit)) {
        withheld++;
        return false;
      }
      reserved += n;
      if (share !== undefined) share.used += n;
      return true;
    },
    settle(n, o, share) {
      if (n === 0) return;
      const kept = mayHavePlaced(n, o);
      reserved -= n;
      placed += kept;
      if (share !== undefined) share.used -= n - kept;
    },
    placed: () => placed,
    withheld: () => withheld,
    share(placing) {
      const limit = Number.isFinite(max) ? Math.floor((max - placed - reserved) / Math.max(1, placing)) : Infinity;
      return { limit, used: 0 };
    },
  };
}
