/**
 * The published package: no harness, test, bench or generator file in the tarball, `files`
 * without negations, and the `exports` are what the README documents (the library, the
 * pure core `spotcheck/core` and the vectors loader).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';

const ROOT = kitPath();
const FORBIDDEN = [
  /(^|\/)harness\//,
  /\.test\./,
  /bench/,
  /testing/,
  /mutant/,
  /selftest/,
  /variants\./,
  /(^|\/)generate[^/]*$/,
  /tsconfig/,
];

interface Packed {
  /** the clone's package.json and README text before the pack */
  before: string;
  readmeBefore: string;
  /** the copy packed: its package.json and README after the pack, and any swap file left */
  after: { manifest: string; readme: string; leftovers: string[] };
  files: string[];
  packed: { scripts: Record<string, string>; bin: unknown; exports: unknown };
  /** README.md as shipped */
  readme: string;
}
let packResult: Packed | undefined;
const SKIP = new Set(['node_modules', '.git', 'site', 'artifacts', 'reports']);
/**
 * One real `npm pack` for every test here, run on a copy of this checkout (its prepack
 * swaps package.json and README.md for the packed ones: the clone's own files stay as they
 * are for the tests reading them meanwhile); its prepack/postpack hooks run, with the build
 * step skipped (the dist/ npm ci built is the one judged); the tarball's package.json and
 * README.md are read back.
 */
