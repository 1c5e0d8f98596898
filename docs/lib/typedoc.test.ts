/**
 * The docs build's TypeDoc stage (docs/lib/build.ts) on a fixture project with the site's own
 * configuration: a documented entry point with pages whose links resolve passes; an undocumented
 * export or a link to a missing page fails the build. In `npm run test:package` (the site as
 * built, beside the package): each run loads TypeScript and TypeDoc and renders a site.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { runTypedoc } from './build.js';

const root = packageRoot();

describe('runTypedoc fails the build', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'typedoc-fixture-'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022'],
          types: [],
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'documented.ts'),
      '/** Adds one. */\nexport function inc(n: number): number {\n  return n + 1;\n}\n',
    );
    writeFileSync(
      join(dir, 'undocumented.ts'),
      '/** Adds one. */\nexport function inc(n: number): number {\n  return n + 1;\n}\nexport const LIMIT = 20;\n',
    );
    writeFileSync(join(dir, 'index.md'), '# Home\n\nSee [the guide](./guide.md).\n');
    writeFileSync(join(dir, 'guide.md'), '---\ntitle: Guide\n---\n# Guide\n\nBack [home](./index.md).\n');
    writeFileSync(
      join(dir, 'broken.md'),
      '---\ntitle: Broken\n---\n# Broken\n\nSee [a page that is not there](./missing.md).\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** TypeDoc with the site's own configuration, extended to document the fixture entry point. */
  const run = (entry: string, documents: string[]) => {
    const config = join(dir, `typedoc-${entry}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        extends: [join(root, 'docs', 'typedoc.json')],
        entryPoints: [`./${entry}`],
        tsconfig: './tsconfig.json',
      }),
    );
    return runTypedoc(
      root,
      dir,
      join(dir, `out-${entry}-${documents.length}`),
      { projectDocuments: documents.map((d) => join(dir, d)) },
      config,
    );
  };

  it('passes a documented entry point with pages whose links resolve', async () => {
    await expect(run('documented.ts', ['guide.md'])).resolves.toBeUndefined();
    expect(readdirSync(join(dir, 'out-documented.ts-1', 'documents'))).toEqual(['Guide.html']);
  });

  it('fails on an undocumented export', async () => {
    await expect(run('undocumented.ts', ['guide.md'])).rejects.toThrow(
      /typedoc validation: .*warnings fail the docs build/,
    );
  });

  it('fails on a link to a missing page', async () => {
    await expect(run('documented.ts', ['guide.md', 'broken.md'])).rejects.toThrow(
      /typedoc (conversion|rendering): .*warnings fail the docs build/,
    );
  });
});
