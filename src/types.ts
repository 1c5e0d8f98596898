/**
 * Wire types of the API (§2.1, §2.2). The JSON Schemas in `spec/schemas/` are
 * generated from these declarations by `npm run schemas`; edit here, never there.
 */

/** `BUY` or `SELL` (§2.1). */
export type Side = 'BUY' | 'SELL';

/** `LIMIT`, `MARKET` or `LIMIT_MAKER` (§2.1). */
export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';

/** Self trade prevention mode (§2.1). */
export type StpMode = 'EXPIRE_TAKER' | 'EXPIRE_MAKER';

/**
 * A DECIMAL as a JSON string (§2.1: decimal values appear as JSON numbers or strings).
 * @pattern ^[0-9]+(\.[0-9]+)?$
 */
export type DecimalString = string;

/** A DECIMAL on the wire: a JSON number or a decimal string (§2.1). */
export type Decimal = number | DecimalString;

/**
 * A JSON integer.
 * @TJS-type integer
 */
export type Integer = number;

/**
 * A LONG as a string of digits (64-bit ids exceed 2^53, so services send them as strings).
 * @pattern ^-?[0-9]+$
 */
export type DigitString = string;

/** A LONG on the wire: a JSON integer or a string of digits. */
export type Long = Integer | DigitString;

/**
 * Client order id, up to 255 characters (§2.1, §8).
 * @minLength 1
 * @maxLength 255
 */
export type ClientOrderId = string;

/**
 * Time in force: `GTC` and `IOC` are named by the seed (§2.1); others are not shown.
 * @minLength 1
 */
export type TimeInForce = string;

/**
 * Instrument name (a trading pair).
 * @minLength 1
 */
export type SymbolName = string;

/** Fields common to every order (§2.1). */
export interface OrderFields {
  symbol: SymbolName;
  side: Side;
  type: OrderType;
  /** Required when type is `LIMIT` or `LIMIT_MAKER`. */
  price?: Decimal;
  newClientOrderId?: ClientOrderId;
  timeInForce?: TimeInForce;
  /** Default `EXPIRE_TAKER` when omitted. */
  stpMode?: StpMode;
}

/** One element of the batch body (§4.1): v1 fields; timestamp and recvWindow travel in the query. */
export interface BatchOrderItem extends OrderFields {
  /** Order amount in units of the instrument (required in v1). */
  quantity: Decimal;
}

/**
 * The batch request body (§4.1): at most 20 orders, all for one symbol.
 * @minItems 1
 * @maxItems 20
 */
export type BatchOrderRequest = BatchOrderItem[];

/** The single-order parameter set of `/api/v1/spot/order` (§2.1, §4.2). */
export interface OrderRequestV1 extends OrderFields {
  quantity: Decimal;
  /** Validity window in milliseconds; default 5000. */
  recvWindow?: Long;
  /** Request time in milliseconds. */
  timestamp: Long;
}

/** The single-order parameter set of `/api/v1.1/spot/order` (§2.1, §4.2, §9). */
export interface OrderRequestV11 extends OrderFields {
  /** Required when type is `MARKET` (conditional in v1.1). */
  quantity?: Decimal;
  /** Cash amount in the quote currency; market orders only. */
  amount?: Decimal;
  recvWindow?: Long;
  timestamp: Long;
}

/** Order response data (§2.2). Fields not listed are allowed. */
export interface OrderResponse {
  accountId?: Long;
  symbol: SymbolName;
  symbolName?: string;
  /** Client-defined id, or the generated one if none was sent. */
  clientOrderId: ClientOrderId;
  /** System-generated order id, at most 20 characters. */
  orderId: Long;
  transactTime?: Long;
  price?: Decimal;
  origQty?: Decimal;
  executedQty?: Decimal;
  /** Order status; only `FILLED` is named by the seed (§3). */
  status?: string;
  timeInForce?: TimeInForce;
  type: OrderType;
  side: Side;
  reqAmount?: string;
}

/** One entry of the batch result (§2.2, §7 item 2). */
export interface BatchResultEntry {
  code: Integer;
  msg: string;
  /** Present for an order that was created. */
  order?: OrderResponse;
  concentration?: string;
  stpMode?: StpMode;
}

/** The batch order response (§2.2). */
export interface BatchOrderResponse {
  /** Error code of the whole call; 0 in the successful example (§7). */
  code: Integer;
  /** One entry per submitted order. */
  result?: BatchResultEntry[];
  msg?: string;
  concentration?: string;
  stpMode?: StpMode;
}

/** A rejection of a whole call: integer code and a message (§7; the codes themselves are not shown). */
export interface ErrorResponse {
  code: Integer;
  msg: string;
}

/**
 * Response of the single-order endpoints. The seed does not show it (§4.2); the
 * reference answers the order data of §2.2 with a top-level `code` (decision D-SINGLE-RESPONSE).
 */
export interface SingleOrderResponse extends OrderResponse {
  code: Integer;
}