function packOnce(): Packed {
  if (packResult) return packResult;
  const before = readFileSync(join(ROOT, 'package.json'), 'utf8');
  const readmeBefore = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const dest = mkdtempSync(join(tmpdir(), 'spotcheck-pack-'));
  const copy = join(dest, 'kit');
  try {
    cpSync(ROOT, copy, { recursive: true, filter: (src) => !SKIP.has(relative(ROOT, src).split(sep)[0] ?? '') });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, SPOTCHECK_PACK_PREBUILT: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const entry = (JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>)[0];
    if (!entry) throw new Error(`npm pack printed no entry: ${out}`);
    execFileSync('tar', ['-xzf', join(dest, entry.filename), '-C', dest, 'package/package.json', 'package/README.md']);
    const packed = JSON.parse(readFileSync(join(dest, 'package', 'package.json'), 'utf8')) as Packed['packed'];
    packResult = {
      before,
      readmeBefore,
      after: {
        manifest: readFileSync(join(copy, 'package.json'), 'utf8'),
        readme: readFileSync(join(copy, 'README.md'), 'utf8'),
        leftovers: readdirSync(copy).filter((f) => f.endsWith('.prepack')),
      },
      files: entry.files.map((f) => f.path),
      packed,
      readme: readFileSync(join(dest, 'package', 'README.md'), 'utf8'),
    };
    return packResult;
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

describe('npm pack', () => {
  const built = existsSync(join(ROOT, 'dist', 'src', 'index.js'));

  it('lists no test, bench, test-harness or generator file, and does list the library, CLI, spec and vectors', () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const { files } = packOnce();
    expect(files.filter((f) => FORBIDDEN.some((re) => re.test(f)))).toEqual([]);
    // the harness is built (benches run from dist/harness) but never packed
    expect(existsSync(join(ROOT, 'dist', 'harness', 'selftest.js'))).toBe(true);
    const vectorFiles = readdirSync(join(ROOT, 'vectors')).filter(
      (f) => f.endsWith('.json') && !f.startsWith('tsconfig'),
    );
    expect(vectorFiles.length).toBeGreaterThan(3);
    for (const f of vectorFiles)
      expect(files, `vectors/${f} is listed in package.json files`).toContain(`vectors/${f}`);
    for (const f of [
      'dist/src/index.js',
      'dist/src/core/request.js',
      'dist/src/core/index.js',
      'dist/vectors/load.js',
      'dist/conformance/cli/bin.js',
      'dist/conformance/load/artillery/processor.cjs',
      'spec/rules.json',
      'spec/coverage.json',
      'vectors/signing.json',
      'conformance/report/report.schema.json',
      'conformance/target/target.schema.json',
      'README.md',
    ]) {
      expect(files, f).toContain(f);
    }
  }, 60_000);

  it('packs a package.json without `prepare` (nothing to build on install) and leaves the clone its own', () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const { before, packed, after, readmeBefore } = packOnce();
    expect((JSON.parse(before) as { scripts: Record<string, string> }).scripts.prepare).toBe('npm run build');
    expect(packed.scripts.prepare).toBeUndefined();
    expect(packed.scripts.build).toBeDefined();
    const own = JSON.parse(before) as { bin: unknown; exports: unknown };
    expect(packed.bin).toEqual(own.bin);
    expect(packed.exports).toEqual(own.exports);
    expect(after.manifest).toBe(before);
    expect(after.readme).toBe(readmeBefore);
    expect(after.leftovers).toEqual([]);
  }, 60_000);

  it('ships a README for someone who installed the package: no clone instructions, no path it does not ship', () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const { readme, readmeBefore, files } = packOnce();
    // the repository's README keeps the clone's instructions
    expect(readmeBefore).toContain('npm ci && npm start');
    expect(readme).toContain('npm install --save-dev spotcheck');
    expect(readme).toMatch(/^# spotcheck\n/);
    for (const clone of [/npm ci &&/, /npm start/, /npm test/, /npm run /, /<!--/, /-->/])
      expect(readme, String(clone)).not.toMatch(clone);
    // every path of the kit it names (under a top-level folder of the repository) ships
    const tops = readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIP.has(e.name))
      .map((e) => e.name);
    const named = [...readme.matchAll(/`([^`\s]+)`/g)]
      .map((m) => (m[1] ?? '').replace(/[.,:;)]+$/, ''))
      .filter((p) => tops.some((t) => p.startsWith(`${t}/`)));
    expect(named.length).toBeGreaterThan(3);
    const shipped = (p: string) => files.some((f) => f === p || f.startsWith(p.endsWith('/') ? p : `${p}/`));
    expect(named.filter((p) => !shipped(p))).toEqual([]);
  }, 60_000);

  it('files lists only what ships: no negation', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files.length).toBeGreaterThan(3);
    expect(pkg.files.filter((f) => f.startsWith('!'))).toEqual([]);
  });

  it('exports the library, the pure core and the vectors loader, nothing else', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './core', './package.json', './vectors']);
    expect(pkg.exports['./vectors']).toEqual({ types: './dist/vectors/load.d.ts', import: './dist/vectors/load.js' });
    expect(pkg.exports['./core']).toEqual({ types: './dist/src/core/index.d.ts', import: './dist/src/core/index.js' });
  });

  it('spotcheck/core resolves through the exports map to the pure core', () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    // package self-reference: node resolves the name through this package's own exports
    const script =
      "const m = await import('spotcheck/core'); console.log(typeof m.buildRequest, typeof m.classify, import.meta.resolve('spotcheck/core'))";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    expect(out).toMatch(/^function function file:.*\/dist\/src\/core\/index\.js$/);
  });

  it('packs self-contained text: no README, spec, schema or vectors file points at ../shared (absent in an install)', () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const { files } = packOnce();
    const text = files.filter((f) => /\.(md|json|ya?ml)$/.test(f) && !f.startsWith('dist/'));
    expect(text).toEqual(
      expect.arrayContaining([
        'README.md',
        'spec/rules.json',
        'spec/decisions.md',
        'conformance/report/report.schema.json',
      ]),
    );
    expect(text.filter((f) => readFileSync(join(ROOT, f), 'utf8').includes('../shared'))).toEqual([]);
  }, 60_000);

  it('the API docs document only modules an import can reach (the package exports)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string }>;
    };
    const typedoc = JSON.parse(readFileSync(join(ROOT, 'docs', 'typedoc.json'), 'utf8')) as { entryPoints: string[] };
    // each entry point's compiled file is what some export resolves to
    const exported = new Set(
      Object.values(pkg.exports)
        .map((e) => e.import)
        .filter((f): f is string => f !== undefined),
    );
    for (const entry of typedoc.entryPoints) {
      const compiled = `./dist/${entry.replace(/^\.\.\//, '').replace(/\.ts$/, '.js')}`;
      expect(exported, entry).toContain(compiled);
    }
  });
});
