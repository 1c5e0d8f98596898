/**
 * Turning a validated order into a placed one (§2.2 order data; decisions D-STATUS,
 * D-DUPLICATE-CLIENT-ID, D-STP-PLACEMENT). Wire encoding: every LONG (accountId,
 * orderId, transactTime) is a digit string and every DECIMAL a decimal string.
 */
import { plainDecimal } from '../core/validation/decimal.js';
import type { StpMode } from '../core/types.js';
import { isOneOf, STP_MODES } from '../core/validation/fields.js';
import { ApiCode } from '../core/codes.js';
import type { OrderStore, PlacedOrder } from './store.js';

/** Default self trade prevention mode (§2.1, ORDER-STP-MODE-DEFAULT). */
export const DEFAULT_STP_MODE: StpMode = 'EXPIRE_TAKER';

/** Who places and when. */
export interface PlaceContext {
  /** Account of the placing key (order.accountId). */
  accountId: string;
  /** Server time, epoch ms. */
  now: number;
}

/** A placed order, or the refusal of that order. */
export type PlaceOutcome =
  | { ok: true; order: PlacedOrder; stpMode: StpMode }
  | { ok: false; code: number; msg: string };

/** A DECIMAL as plain decimal text: strings are echoed as sent, numbers written without exponent. */
export function decimalText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) {
    return plainDecimal(v);
  }
  return '0';
}

/** The stpMode an entry reports: the one sent when valid, else the default (§2.1). */
export function stpModeOf(order: unknown): StpMode {
  const v = typeof order === 'object' && order !== null ? (order as { stpMode?: unknown }).stpMode : undefined;
  return isOneOf(STP_MODES, v) ? v : DEFAULT_STP_MODE;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/**
 * Place one order that passed validation. RESULT-CLIENT-ORDER-ID-ECHO (§2.2):
 * clientOrderId echoes newClientOrderId, or one is generated (ORDER-CLIENT-ID-GENERATED,
 * §2.1). A newClientOrderId held by the same account fails with -1141
 * (D-DUPLICATE-CLIENT-ID). D-STATUS: MARKET is FILLED at once, limit types are NEW.
 */
export function placeOrder(
  store: OrderStore,
  fields: Readonly<Record<string, unknown>>,
  ctx: PlaceContext,
): PlaceOutcome {
  const requested = fields.newClientOrderId;
  if (typeof requested === 'string' && requested !== '' && store.hasClientOrderId(ctx.accountId, requested)) {
    return {
      ok: false,
      code: ApiCode.DUPLICATE_CLIENT_ID,
      msg: `newClientOrderId ${JSON.stringify(requested)} is already used by a live order (D-DUPLICATE-CLIENT-ID)`,
    };
  }
  const orderId = store.nextOrderId();
  let clientOrderId = typeof requested === 'string' && requested !== '' ? requested : `spotcheck-${orderId}`;
  for (let n = 1; requested !== clientOrderId && store.hasClientOrderId(ctx.accountId, clientOrderId); n++) {
    clientOrderId = `spotcheck-${orderId}-${n}`;
  }
  const type = text(fields.type);
  const isMarket = type === 'MARKET';
  const origQty = fields.quantity === undefined ? '0' : decimalText(fields.quantity);
  const tif = fields.timeInForce;
  const symbol = text(fields.symbol);
  const order: PlacedOrder = {
    accountId: ctx.accountId,
    symbol: symbol,
    symbolName: symbol,
    clientOrderId,
    orderId,
    transactTime: String(ctx.now),
    price: fields.price === undefined ? '0' : decimalText(fields.price),
    origQty,
    executedQty: isMarket ? origQty : '0',
    status: isMarket ? 'FILLED' : 'NEW',
    timeInForce: typeof tif === 'string' && tif !== '' ? tif : isMarket ? 'IOC' : 'GTC',
    type: type as PlacedOrder['type'],
    side: text(fields.side) as PlacedOrder['side'],
    reqAmount: fields.amount === undefined ? '0' : decimalText(fields.amount),
  };
  store.add(order);
  return { ok: true, order, stpMode: stpModeOf(fields) };
}
