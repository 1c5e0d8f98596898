/**
 * spotcheck: reference signer, time window, validator, client and server for the
 * signed spot-trading API.
 * @packageDocumentation
 * @module spotcheck
 */
export * from './signing/index.js';
export * from './validation/index.js';
export * from './time.js';
export * from './errors.js';
export * from './core/index.js';
export * from './rules.js';
export * from './client/index.js';
export * from './server/index.js';
export type * from './types.js';
