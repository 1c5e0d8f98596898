import { defineConfig } from 'vitest/config';
import { FiguresReporter } from './harness/testing/readme-figures.js';
import { INTEROP_FILES, longFirst, NODE_SUITE, PACKAGE_FILES } from './harness/testing/suites.js';

/**
 * `npm test`'s long suites, the longer ones first: those waiting on deadlines, timeouts, held
 * requests or clock spreads, and the command-line runs in child processes. One of them starting
 * last was the tail of the whole run.
 */
const LONG_FIRST = [
  'conformance/engine/runner.test.ts',
  'conformance/engine/hostile.test.ts',
  'conformance/cli/matrix.test.ts',
  'harness/grade-client.test.ts',
];

/** `npm test`: every Node suite but the whole-kit interop runs and the package's (vitest.interop.config.ts, vitest.package.config.ts). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    // a whole run whose counts are not the README's fails, saying the figures to write
    reporters: ['default', new FiguresReporter('npm test')],
    include: [
      'src/**/*.test.ts',
      'conformance/**/*.test.ts',
      'harness/**/*.test.ts',
      'vectors/**/*.test.ts',
      'spec/**/*.test.ts',
      'docs/**/*.test.ts',
    ],
    exclude: [...(NODE_SUITE.exclude ?? []), ...INTEROP_FILES, ...PACKAGE_FILES],
    // A third worker runs while the waiting suites (deadlines, back-offs, child processes: about 35 s
    // of waits in all) hold the other two. On a fresh clone, the two settings alternated: 2 workers
    // took 53.6, 55.0 and 55.2 s, 3 took 48.2, 48.9 and 56.3 s (88 to 101 CPU-s each way).
    maxWorkers: 3,
    sequence: { sequencer: longFirst(LONG_FIRST) },
  },
});
