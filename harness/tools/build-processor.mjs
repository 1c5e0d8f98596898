#!/usr/bin/env node
/**
 * Build step: bundle the Artillery processor of `spotcheck load init`
 * (conformance/load/artillery/processor.ts and the pure core it imports) into one
 * CommonJS file with no npm import, dist/conformance/load/artillery/processor.cjs.
 * Fails when the bundle would require anything but node: built-ins.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outfile = join(root, 'dist', 'conformance', 'load', 'artillery', 'processor.cjs');
const result = await build({
  entryPoints: [join(root, 'conformance', 'load', 'artillery', 'processor.ts')],
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  outfile,
  legalComments: 'none',
  metafile: true,
  banner: {
    js: '// spotcheck load: Artillery processor, bundled from the spotcheck kit (no npm imports). Credentials: SPOTCHECK_API_KEY / SPOTCHECK_SECRET.',
  },
  // Artillery reads the hooks from module.exports.
  footer: { js: 'module.exports = module.exports.default;' },
  logLevel: 'warning',
});
const external = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.external).map((i) => i.path),
);
const foreign = external.filter((p) => !p.startsWith('node:'));
if (foreign.length > 0) {
  console.error(`processor bundle imports ${foreign.join(', ')}: only node: built-ins are allowed`);
  process.exit(1);
}
const text = readFileSync(outfile, 'utf8');
if (/\brequire\((?!"node:)/.test(text)) {
  console.error('processor bundle requires something other than a node: built-in');
  process.exit(1);
}
