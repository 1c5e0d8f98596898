#!/usr/bin/env node
/** Executable entry of the `spotcheck` command (compiled to dist/conformance/cli/bin.js). */
import { main } from '../../src/cli/main.js';
import { conformanceCommands } from './commands.js';

process.exitCode = await main(process.argv.slice(2), undefined, conformanceCommands);
