/** Moved to the core: src/core/validation/time-params.ts. */
export * from '../core/validation/time-params.js';
