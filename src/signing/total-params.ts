/** Moved to the core: src/core/signing/total-params.ts. */
export * from '../core/signing/total-params.js';
