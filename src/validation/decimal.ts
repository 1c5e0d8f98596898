/** Moved to the core: src/core/validation/decimal.ts. */
export * from '../core/validation/decimal.js';
