/** Moved to the core: src/core/time.ts. */
export * from './core/time.js';
