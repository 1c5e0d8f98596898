import { defineConfig } from 'vitest/config';
import { FiguresReporter } from './harness/testing/readme-figures.js';
import { INTEROP_FILES, longFirst, NODE_SUITE } from './harness/testing/suites.js';

/** The interop suites whose time is mostly waiting, the longer ones first (see vitest.config.ts). */
const LONG_FIRST = [
  'harness/gateway.test.ts',
  'harness/variants.test.ts',
  'harness/strangers/venue.test.ts',
  'harness/lenient-parsers.test.ts',
  'harness/testing/tls-front-run.test.ts',
  'harness/budget-matrix.test.ts',
  'harness/edge-mutants.test.ts',
];

/** `npm run test:interop`: the whole-kit runs against outside-style servers (harness/testing/suites.ts). */
export default defineConfig({
  test: {
    ...NODE_SUITE,
    // a whole run whose counts are not the README's fails, saying the figures to write
    reporters: ['default', new FiguresReporter('test:interop')],
    include: [...INTEROP_FILES],
    // the interop runs wait on venues, fronts, outages and child processes: four workers fill the waits
    maxWorkers: 4,
    sequence: { sequencer: longFirst(LONG_FIRST) },
  },
});
