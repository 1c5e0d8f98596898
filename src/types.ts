/** Moved to the core: src/core/types.ts. */
export type * from './core/types.js';
