/**
 * The layering of the design notes ("Which part may use which") as assertions over the
 * import statements of every source file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kitPath } from './paths.js';

const ROOT = kitPath();

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'));
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Each import of a file: the specifier and, for a relative one, the target path from the root. */
function importsOf(file: string): Array<{ spec: string; target: string | undefined }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = (m[1] ?? m[2]) as string;
    const target = spec.startsWith('.')
      ? relative(ROOT, resolve(ROOT, dirname(file), spec))
          .split(sep)
          .join('/')
      : undefined;
    return { spec, target };
  });
}

function violations(files: string[], bad: (i: { spec: string; target: string | undefined }) => boolean): string[] {
  return files.flatMap((f) =>
    importsOf(f)
      .filter(bad)
      .map((i) => `${f} imports ${i.spec}`),
  );
}

/** The package entries (package.json `exports`): the only modules that may re-export. */
const ENTRIES = ['src/index.ts', 'src/core/index.ts', 'vectors/load.ts'];
const REEXPORT = /(?:^|\n)\s*export\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s*(?:from\s+['"][^'"]+['"])?\s*;/g;

/** The re-export statements of a file (`export ... from`, or `export { x }` of names declared elsewhere). */
function reexportsOf(file: string): string[] {
  return [...readFileSync(join(ROOT, file), 'utf8').matchAll(REEXPORT)].map((m) => m[0].trim());
}

const src = sources('src');
const production = src.filter((f) => !f.endsWith('.test.ts'));
const conformance = sources('conformance');

describe('layering (design notes)', () => {
  it('finds the imports it judges', () => {
    expect(importsOf('src/client/requests.ts').some((i) => i.target === 'src/core/request.js')).toBe(true);
    expect(src.filter((f) => f.startsWith('src/core/')).length).toBeGreaterThan(10);
  });

  it('no module but a package entry re-exports: one door to each name', () => {
    const all = [...src, ...conformance, ...sources('harness'), ...sources('vectors')].filter(
      (f) => !f.endsWith('.test.ts'),
    );
    expect(reexportsOf('src/index.ts')).toContain("export * from './core/index.js';");
    expect(reexportsOf('src/core/index.ts').length).toBeGreaterThan(5);
    expect(all.filter((f) => !ENTRIES.includes(f)).flatMap((f) => reexportsOf(f).map((r) => `${f}: ${r}`))).toEqual([]);
  });

  it('the package entries re-export the modules that declare the names, never another door', () => {
    for (const entry of ENTRIES) {
      const targets = importsOf(entry).map((i) => i.target);
      for (const t of targets)
        expect(
          t === undefined ||
            ENTRIES.includes(t.replace(/\.js$/, '.ts')) ||
            reexportsOf(t.replace(/\.js$/, '.ts')).length === 0,
          `${entry} -> ${t}`,
        ).toBe(true);
    }
  });

  it('code and comments cite the seed section, rule ID or decision ID, never a tracker issue number', () => {
    const code = ['src', 'conformance', 'harness', 'vectors', 'spec', 'docs'].flatMap((d) =>
      readdirSync(join(ROOT, d), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name) && !e.parentPath.includes('node_modules'))
        .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/')),
    );
    expect(code.length).toBeGreaterThan(100);
    const TRACKER = new RegExp(['\\b[Ii]ssues?', '#?\\d+\\b'].join(' '));
    const cited = code.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((l, i) => (TRACKER.test(l) ? [`${f}:${i + 1}: ${l.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });

  it('src/ never imports conformance/', () => {
    expect(violations(src, (i) => i.target?.startsWith('conformance/') === true)).toEqual([]);
  });

  it('src/core imports nothing outside src/core: no node:, no package, no other folder', () => {
    const core = production.filter((f) => f.startsWith('src/core/'));
    expect(violations(core, (i) => i.target === undefined || !i.target.startsWith('src/core/'))).toEqual([]);
    const nodeOnly = core.filter((f) => /\bBuffer\b|\bprocess\.|require\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(nodeOnly).toEqual([]);
  });

  it('the server does not import the client', () => {
    const server = production.filter((f) => f.startsWith('src/server/'));
    expect(violations(server, (i) => i.target?.startsWith('src/client/') === true)).toEqual([]);
  });

  it('the published code (src/ and conformance/ but their tests) never imports harness/', () => {
    const shipped = [...production, ...conformance.filter((f) => !f.endsWith('.test.ts'))];
    expect(shipped.some((f) => f.startsWith('conformance/checks/'))).toBe(true);
    expect(violations(shipped, (i) => i.target?.startsWith('harness/') === true)).toEqual([]);
    expect(
      violations(['harness/selftest.ts'], (i) => i.target?.startsWith('conformance/') === true).length,
    ).toBeGreaterThan(0);
  });
});
