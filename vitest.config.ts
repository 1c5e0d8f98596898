import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'conformance/**/*.test.ts',
      'harness/**/*.test.ts',
      'vectors/**/*.test.ts',
      'spec/**/*.test.ts',
      'docs/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'dist/**', '**/*.browser.test.ts'],
    // Many suites wait on sockets and timers (hostile servers, deadlines): more workers than
    // cores keep both cores busy (vitest's default here would be 1 worker).
    maxWorkers: 4,
    isolate: false,
    // concurrent tests of one file (the variant servers, the mutants) a few at a time: the time checks want a quiet machine
    maxConcurrency: 3,
    // A hung test still fails; a full run that takes 5-12 s on a quiet machine took past 30 s with the
    // load average at 24-31 (8 sessions on 2 cores), failing on time alone with every assertion met.
    testTimeout: 90000,
    hookTimeout: 90000,
  },
});
