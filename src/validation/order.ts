/** Moved to the core: src/core/validation/order.ts. */
export * from '../core/validation/order.js';
