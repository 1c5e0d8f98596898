/** Moved to the core: src/core/validation/fields.ts. */
export * from '../core/validation/fields.js';
