/**
 * Report files: checked writable before the first request, the NDJSON
 * event stream written line by line as checks end, so a crash or Ctrl-C keeps
 * what was done.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SpotcheckError } from '../../src/core/errors.js';
import type { CheckReport, RunReport } from '../judgement/types.js';

function cannot(flag: string, path: string, err: unknown): SpotcheckError {
  const e = err as NodeJS.ErrnoException;
  const code = e.code ?? String(err);
  const where = e.path !== undefined && resolve(e.path) !== resolve(path) ? ` (at ${e.path})` : '';
  return new SpotcheckError(
    'ERR_USAGE',
    `--${flag}: cannot write ${path}: ${code}${where}; give a path in a folder you can write, e.g. --${flag} reports/${flag === 'junit' ? 'junit.xml' : flag === 'report-ndjson' ? 'events.ndjson' : 'report.json'}`,
  );
}

/**
 * Create the folders above `path` one level at a time: the first that cannot be made
 * fails at once (a recursive mkdir under /proc spins forever on Node 20 instead).
 */
function makeParents(path: string): void {
  const missing: string[] = [];
  for (let dir = dirname(resolve(path)); !existsSync(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) mkdirSync(dir);
}

/**
 * Create the folder `dir` (and the ones above it, one level at a time) and make sure a file
 * can be written in it; a usage error naming `--flag` at once otherwise (`matrix --out`,
 * `load init --out`).
 */
export function makeDirectory(flag: string, dir: string): void {
  try {
    makeParents(join(dir, 'probe'));
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(dir, `.spotcheck-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const where = e.path !== undefined && resolve(e.path) !== resolve(dir) ? ` (at ${e.path})` : '';
    throw new SpotcheckError(
      'ERR_USAGE',
      `--${flag}: cannot create or write the folder ${dir}: ${e.code ?? String(err)}${where}; give a folder you can write, e.g. --${flag} reports`,
    );
  }
}

/** Make sure `path` can be written, without clobbering it: a usage error now rather than after the run. */
export function assertWritable(flag: string, path: string): void {
  try {
    makeParents(path);
    if (existsSync(path)) {
      if (statSync(path).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
      accessSync(path, constants.W_OK);
    } else {
      writeFileSync(path, '');
      unlinkSync(path);
    }
  } catch (err) {
    throw cannot(flag, path, err);
  }
}

/** Write a whole report file. */
export function writeReportFile(flag: string, path: string, text: string): void {
  try {
    makeParents(path);
    writeFileSync(path, text);
  } catch (err) {
    throw cannot(flag, path, err);
  }
}

/** The NDJSON stream of a run: a `start` event, one `check` event per check as it ends, an `end` event. */
/** What a check sent and got, as it ends (no verdict yet): its probes by route, and the answers by kind. */
export interface EvidenceEvent {
  id: string;
  probes: number;
  routes: Record<string, number>;
  answers: Record<string, number>;
  durationMs: number;
}

export interface NdjsonSink {
  start(info: { target: string; profile: string; seed: number; runs: number; checks: number }): void;
  /** A check's probes have all come back: its evidence, by route and answer, before any verdict. */
  evidence(info: EvidenceEvent): void;
  /** A check's final verdict, once the run has decided (conformance/judgement/decide.ts). */
  check(report: CheckReport): void;
  end(
    report:
      | Pick<RunReport, 'summary' | 'durationMs' | 'requests' | 'stopped'>
      | { stopped: NonNullable<RunReport['stopped']> },
  ): void;
  close(): void;
}

/** Open (truncate) the NDJSON file now; each event is one synchronous write, so it survives an abrupt end. */
export function openNdjson(path: string): NdjsonSink {
  let fd: number;
  try {
    makeParents(path);
    fd = openSync(path, 'w');
  } catch (err) {
    throw cannot('report-ndjson', path, err);
  }
  let open = true;
  let written = false;
  const line = (event: Record<string, unknown>) => {
    if (!open) return;
    writeSync(fd, `${JSON.stringify({ ...event, time: new Date().toISOString() })}\n`);
    written = true;
  };
  return {
    start: (info) => line({ event: 'start', ...info }),
    evidence: (info) => line({ event: 'evidence', ...info }),
    check: (report) => line({ event: 'check', ...report }),
    end: (report) => line({ event: 'end', ...report }),
    // A run that never started (a usage error such as missing credentials, exit 2) writes no
    // report, as JSON, JUnit and HTML: the file opened to check its path goes, never left empty.
    close: () => {
      if (open) {
        closeSync(fd);
        if (!written) rmSync(path, { force: true });
      }
      open = false;
    },
  };
}
