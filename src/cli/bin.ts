#!/usr/bin/env node
/** Executable entry of the `spotcheck` command (compiled to dist/src/cli/bin.js). */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
