/**
 * The reproduction of a run as a command line: the target settings a check
 * ran with, so a printed `spotcheck replay` line aims at the same server with the same
 * description, profile and runs. Credentials are never part of it (they come from the
 * environment). New target settings are added here, in one place.
 */
import type { Strictness } from '../judgement/types.js';
import { shq } from './curl.js';

/** What a run was aimed at and how, as given on the command line (unset fields were defaults). */
export interface RunSettings {
  /** `--base-url` (absent with neither it nor `--config`: the embedded reference server). */
  baseUrl?: string;
  /** `--config FILE`, the target description, as given. */
  config?: string;
  apiKeyHeader?: string;
  pathPrefix?: string;
  symbol?: string;
  otherSymbol?: string;
  timePath?: string;
  /** `--ca FILE`: the certificates an HTTPS target is trusted with. */
  ca?: string;
  /** `--http2`: HTTP/2 offered by ALPN. */
  http2?: boolean;
  profile: Strictness;
  runs: number;
}

/** Flags of the target settings, in the order they are printed. */
const TARGET_FLAGS: ReadonlyArray<[keyof RunSettings, string]> = [
  ['config', '--config'],
  ['baseUrl', '--base-url'],
  ['apiKeyHeader', '--api-key-header'],
  ['pathPrefix', '--path-prefix'],
  ['symbol', '--symbol'],
  ['otherSymbol', '--other-symbol'],
  ['timePath', '--time-path'],
  ['ca', '--ca'],
];

/** The argv naming the run's target (or `--embedded`), profile and runs; never a credential. */
export function targetArgv(s: RunSettings): string[] {
  const out: string[] = [];
  for (const [key, flag] of TARGET_FLAGS) {
    const v = s[key];
    if (v !== undefined) out.push(flag, String(v));
  }
  if (s.http2 === true) out.push('--http2');
  if (s.baseUrl === undefined && s.config === undefined) out.push('--embedded');
  out.push('--profile', s.profile, '--runs', String(s.runs));
  return out;
}

/** The argv (after `spotcheck`) replaying one check of a run. */
export function replayArgv(seed: number, checkId: string, target: readonly string[]): string[] {
  return ['replay', '--seed', String(seed), '--only', checkId, ...target];
}

/** A command line for a POSIX shell: words quoted only where they need it. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : shq(w))).join(' ');
}
