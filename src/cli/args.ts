/**
 * Shared command-line parsing: `node:util` parseArgs with usage errors turned into
 * `ERR_USAGE` (printed without a stack trace, exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SpotcheckError } from '../core/errors.js';

/** Parse with `node:util` parseArgs (pass `strict: true`); unknown flags and missing values are usage errors. */
export function parse<T extends ParseArgsConfig>(config: T, command: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new SpotcheckError('ERR_USAGE', `${command}: ${msg}\nRun \`spotcheck ${command} --help\` for usage.`);
  }
}

/** Read a credential from a flag or, failing that, an environment variable. */
export function credential(flag: string | undefined, envName: string, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined && flag !== '') return flag;
  const v = env[envName];
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Whether to write color and redrawn lines to `stream`: only to a terminal, and neither
 * `--no-color` (every command takes it) nor a non-empty NO_COLOR (https://no-color.org) says no.
 */
export function colorWanted(env: NodeJS.ProcessEnv, stream: { isTTY?: boolean }, noColorFlag = false): boolean {
  return !noColorFlag && (env.NO_COLOR ?? '') === '' && stream.isTTY === true;
}

/**
 * `--no-color` taken out of a command's arguments (before a `--`), as NO_COLOR=1 in its
 * environment: every command takes the flag, whether or not it writes color.
 */
export function takeNoColor(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { argv: string[]; env: NodeJS.ProcessEnv } {
  const end = argv.indexOf('--');
  const head = end === -1 ? [...argv] : argv.slice(0, end);
  if (!head.includes('--no-color')) return { argv: [...argv], env };
  return {
    argv: [...head.filter((a) => a !== '--no-color'), ...(end === -1 ? [] : argv.slice(end))],
    env: { ...env, NO_COLOR: '1' },
  };
}

/** Where a command writes: injected so tests can capture it. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

export const processIo: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  env: process.env,
};
