#!/usr/bin/env node
/**
 * `npm test`: the formatter and linter check (biome ci, under a second), the two typecheck
 * passes (harness/tools/typecheck.mjs) and the vitest suite at the same time (the developer loop), each one's output
 * printed whole, the static checks' first; the exit code is the first failure's. Arguments go to vitest (`npm test -- src/server`).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Run a command; resolve with its exit code and (when buffered) its output. */
function run(cmd, args, buffered) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (buffered) {
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
    }
    child.on('error', (err) => resolve({ code: 1, out: `${cmd}: ${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const t0 = performance.now();
const typecheck = (async () => {
  const lint = await run(bin('biome'), ['ci', '--colors=off', '--reporter=summary', '.'], true);
  // the app and the browser-safe core (no Node types) in one process, sharing parsed files
  const types = await run(process.execPath, [join(root, 'harness', 'tools', 'typecheck.mjs')], true);
  const lintOut =
    lint.code === 0 ? '' : `${lint.out}\nbiome: run \`npm run format\` to format and apply the safe lint fixes\n`;
  return {
    code: lint.code || types.code,
    out: lintOut + types.out,
    secs: (performance.now() - t0) / 1000,
  };
})();
const tests = run(bin('vitest'), ['run', ...process.argv.slice(2)], false);
const [tc, vt] = await Promise.all([typecheck, tests]);
process.stdout.write(
  `\nlint and typecheck (biome; tsc, app and browser-safe core): ${tc.code === 0 ? 'passed' : 'FAILED'} in ${tc.secs.toFixed(1)} s\n${tc.out}`,
);
process.exit(tc.code || vt.code);
