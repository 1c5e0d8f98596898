import { defineConfig } from 'vitest/config';
import { INTEROP_FILES, longFirst, NODE_SUITE } from './harness/testing/suites.js';

/**
 * `npm test`'s suites whose time is mostly waiting (deadlines, timeouts, held requests, clock
 * spreads), the longer ones first (the order measured fastest on a fresh clone): one of them
 * starting last was the tail of the whole run.
 */
const LONG_FIRST = [
  'conformance/runner.test.ts',
  'harness/budget.test.ts',
  'harness/testing/tls-front.test.ts',
  'conformance/hostile.test.ts',
  'src/server/fuzz.test.ts',
];

/** `npm test`: every Node suite but the whole-kit interop runs (vitest.interop.config.ts). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    include: [
      'src/**/*.test.ts',
      'conformance/**/*.test.ts',
      'harness/**/*.test.ts',
      'vectors/**/*.test.ts',
      'spec/**/*.test.ts',
      'docs/**/*.test.ts',
    ],
    exclude: [...(NODE_SUITE.exclude ?? []), ...INTEROP_FILES],
    sequence: { sequencer: longFirst(LONG_FIRST) },
  },
});
