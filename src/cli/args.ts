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
