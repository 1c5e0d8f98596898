/**
 * The in-memory order store (decision D-ORDER-STORE): the newest orders are kept up
 * to a bound, older ones are forgotten, so memory stays flat under load.
 */
import type { OrderResponse, StpMode } from '../types.js';

/** Orders kept by default (D-ORDER-STORE). */
export const DEFAULT_STORE_CAPACITY = 10_000;

/** An order as the server placed it: the §2.2 order data (LONGs and DECIMALs as strings) plus its stpMode. */
export interface PlacedOrder extends OrderResponse {
  accountId: string;
  symbolName: string;
  orderId: string;
  transactTime: string;
  price: string;
  origQty: string;
  executedQty: string;
  status: string;
  timeInForce: string;
  reqAmount: string;
  stpMode: StpMode;
}

/** Read-only view of the placed orders, for tests and the runner's self-test. */
export interface OrderLog {
  /** Orders placed since the server started (never decreases, even when old ones are forgotten). */
  count(): number;
  /** The orders still held, oldest first. */
  list(): PlacedOrder[];
}

/**
 * Orders by id, with a per-account index of client order ids. Order ids are a
 * counter from a clock-derived base: unique within the process and at most 20
 * digits (RESULT-ORDER-ID, §2.2, §8).
 */
export class OrderStore implements OrderLog {
  readonly capacity: number;
  private readonly byId = new Map<string, PlacedOrder>();
  private readonly byClientId = new Map<string, string>();
  private next: bigint;
  private placed = 0;

  /** `firstId` seeds the id counter (e.g. the start time in ms times 1000). */
  constructor(capacity: number = DEFAULT_STORE_CAPACITY, firstId = 1n) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.next = firstId < 1n ? 1n : firstId;
  }

  /** A fresh order id (at most 20 digits; the counter wraps to 1 rather than grow past that). */
  nextOrderId(): string {
    if (this.next >= 10n ** 20n) this.next = 1n;
    const id = this.next.toString();
    this.next += 1n;
    return id;
  }

  /** Whether this account has a held order with this client order id (D-DUPLICATE-CLIENT-ID). */
  hasClientOrderId(accountId: string, clientOrderId: string): boolean {
    return this.byClientId.has(clientKey(accountId, clientOrderId));
  }

  /** Hold an order, forgetting the oldest beyond the capacity. */
  add(order: PlacedOrder): void {
    this.byId.set(order.orderId, order);
    this.byClientId.set(clientKey(order.accountId, order.clientOrderId), order.orderId);
    this.placed++;
    while (this.byId.size > this.capacity) {
      const oldest = this.byId.keys().next();
      if (oldest.done === true) break;
      const o = this.byId.get(oldest.value);
      this.byId.delete(oldest.value);
      if (o !== undefined) this.byClientId.delete(clientKey(o.accountId, o.clientOrderId));
    }
  }

  count(): number {
    return this.placed;
  }

  list(): PlacedOrder[] {
    return [...this.byId.values()];
  }
}

function clientKey(accountId: string, clientOrderId: string): string {
  return `${accountId}\u0000${clientOrderId}`;
}
