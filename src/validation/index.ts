/** Order and batch validation (§2.1, §4.1), returning issues as data. */
export { type Issue, issue, describeValue, assertNoIssues } from './issue.js';
export { validateOrder, type ApiVersion, type ValidateOrderOptions } from './order.js';
export { validateBatch, splitBatchIssues, MAX_BATCH_ORDERS } from './batch.js';
export { plainDecimal } from './decimal.js';
export { checkTimeParams, MAX_RECV_WINDOW, type TimeParams } from './time-params.js';
export {
  parseDecimal,
  parseLong,
  charLength,
  MAX_CLIENT_ORDER_ID,
  SIDES,
  ORDER_TYPES,
  STP_MODES,
  TIME_IN_FORCE_VALUES,
} from './fields.js';
