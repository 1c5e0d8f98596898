/** Moved to the core: src/core/validation/batch.ts. */
export * from '../core/validation/batch.js';
