import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { figuresProblem, readmeFigures } from './readme-figures.js';

const readme = readFileSync(kitPath('README.md'), 'utf8');

describe("the README's test figures", () => {
  it('are found for each suite, as whole numbers', () => {
    const f = readmeFigures(readme);
    for (const suite of ['npm test', 'test:interop', 'test:package'] as const) {
      expect(Number.isInteger(f[suite].files) && f[suite].files > 0, suite).toBe(true);
      expect(f[suite].tests, suite).toBeGreaterThanOrEqual(f[suite].files);
    }
  });

  it('a whole run with other counts is a problem naming the figures to write; a partial run is not compared', () => {
    const said = readmeFigures(readme)['npm test'];
    expect(figuresProblem('npm test', readme, said, said.files)).toBeUndefined();
    const more = { files: said.files, tests: said.tests + 1000 };
    expect(figuresProblem('npm test', readme, more, said.files)).toContain(
      `this whole run had ${said.files.toLocaleString('en-US')} and ${more.tests.toLocaleString('en-US')}`,
    );
    expect(figuresProblem('npm test', readme, { files: 3, tests: 7 }, said.files)).toBeUndefined();
  });

  it('a README without the figures is an error saying which', () => {
    expect(() => readmeFigures(readme.replace(/side by side:/, 'side by side;'))).toThrow(/no figures for npm test/);
  });
});
