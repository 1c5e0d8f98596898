/** The reference server of the signed spot-trading API (§4, §5). */
export { startServer, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, type ServerOptions, type RunningServer } from './server.js';
export {
  defaultPolicy,
  resolvePolicy,
  type ServerPolicy,
  type Credential,
  type Permission,
  type Endpoint,
  type AuthResult,
  type OutgoingResponse,
  type ResponseContext,
} from './policy.js';
export {
  DEMO_API_KEY,
  DEMO_SECRET,
  DEMO_READONLY_API_KEY,
  DEMO_READONLY_SECRET,
  DEMO_CREDENTIALS,
  isDemoSecret,
  checkCredentials,
} from './credentials.js';
export { ApiCode, type RejectionKind, type Rejection } from './codes.js';
export { type ErrorStyle } from './respond.js';
export { ROUTES } from './router.js';
export { DEFAULT_BODY_LIMIT } from './body.js';
export { DEFAULT_STORE_CAPACITY, type OrderLog, type PlacedOrder } from './store.js';
export { ENTRY_OK_MSG, MAX_JSON_DEPTH } from './batch.js';
export { FORM_MEDIA_TYPE } from './order.js';
export { DEFAULT_STP_MODE } from './place.js';
