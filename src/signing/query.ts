/** Moved to the core: src/core/signing/query.ts. */
export * from '../core/signing/query.js';
