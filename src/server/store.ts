/**
 * The in-memory order store (decision D-ORDER-STORE): the newest orders are kept up
 * to a bound, older ones are forgotten, so memory stays flat under load.
 */
import type { OrderResponse } from '../core/types.js';

/** Orders kept by default (D-ORDER-STORE). */
export const DEFAULT_STORE_CAPACITY = 10_000;

/** An order as the server placed it: the §2.2 order data, LONGs and DECIMALs as strings. */
export interface PlacedOrder extends OrderResponse {
  /** Account number of the placing key (digits). */
  accountId: string;
  /** Same as symbol. */
  symbolName: string;
  /** Unique, digits, at most 20 characters. */
  orderId: string;
  /** Server time of placement, epoch ms (digits). */
  transactTime: string;
  /** Price as sent; `0` when none (MARKET). */
  price: string;
  /** Quantity as sent; `0` when none (v1.1 MARKET by amount). */
  origQty: string;
  /** origQty for MARKET (FILLED), `0` for limit types (NEW), D-STATUS. */
  executedQty: string;
  /** `FILLED` or `NEW` (D-STATUS). */
  status: string;
  /** As sent, else GTC for limit types and IOC for MARKET. */
  timeInForce: string;
  /** amount as sent (v1.1 MARKET), else `0`. */
  reqAmount: string;
}

/** Read-only view of the placed orders, for tests and the runner's self-test. */
export interface OrderLog {
  /** Orders placed since the server started (never decreases, even when old ones are forgotten). */
  count(): number;
  /** The orders still held, oldest first. */
  list(): PlacedOrder[];
}

/**
 * The newest orders in a ring (oldest overwritten first, O(1) per order), with a
 * per-account index of client order ids. Order ids are a counter from a
 * clock-derived base: unique within the process and at most 20 digits
 * (RESULT-ORDER-ID, §2.2, §8).
 */
export class OrderStore implements OrderLog {
  /** Orders held at most. */
  readonly capacity: number;
  private readonly ring: Array<PlacedOrder | undefined>;
  private readonly byClientId = new Map<string, Map<string, PlacedOrder>>();
  private next: number;
  private placed = 0;

  /** `firstId` seeds the id counter (e.g. the start time in ms times 1000); it stays below 2^53. */
  constructor(capacity: number = DEFAULT_STORE_CAPACITY, firstId = 1) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.ring = new Array<PlacedOrder | undefined>(this.capacity);
    this.next = Number.isSafeInteger(firstId) && firstId >= 1 ? firstId : 1;
  }

  /** A fresh order id: digits only, at most 16 characters (the counter restarts at 1 before leaving the safe integers). */
  nextOrderId(): string {
    if (this.next >= Number.MAX_SAFE_INTEGER) this.next = 1;
    return String(this.next++);
  }

  /** Whether this account has a held order with this client order id (D-DUPLICATE-CLIENT-ID). */
  hasClientOrderId(accountId: string, clientOrderId: string): boolean {
    return this.byClientId.get(accountId)?.has(clientOrderId) === true;
  }

  /** Hold an order, forgetting the oldest one once the store is full. */
  add(order: PlacedOrder): void {
    const slot = this.placed % this.capacity;
    const old = this.ring[slot];
    if (old !== undefined) {
      const ids = this.byClientId.get(old.accountId);
      if (ids?.get(old.clientOrderId) === old) ids.delete(old.clientOrderId);
    }
    this.ring[slot] = order;
    let ids = this.byClientId.get(order.accountId);
    if (ids === undefined) this.byClientId.set(order.accountId, (ids = new Map()));
    ids.set(order.clientOrderId, order);
    this.placed++;
  }

  /** Orders placed since creation. */
  count(): number {
    return this.placed;
  }

  /** Held orders, oldest first. */
  list(): PlacedOrder[] {
    const out: PlacedOrder[] = [];
    const n = Math.min(this.placed, this.capacity);
    for (let i = this.placed - n; i < this.placed; i++) out.push(this.ring[i % this.capacity] as PlacedOrder);
    return out;
  }
}
