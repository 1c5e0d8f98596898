/** The conformance commands added to the library CLI: `run`, `replay`, `init`, `load`, `matrix` and `grade`. */
import type { Command } from '../../src/cli/main.js';
import { runCommand } from './run.js';
import { matrixCommand } from './matrix.js';
import { initCommand } from '../target/init.js';
import { loadCommand } from '../load/command.js';
import { gradeCommand } from '../grade/command.js';

export const conformanceCommands: Record<string, Command> = {
  run: (argv, io) => runCommand(argv, io, 'run'),
  replay: (argv, io) => runCommand(argv, io, 'replay'),
  init: initCommand,
  load: loadCommand,
  matrix: matrixCommand,
  grade: (argv, io) => gradeCommand(argv, io),
};
