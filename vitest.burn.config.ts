import { defineConfig } from 'vitest/config';
import { BURN_FILES, NODE_SUITE } from './harness/testing/suites.js';

/** `npm run test:burn`: the verdict suites of `npm test` and `test:interop` beside CPU-burning processes (SPOTCHECK_CPU_BURN). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    include: [...BURN_FILES],
  },
});
