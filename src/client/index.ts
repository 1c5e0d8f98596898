/** The signed client (undici) and the raw exchange it is built on. */
export { SpotClient, expectObject, DEFAULT_CLIENT_TIMEOUT_MS, type SpotClientOptions, type OrderCallOptions } from './spot-client.js';
export {
  batchOrdersRequest,
  orderRequest,
  orderParams,
  decimalParam,
  BATCH_ORDERS_PATH,
  ORDER_PATHS,
  type NewOrderV1,
  type NewOrderV11,
  type SigningAuth,
  type BuiltRequest,
  type BatchElement,
} from './requests.js';
export { sendRaw, requestUrl, API_KEY_HEADER, type RawRequest, type RawResponse, type SendOptions } from './http.js';
