import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Suites whose time is mostly waiting (deadlines, timeouts, held requests, clock spreads),
 * the longer ones first (the order measured fastest on a fresh clone). Vitest orders files by
 * their last durations, which a fresh clone has none of: these then started wherever their
 * size put them, and one of them starting last was the tail of the whole run (51 s against
 * 45 s with the same CPU time).
 */
const LONG_FIRST = [
  'harness/gateway.test.ts',
  'harness/variants.test.ts',
  'conformance/runner.test.ts',
  'harness/testing/tls-front.test.ts',
  'harness/lenient-parsers.test.ts',
  'conformance/hostile.test.ts',
  'harness/variants-answers.test.ts',
  'src/server/fuzz.test.ts',
];

/** The long suites first, in that order; the others as vitest orders them. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONG_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONG_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // SPOTCHECK_CPU_BURN=N: N CPU-burning processes beside the suite (npm run test:burn); none otherwise
    globalSetup: ['harness/testing/cpu-burn-setup.ts'],
    // Many suites wait on sockets and timers (hostile servers, deadlines): more workers than
    // cores keep both cores busy (vitest's default here would be 1 worker).
    maxWorkers: 4,
    isolate: false,
    sequence: { sequencer: LongFirst },
    // concurrent tests of one file (the variant servers, the mutants) a few at a time: the time checks want a quiet machine
    maxConcurrency: 3,
    // A hung test still fails; a full run that takes 5-12 s on a quiet machine took past 30 s with the
    // load average at 24-31 (8 sessions on 2 cores), failing on time alone with every assertion met.
    testTimeout: 90000,
    hookTimeout: 90000,
  },
});
