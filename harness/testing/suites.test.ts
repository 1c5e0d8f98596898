/**
 * Nothing silently stops running: every `*.test.ts` file of the repository is one vitest finds
 * under exactly one of `npm test` (vitest.config.ts), `npm run test:interop`
 * (vitest.interop.config.ts), `npm run test:package` (vitest.package.config.ts) and
 * `npm run test:browser` (vitest.browser.config.ts), as vitest
 * itself resolves each configuration; and `npm run test:burn` finds every file it names.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { ROOT } from '../tools/graph.mjs';
import { readdirSync, readFileSync } from 'node:fs';
import { BURN_FILES, INTEROP_FILES, PACKAGE_FILES } from './suites.js';
import { readmeFigures } from './readme-figures.js';

const SKIP = new Set(['node_modules', 'dist', 'site', '.git', 'artifacts', 'reports']);

/** Every `*.test.ts` file under the root, relative. */
function testFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, p)] : [];
  });
}

/** The files vitest runs with a configuration (nothing run). */
async function filesOf(config: string): Promise<string[]> {
  const vitest = await createVitest('test', { config: join(ROOT, config), root: ROOT, watch: false }, {});
  try {
    return (await vitest.globTestSpecifications()).map((s) => relative(ROOT, s.moduleId)).sort();
  } finally {
    await vitest.close();
  }
}

describe('the test suites', () => {
  it('every test file belongs to exactly one of npm test, test:interop, test:package and test:browser', async () => {
    const suites = {
      'npm test': await filesOf('vitest.config.ts'),
      'test:interop': await filesOf('vitest.interop.config.ts'),
      'test:package': await filesOf('vitest.package.config.ts'),
      'test:browser': await filesOf('vitest.browser.config.ts'),
    };
    const all = testFiles();
    expect(all.length).toBeGreaterThan(100);
    const wrong = all
      .map((f) => [f, Object.entries(suites).flatMap(([name, files]) => (files.includes(f) ? [name] : []))] as const)
      .filter(([, in_]) => in_.length !== 1)
      .map(([f, in_]) => `${f}: ${in_.length === 0 ? 'in no suite' : in_.join(' and ')}`);
    expect(wrong).toEqual([]);
    // the README's file counts are these (its test counts: FiguresReporter, on a whole run)
    const said = readmeFigures(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect({
      'npm test': said['npm test'].files,
      'test:interop': said['test:interop'].files,
      'test:package': said['test:package'].files,
    }).toEqual({
      'npm test': suites['npm test'].length,
      'test:interop': suites['test:interop'].length,
      'test:package': suites['test:package'].length,
    });
    expect(suites['test:interop']).toEqual([...INTEROP_FILES].sort());
    expect(suites['test:package']).toEqual([...PACKAGE_FILES].sort());
    // the developer loop keeps the runner against the reference server; whole-kit runs against other servers are interop's
    expect(suites['npm test']).toEqual(expect.arrayContaining(['conformance/engine/runner.test.ts']));
    expect(suites['test:interop']).toEqual(expect.arrayContaining(['harness/strangers/clean-venue.test.ts']));
  });

  it('test:burn finds every file it names', async () => {
    expect(await filesOf('vitest.burn.config.ts')).toEqual([...BURN_FILES].sort());
  });
});
