/** Moved to the core: src/core/validation/issue.ts. */
export * from '../core/validation/issue.js';
