/**
 * The README's figures for the test suites (`npm test`, `npm run test:interop`,
 * `npm run test:package`: so many test files, so many tests) held to what the suites are: the
 * files by harness/testing/suites.test.ts (the files each configuration finds), the tests by
 * {@link FiguresReporter}, a reporter of each suite that compares a whole run's count with the
 * README and fails the run when they differ, saying the figures to write. A partial run (a file
 * filter) is not compared, nor one without the seed beside the checkout (../shared: its tests
 * count differently there).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** The suites whose figures the README gives. */
export type SuiteName = 'npm test' | 'test:interop' | 'test:package';

/** Test files and tests of one suite. */
export interface Figures {
  files: number;
  tests: number;
}

/** Where each suite's figures stand in the README (Quickstart), the two numbers captured. */
const WHERE: Record<SuiteName, RegExp> = {
  'npm test': /side by side:\s+([\d,]+)\s+test\s+files,\s+([\d,]+)\s+tests\b/,
  'test:interop': /`npm run test:interop` runs[^`]*?:\s+([\d,]+)\s+files,\s+([\d,]+)\s+tests\b/,
  'test:package': /`npm run test:package`:\s+([\d,]+)\s+files,\s+([\d,]+)\s+tests\b/,
};

const num = (s: string | undefined): number => Number((s ?? '').replace(/,/g, ''));

/** The figures the README states for each suite; throws naming a suite whose figures it cannot find. */
export function readmeFigures(readme: string): Record<SuiteName, Figures> {
  const out = {} as Record<SuiteName, Figures>;
  for (const [suite, re] of Object.entries(WHERE) as Array<[SuiteName, RegExp]>) {
    const m = re.exec(readme);
    if (m === null) throw new Error(`README.md: no figures for ${suite} (expected "${re.source}")`);
    out[suite] = { files: num(m[1]), tests: num(m[2]) };
  }
  return out;
}

/** A count as the README writes it (1,593). */
export const written = (n: number): string => n.toLocaleString('en-US');

/**
 * What is wrong with the README's figures of `suite` after a run of `ran` out of the suite's
 * `suiteFiles` files: undefined when they agree or when the run was partial (nothing to compare).
 */
export function figuresProblem(suite: SuiteName, readme: string, ran: Figures, suiteFiles: number): string | undefined {
  if (ran.files !== suiteFiles) return undefined;
  const said = readmeFigures(readme)[suite];
  if (said.files === ran.files && said.tests === ran.tests) return undefined;
  return (
    `README.md says ${suite} runs ${written(said.files)} test files and ${written(said.tests)} tests; ` +
    `this whole run had ${written(ran.files)} and ${written(ran.tests)}: write those in README.md (Quickstart)`
  );
}

/** A reporter failing a whole run of `suite` whose file or test count is not the README's. */
export class FiguresReporter implements Reporter {
  #ctx: Vitest | undefined;
  constructor(readonly suite: SuiteName) {}

  onInit(ctx: Vitest): void {
    this.#ctx = ctx;
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const ctx = this.#ctx;
    if (ctx === undefined) return;
    const suiteFiles = (await ctx.globTestSpecifications()).length;
    const tests = testModules.reduce((n, m) => n + [...m.children.allTests()].length, 0);
    // the README counts a checkout with the seed beside it (as CI has): without it, the seed's tests are one each
    if (!existsSync(join(ctx.config.root, '..', 'shared', 'seed'))) {
      process.stderr.write(
        `\nREADME figures not compared: the seed is not beside this checkout (../shared/seed), so the tests reading it count differently\n`,
      );
      return;
    }
    const readme = readFileSync(join(ctx.config.root, 'README.md'), 'utf8');
    const problem = figuresProblem(this.suite, readme, { files: testModules.length, tests }, suiteFiles);
    if (problem === undefined) return;
    process.stderr.write(`\n${problem}\n`);
    process.exitCode = 1;
  }
}
