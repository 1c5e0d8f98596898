import { defineConfig } from 'vitest/config';
import { FiguresReporter } from './harness/testing/readme-figures.js';
import { NODE_SUITE, PACKAGE_FILES } from './harness/testing/suites.js';

/** `npm run test:package`: the package as built and shipped (harness/testing/suites.ts). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    // a whole run whose counts are not the README's fails, saying the figures to write
    reporters: ['default', new FiguresReporter('test:package')],
    include: [...PACKAGE_FILES],
  },
});
