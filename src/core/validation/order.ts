/**
 * Validation of one order against the field rules of §2.1 (v1 and v1.1).
 */
import { issue, type Issue } from './issue.js';
import {
  charLength,
  isOneOf,
  MAX_CLIENT_ORDER_ID,
  ORDER_TYPES,
  parseDecimal,
  SIDES,
  STP_MODES,
  TIME_IN_FORCE_VALUES,
} from './fields.js';

/** Which parameter set: `/api/v1/...` or `/api/v1.1/...` (§4.2, §9). */
export type ApiVersion = 'v1' | 'v1.1';

/** Options of {@link validateOrder}. */
export interface ValidateOrderOptions {
  version: ApiVersion;
  /** Prefix for issue paths, e.g. the index of the order in a batch. */
  path?: ReadonlyArray<string | number>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkDecimal(out: Issue[], path: ReadonlyArray<string | number>, field: string, v: unknown): void {
  const n = parseDecimal(v);
  if (n === undefined || n <= 0) {
    out.push(issue('ORDER-DECIMAL-FORMAT', [...path, field], 'a positive decimal (JSON number or decimal string)', v));
  }
}

/**
 * Issues of one order (§2.1). Time parameters are checked separately
 * (`checkTimeParams`) because the batch carries them in the query (§4.1).
 */
export function validateOrder(input: unknown, opts: ValidateOrderOptions): Issue[] {
  const path = opts.path ?? [];
  const out: Issue[] = [];
  if (!isRecord(input)) {
    out.push(issue('BATCH-PER-ORDER-RULES', path, 'an order object', input));
    return out;
  }
  const { symbol, side, type, quantity, amount, price, newClientOrderId, timeInForce, stpMode } = input;

  if (typeof symbol !== 'string' || symbol === '') {
    out.push(issue('ORDER-SYMBOL-REQUIRED', [...path, 'symbol'], 'a non-empty symbol', symbol));
  }
  if (!isOneOf(SIDES, side)) out.push(issue('ORDER-SIDE-ENUM', [...path, 'side'], 'BUY or SELL', side));
  if (!isOneOf(ORDER_TYPES, type)) {
    out.push(issue('ORDER-TYPE-ENUM', [...path, 'type'], 'LIMIT, MARKET or LIMIT_MAKER', type));
  }

  const isMarket = type === 'MARKET';
  const isLimit = type === 'LIMIT' || type === 'LIMIT_MAKER';

  if (opts.version === 'v1') {
    if (quantity === undefined) {
      out.push(issue('ORDER-QUANTITY-REQUIRED-V1', [...path, 'quantity'], 'quantity (required in v1)', quantity));
    }
    if (amount !== undefined) {
      out.push(issue('ORDER-AMOUNT-MARKET-ONLY', [...path, 'amount'], 'no amount field in v1', amount));
    }
  } else {
    if (isMarket && quantity === undefined && amount === undefined) {
      out.push(
        issue('ORDER-MARKET-SIZE-V11', [...path, 'quantity'], 'quantity or amount for a v1.1 MARKET order', undefined),
      );
    }
    if (isLimit && quantity === undefined) {
      out.push(issue('ORDER-QUANTITY-V11', [...path, 'quantity'], 'quantity for a v1.1 limit order', quantity));
    }
    if (amount !== undefined && !isMarket) {
      out.push(issue('ORDER-AMOUNT-MARKET-ONLY', [...path, 'amount'], 'amount on MARKET orders only', amount));
    }
  }
  if (quantity !== undefined) checkDecimal(out, path, 'quantity', quantity);
  if (amount !== undefined) checkDecimal(out, path, 'amount', amount);

  if (isLimit && price === undefined) {
    out.push(issue('ORDER-PRICE-REQUIRED-LIMIT', [...path, 'price'], `price for a ${String(type)} order`, price));
  }
  if (price !== undefined) checkDecimal(out, path, 'price', price);

  if (newClientOrderId !== undefined) {
    const len = typeof newClientOrderId === 'string' ? charLength(newClientOrderId) : -1;
    if (len < 1 || len > MAX_CLIENT_ORDER_ID) {
      out.push(
        issue(
          'ORDER-CLIENT-ID-LENGTH',
          [...path, 'newClientOrderId'],
          `a string of 1 to ${MAX_CLIENT_ORDER_ID} characters`,
          len >= 0 ? `${len} characters` : newClientOrderId,
        ),
      );
    }
  }
  if (timeInForce !== undefined && !isOneOf(TIME_IN_FORCE_VALUES, timeInForce)) {
    out.push(issue('ORDER-TIME-IN-FORCE', [...path, 'timeInForce'], TIME_IN_FORCE_VALUES.join(', '), timeInForce));
  }
  if (stpMode !== undefined && !isOneOf(STP_MODES, stpMode)) {
    out.push(issue('ORDER-STP-MODE-ENUM', [...path, 'stpMode'], 'EXPIRE_TAKER or EXPIRE_MAKER', stpMode));
  }
  return out;
}
