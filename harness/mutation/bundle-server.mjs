#!/usr/bin/env node
/**
 * Stryker's build command, run in its sandbox after the sources were instrumented: bundle the
 * server (harness/mutation/server-entry.ts and the sources it imports, every mutant switchable
 * by `__STRYKER_ACTIVE_MUTANT__`) into .mutation/server.mjs inside the sandbox, and list the
 * mutants the bundle holds in .mutation/in-server.json: a mutant of a shared core module that
 * the bundler left out (no import path from the server reaches it) is not server code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['harness/mutation/server-entry.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: '.mutation/server.mjs',
  packages: 'external',
  logLevel: 'warning',
});
// the instrumenter's switch, renamed by the bundler per module (stryMutAct_9fa48, stryMutAct_9fa482, ...)
const text = readFileSync('.mutation/server.mjs', 'utf8');
const ids = new Set([...text.matchAll(/stryMutAct_9fa48\d*\("(\d+)"\)/g)].map((m) => m[1]));
writeFileSync('.mutation/in-server.json', JSON.stringify([...ids]));
