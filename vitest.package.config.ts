import { defineConfig } from 'vitest/config';
import { NODE_SUITE, PACKAGE_FILES } from './harness/testing/suites.js';

/** `npm run test:package`: the package as built and shipped (harness/testing/suites.ts). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    include: [...PACKAGE_FILES],
  },
});
