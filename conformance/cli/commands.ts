/** The conformance commands added to the library CLI: `run` and `replay`. */
import type { Command } from '../../src/cli/main.js';
import { runCommand } from './run.js';
import { matrixCommand } from './matrix.js';
import { initCommand } from '../target/init.js';

export const conformanceCommands: Record<string, Command> = {
  run: (argv, io) => runCommand(argv, io, 'run'),
  replay: (argv, io) => runCommand(argv, io, 'replay'),
  init: initCommand,
  matrix: matrixCommand,
};
