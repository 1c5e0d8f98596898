// `npm run docs`: compile the docs build (docs/lib, docs/playground and what they
// import) with docs/tsconfig.build.json into dist/docs-build/, then build the site into
// site/. Exit code 1 on any failure (a template that cannot be filled, a TypeDoc
// warning, a broken internal link, a missing page).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const compiledRoot = join(root, 'dist', 'docs-build');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'docs', 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  process.stderr.write('docs: compiling docs/tsconfig.build.json failed\n');
  process.exit(1);
}

try {
  const { buildSite } = await import(pathToFileURL(join(compiledRoot, 'docs', 'lib', 'build.js')).href);
  process.stdout.write(`${await buildSite(root, join(root, 'site'), compiledRoot)}\n`);
} catch (err) {
  process.stderr.write(`docs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
