#!/usr/bin/env node
/** Executable entry of the `spotcheck` command (compiled to dist/conformance/cli/bin.js). */
import { main } from '../../src/cli/main.js';
import { conformanceCommands } from './commands.js';

// A closed pipe (`spotcheck run --list | head -1`) is the reader's choice, not an error: end quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await main(process.argv.slice(2), undefined, conformanceCommands);
