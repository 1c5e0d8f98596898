/** Moved to the core: src/core/errors.ts (the one definition of the error family). */
export * from './core/errors.js';
