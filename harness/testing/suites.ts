/**
 * The test suites and the files each runs (vitest.config.ts, vitest.interop.config.ts,
 * vitest.browser.config.ts, vitest.package.config.ts, vitest.burn.config.ts): every `*.test.ts`
 * file belongs to exactly one of `npm test`, `npm run test:interop`, `npm run test:package` and
 * `npm run test:browser` (harness/testing/suites.test.ts).
 */
import { BaseSequencer, type InlineConfig, type TestSpecification } from 'vitest/node';

/**
 * `npm run test:interop`: whole-kit runs against servers other than the reference: shaped as
 * outside teams shape them (stranger venues, deployments unlike the reference, answers nobody on
 * the team wrote, lenient parsers, a stranger's gateway, an accept-all server under the order
 * budget, a TLS front offering HTTP/2, fault-injected PHP and Java venues behind Apache httpd and
 * haproxy), and the reference server's mutants, each caught by its own check (the mutant, route,
 * edge, account and budget suites), and the reference server's wire fuzz (over 20,000 raw
 * requests; `npm test` keeps its random requests over HTTP and on raw sockets, src/server/robust.test.ts).
 * Slow (a whole run, a family's run or a fuzz each), so apart from `npm test`, which keeps the
 * runner against the reference server (in both profiles, and with refusals as HTTP 200 and a
 * code) within its 45 s; CI runs both.
 */
export const INTEROP_FILES = [
  'harness/budget-matrix.test.ts',
  'harness/strangers/venue.test.ts',
  'harness/strangers/languages.test.ts',
  'harness/strangers/servlet-venue.test.ts',
  'harness/variants.test.ts',
  'harness/variants-answers.test.ts',
  'harness/lenient-parsers.test.ts',
  'harness/gateway.test.ts',
  'harness/testing/tls-front-run.test.ts',
  'harness/readings/matrix.test.ts',
  'harness/foreign/clean-venues.test.ts',
  'harness/layers/fault-venues.test.ts',
  'harness/envelope.test.ts',
  'harness/outage.test.ts',
  'harness/mutants.test.ts',
  'harness/route-mutants.test.ts',
  'harness/edge-mutants.test.ts',
  'harness/account.test.ts',
  'harness/budget.test.ts',
  'harness/strangers/clean-venue.test.ts',
  'src/server/fuzz.test.ts',
] as const;

/**
 * `npm run test:package`: the package as it is built and shipped, each on a copy of the checkout
 * with child processes: `npm run build` leaves the bin executable, `npm pack` ships what the
 * README documents, and the GitHub Action runs locally; and the docs site's TypeDoc stage, which
 * fails the build on an undocumented export or a link to a missing page (a site rendered per
 * case). The developer loop changes none of them; CI runs them (.ci/run).
 */
export const PACKAGE_FILES = [
  'harness/tools/build.test.ts',
  'harness/tools/package.test.ts',
  'harness/testing/action.test.ts',
  'docs/lib/typedoc.test.ts',
] as const;

/** `npm run test:burn`: the verdict suites that must give the same verdicts beside CPU-burning processes. */
export const BURN_FILES = [
  'harness/mutants.test.ts',
  'harness/route-mutants.test.ts',
  'harness/edge-mutants.test.ts',
  'harness/variants.test.ts',
  'harness/variants-answers.test.ts',
  'harness/strangers/venue.test.ts',
  'harness/strangers/languages.test.ts',
  'harness/strangers/clean-venue.test.ts',
] as const;

/**
 * A sequencer running `first` (suites whose time is mostly waiting) before the others, in that
 * order; the others as vitest orders them. Vitest orders files by their last durations, which a
 * fresh clone has none of: a waiting suite then started wherever its size put it, and one starting
 * last was the tail of the whole run.
 */
export function longFirst(first: readonly string[]): typeof BaseSequencer {
  return class LongFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (f: TestSpecification): number => {
        const i = first.findIndex((name) => f.moduleId.endsWith(`/${name}`));
        return i === -1 ? first.length : i;
      };
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    }
  };
}

/** What the Node suites share: the CPU-burn set-up, workers, concurrency and timeouts. */
export const NODE_SUITE: InlineConfig = {
  exclude: ['**/node_modules/**', 'dist/**', '**/*.browser.test.ts'],
  // SPOTCHECK_CPU_BURN=N: N CPU-burning processes beside the suite (npm run test:burn); none otherwise
  globalSetup: ['harness/testing/cpu-burn-setup.ts'],
  // One worker per core (test:package, test:burn). Each worker imports and warms up the kit on its
  // own; npm test (vitest.config.ts) and test:interop, whose suites wait more, set their own.
  maxWorkers: 2,
  isolate: false,
  // concurrent tests of one file (the variant servers, the mutants) a few at a time: the time checks want a quiet machine
  maxConcurrency: 3,
  // A hung test still fails; a full run that takes 5-12 s on a quiet machine took past 30 s with the
  // load average at 24-31 (8 sessions on 2 cores), failing on time alone with every assertion met.
  testTimeout: 90000,
  hookTimeout: 90000,
};
