/** Moved to the core: src/core/codes.ts (reference decisions). */
export * from '../core/codes.js';
