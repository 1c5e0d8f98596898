import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'vectors/**/*.test.ts', 'spec/**/*.test.ts', 'docs/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', '**/*.browser.test.ts'],
    testTimeout: 30000,
    hookTimeout: 30000,
  },
});
