/**
 * spotcheck: reference signer, time window, validator, client and server for the
 * signed spot-trading API.
 * @packageDocumentation
 * @module spotcheck
 */
export * from './core/index.js';
export { sign, verify } from './signing/hmac.js';
export { signParams, signJsonBody, type SignParamsOptions } from './signing/build.js';
export { rules, rule, type RuleLevel, type Rule } from './rules.js';
export {
  SpotClient,
  expectObject,
  DEFAULT_CLIENT_TIMEOUT_MS,
  type SpotClientOptions,
  type OrderCallOptions,
} from './client/spot-client.js';
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
  type BatchElement,
} from './client/requests.js';
export {
  sendRaw,
  requestUrl,
  type HttpProtocol,
  type RawRequest,
  type RawResponse,
  type SendOptions,
} from './client/http.js';
export {
  startServer,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  type ServerOptions,
  type RunningServer,
} from './server/server.js';
export {
  defaultPolicy,
  resolvePolicy,
  type ServerPolicy,
  type Credential,
  type Endpoint,
  type AuthResult,
  type OutgoingResponse,
  type ResponseContext,
} from './server/policy.js';
export {
  DEMO_API_KEY,
  DEMO_SECRET,
  DEMO_READONLY_API_KEY,
  DEMO_READONLY_SECRET,
  DEMO_CREDENTIALS,
  isDemoSecret,
  checkCredentials,
} from './server/credentials.js';
export type { ErrorStyle } from './server/respond.js';
export { ROUTES, type Routes } from './server/router.js';
export { DEFAULT_BODY_LIMIT } from './server/body.js';
export { DEFAULT_STORE_CAPACITY, type OrderLog, type PlacedOrder } from './server/store.js';
export { ENTRY_OK_MSG, MAX_JSON_DEPTH } from './server/batch.js';
export { FORM_MEDIA_TYPE } from './server/order.js';
export { DEFAULT_STP_MODE } from './server/place.js';
