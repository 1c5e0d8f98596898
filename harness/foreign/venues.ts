/**
 * Starts the foreign venues (harness/foreign/README.md) as child processes: the Python venue
 * (python3, standard library only) and the Go venue built with `go build` and run behind nginx.
 * Each runs in its own process group, killed whole by `close()`; a missing tool is reported as
 * the reason the venue did not start, never as an error.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
/** Where the Go binary and Go's caches live between runs (never committed). */
const CACHE = join(ROOT, 'node_modules', '.cache', 'foreign-venues');
const START_MS = 15_000;

export interface ForeignVenue {
  name: string;
  url: string;
  apiKey: string;
  secret: string;
  /** Ends every process of the venue (its process groups) and removes its temporary files. */
  close(): Promise<void>;
  /** The server's own process (the Python venue's): a test may stop it (SIGSTOP) or kill it. */
  pid?: number;
}

export type Started = { venue: ForeignVenue } | { skipped: string };

/** The path of a command on PATH (and the sbin folders, where Debian puts nginx), or undefined. */
export function findCommand(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const d of dirs) {
    if (d === '') continue;
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Credentials of one run: the venue's own, never the kit's demo ones. */
function credentials(prefix: string): { apiKey: string; secret: string } {
  return { apiKey: `${prefix}-key-${randomBytes(6).toString('hex')}`, secret: randomBytes(24).toString('hex') };
}

/** A child in its own process group; `close` kills the group (SIGTERM, then SIGKILL after 3 s). */
interface Child {
  proc: ChildProcess;
  /** The first line the child writes on stdout. */
  firstLine: Promise<string>;
  /** Everything written on stderr so far (for error messages). */
  stderr(): string;
  close(): Promise<void>;
}

function startChild(cmd: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let err = '';
  proc.stderr?.on('data', (b: Buffer) => {
    if (err.length < 8192) err += b.toString();
    // a venue's own complaints (a Python traceback, a Go panic) show in the test's output
    process.stderr.write(b.toString().replace(/^(?=.)/gm, `[${cmd.split('/').pop()}] `));
  });
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${cmd}: no first line within ${START_MS} ms`)), START_MS);
    proc.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl !== -1) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited (${code ?? signal}) before it was ready: ${err.trim()}`));
    });
  });
  firstLine.catch(() => undefined);
  const close = async (): Promise<void> => {
    if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const signal = (s: NodeJS.Signals): void => {
      try {
        process.kill(-(proc.pid as number), s);
      } catch {
        // the group is gone
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    // workers of the group (nginx's) may outlive their master by a moment
    signal('SIGKILL');
  };
  return { proc, firstLine, stderr: () => err, close };
}

/** A free loopback port (for nginx, which cannot report a port it chose). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once the port accepts a connection, or rejects when `failed` does or the time is up. */
async function listening(port: number, failed: Promise<never>): Promise<void> {
  const deadline = Date.now() + START_MS;
  let give: Error | undefined;
  failed.catch((e: unknown) => {
    give = e instanceof Error ? e : new Error(String(e));
  });
  for (;;) {
    if (give !== undefined) throw give;
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${START_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Python venue (harness/foreign/python/venue.py), run by python3 directly. */
export async function startPythonVenue(): Promise<Started> {
  const python = findCommand('python3');
  if (python === undefined) return { skipped: 'python3 is not installed (Debian package python3)' };
  const creds = credentials('py');
  const child = startChild(python, [join(HERE, 'python', 'venue.py'), '0'], {
    ...process.env,
    VENUE_API_KEY: creds.apiKey,
    VENUE_SECRET: creds.secret,
    PYTHONDONTWRITEBYTECODE: '1',
  });
  try {
    const port = Number(await child.firstLine);
    return {
      venue: {
        name: 'python',
        url: `http://127.0.0.1:${port}`,
        ...creds,
        close: child.close,
        ...(child.proc.pid === undefined ? {} : { pid: child.proc.pid }),
      },
    };
  } catch (e) {
    await child.close();
    throw e;
  }
}

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, timeout: 120_000 }, (err, _out, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`));
      else resolve();
    });
  });
}

/** The Go venue (harness/foreign/go/main.go), built into the cache folder, behind nginx (nginx.conf.template). */
export async function startGoVenue(): Promise<Started> {
  const go = findCommand('go');
  const nginx = findCommand('nginx');
  const missing = [go === undefined ? 'go (Debian package golang-go)' : '', nginx === undefined ? 'nginx' : '']
    .filter((m) => m !== '')
    .join(' and ');
  if (go === undefined || nginx === undefined) return { skipped: `${missing} not installed` };

  mkdirSync(CACHE, { recursive: true });
  const bin = join(CACHE, 'govenue');
  await run(go, ['build', '-p', '1', '-o', bin, '.'], {
    cwd: join(HERE, 'go'),
    env: {
      ...process.env,
      GOCACHE: join(CACHE, 'go-build'),
      GOPATH: join(CACHE, 'gopath'),
      GOPROXY: 'off',
      GOFLAGS: '-mod=mod',
      GOTOOLCHAIN: 'local',
      CGO_ENABLED: '0',
    },
  });

  const creds = credentials('go');
  const app = startChild(bin, ['0'], { ...process.env, VENUE_API_KEY: creds.apiKey, VENUE_SECRET: creds.secret });
  const dir = mkdtempSync(join(tmpdir(), 'foreign-nginx-'));
  // nginx's workers run as an unprivileged user when it is started as root: they must reach the folder
  chmodSync(dir, 0o755);
  const template = readFileSync(join(HERE, 'go', 'nginx.conf.template'), 'utf8');
  let front: Child | undefined;
  try {
    const upstream = Number(await app.firstLine);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      writeFileSync(
        join(dir, 'nginx.conf'),
        template
          .replaceAll('@DIR@', dir)
          .replaceAll('@PORT@', String(port))
          .replaceAll('@UPSTREAM_PORT@', String(upstream)),
      );
      const f = startChild(nginx, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
        ...process.env,
      });
      front = f;
      const failed = new Promise<never>((_, reject) => {
        f.proc.once('exit', (code, signal) =>
          reject(new Error(`nginx exited (${code ?? signal}): ${f.stderr().trim() || readLog(dir)}`)),
        );
      });
      try {
        await listening(port, failed);
      } catch (e) {
        await f.close();
        front = undefined;
        // another process took the port between freePort and nginx's bind: try another
        if (attempt < 3) continue;
        throw e;
      }
      const close = async (): Promise<void> => {
        await Promise.all([f.close(), app.close()]);
        rmSync(dir, { recursive: true, force: true });
      };
      return { venue: { name: 'go+nginx', url: `http://127.0.0.1:${port}`, ...creds, close } };
    }
  } catch (e) {
    await Promise.all([front?.close(), app.close()]);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'error.log'), 'utf8').trim().split('\n').slice(-3).join('\n');
  } catch {
    return '';
  }
}
