import { defineConfig } from 'vitest/config';

/** The browser suite (`npm run test:browser`): the built site, the HTML report and the matrix in headless Chromium. Build the site first with `npm run docs`. */
export default defineConfig({
  test: {
    include: ['docs/**/*.browser.test.ts', 'conformance/**/*.browser.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
