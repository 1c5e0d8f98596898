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
    const target = spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)).split(sep).join('/') : undefined;
    return { spec, target };
  });
}

function violations(files: string[], bad: (i: { spec: string; target: string | undefined }) => boolean): string[] {
  return files.flatMap((f) => importsOf(f).filter(bad).map((i) => `${f} imports ${i.spec}`));
}

const src = sources('src');
const production = src.filter((f) => !f.endsWith('.test.ts'));
const conformance = sources('conformance');

describe('layering (design notes)', () => {
  it('finds the imports it judges', () => {
    expect(importsOf('src/client/requests.ts').some((i) => i.target === 'src/core/request.js')).toBe(true);
    expect(src.filter((f) => f.startsWith('src/core/')).length).toBeGreaterThan(10);
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
    expect(violations(['harness/selftest.ts'], (i) => i.target?.startsWith('conformance/') === true).length).toBeGreaterThan(0);
  });
});
