#!/usr/bin/env node
/**
 * Stryker's build command, run in its sandbox after the sources were instrumented: bundle the
 * server (harness/mutation/server-entry.ts and the sources it imports, every mutant switchable
 * by `__STRYKER_ACTIVE_MUTANT__`) into .mutation/server.mjs inside the sandbox.
 */
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
