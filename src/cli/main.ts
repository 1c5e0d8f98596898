/**
 * The `spotcheck` command line: sign, serve, run, replay.
 */
import { isSpotcheckError } from '../core/errors.js';
import { kitVersion } from '../paths.js';
import { processIo, takeNoColor, type Io } from './args.js';
import { doctorCommand } from './doctor.js';
import { serveCommand } from './serve.js';
import { signCommand } from './sign.js';

export const MAIN_HELP = `Usage: spotcheck <command> [options]

Commands:
  doctor   say why a request's signature is rejected
  grade    serve and grade every signed request your client sends
  run      run the conformance suite (no target: the embedded reference server)
  replay   rerun one check with a given seed
  matrix   run several targets: one report each and a rules x targets matrix
  init     write a commented target description (--config FILE for run)
  load     signed load with verdicts (load init: an Artillery project; load report FILE)
  serve    start the reference server
  sign     print each step of a request signature

Run \`spotcheck <command> --help\` for a command's options; \`spotcheck --version\`
prints the version. Every command takes --no-color (or NO_COLOR=1): no color, no
redrawn progress line.
`;

/** A subcommand: parses its own arguments, returns the exit code. */
export type Command = (argv: string[], io: Io) => number | Promise<number>;

/** The library's own commands; the conformance CLI adds `run` and `replay`. */
export const commands: Record<string, Command> = {
  doctor: doctorCommand,
  serve: serveCommand,
  sign: signCommand,
};

/** Run the CLI; returns the exit code (0 ok, 1 MUST-level failure, 2 usage or unreachable target). */
export async function main(argv: string[], io: Io = processIo, extra: Record<string, Command> = {}): Promise<number> {
  const all: Record<string, Command> = { ...commands, ...extra };
  const [name, ...given] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`spotcheck ${kitVersion() ?? 'unknown'}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(MAIN_HELP);
    return name === undefined ? 2 : 0;
  }
  const cmd = all[name];
  if (cmd === undefined) {
    io.err(`spotcheck: unknown command '${name}'\n\n${MAIN_HELP}`);
    return 2;
  }
  const plain = takeNoColor(given, io.env);
  try {
    return await cmd(plain.argv, plain.env === io.env ? io : { ...io, env: plain.env });
  } catch (err) {
    if (isSpotcheckError(err)) {
      io.err(`spotcheck: ${err.message}\n`);
      return err.code === 'ERR_USAGE' ||
        err.code === 'ERR_NETWORK' ||
        err.code === 'ERR_TARGET' ||
        err.code === 'ERR_SERVER_START'
        ? 2
        : 1;
    }
    throw err;
  }
}
