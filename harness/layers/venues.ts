/**
 * Starts the layer venues as real child processes in their real runtimes: the PHP venue
 * (harness/layers/php/index.php) under Apache httpd with mod_php and SQLite, and the Java venue
 * (harness/layers/java/Venue.java, JDK only) behind haproxy. Each in the foreground, every file in
 * a temporary run directory, on free loopback ports; `close()` ends its process groups and removes
 * the directory. Test harness only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const PHP_DIR = join(HERE, 'php');
const JAVA_DIR = join(HERE, 'java');

export type VenueName = 'php' | 'java';

/** A venue listening, as the kit's runner wants it. */
export interface LayerVenue {
  url: string;
  apiKey: string;
  secret: string;
  /** What the processes wrote (stderr, error logs): for a failing assertion's message. */
  logs(): string;
  close(): Promise<void>;
}

const API_KEY = 'layer-key-5c21';
const SECRET = 'layer-secret-e09d4f';

/** An executable on PATH or in the sbin directories (apache2 and haproxy live in /usr/sbin). */
function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const d of dirs) if (d !== '' && existsSync(join(d, name))) return join(d, name);
  return undefined;
}

/** mod_php's shared object, whichever PHP version Debian ships. */
function libphp(): string | undefined {
  const dir = '/usr/lib/apache2/modules';
  if (!existsSync(dir)) return undefined;
  const so = readdirSync(dir).find((f) => /^libphp[0-9.]*\.so$/.test(f));
  return so === undefined ? undefined : join(dir, so);
}

/** Why a venue cannot run here (the tools it needs that are missing), or an empty list. */
export function missingTools(venue: VenueName): string[] {
  const missing: string[] = [];
  if (venue === 'php') {
    if (which('php') === undefined) missing.push('php (php-cli)');
    if (which('apache2') === undefined) missing.push('apache2');
    if (libphp() === undefined) missing.push('mod_php (libapache2-mod-php)');
    if (!existsSync('/usr/lib/apache2/modules/mod_mpm_prefork.so')) missing.push('mod_mpm_prefork (apache2)');
  } else {
    if (which('javac') === undefined) missing.push('javac (a JDK 17)');
    if (which('java') === undefined) missing.push('java');
    if (which('haproxy') === undefined) missing.push('haproxy');
  }
  return missing;
}

/** A free loopback port (the kernel's choice, released at once for the server to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once anything answers HTTP on the port (any status), within the deadline. */
async function untilAnswering(port: number, deadlineMs: number, alive: () => boolean): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (!alive()) throw new Error('the process exited before it answered');
    const ok = await new Promise<boolean>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', timeout: 1000 }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.on('timeout', () => {
        req.destroy();
        resolve(false);
      });
      req.end();
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing answered on port ${port} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The process groups started and not yet ended: killed if this process exits before closing them. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live)
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
});

/** A child in its own process group, its output kept. */
function start(cmd: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; out: () => string } {
  const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid !== undefined) {
    live.add(pid);
    child.once('exit', () => live.delete(pid));
  }
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, out: () => out };
}

/** Ends a child's whole process group: SIGTERM, then SIGKILL if it is still there after 3 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const group = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {
      // the group is gone already
    }
  };
  group('SIGTERM');
  const timer = setTimeout(() => group('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
  // prefork children or haproxy workers left in the group
  group('SIGKILL');
}

// ------------------------------------------------------------------ PHP under Apache

/** Starts the PHP venue under Apache httpd (mod_php, prefork), with one fault or none. */
export async function startPhpVenue(fault?: string): Promise<LayerVenue> {
  const apache = which('apache2');
  const lib = libphp();
  if (apache === undefined || lib === undefined) throw new Error(`missing: ${missingTools('php').join(', ')}`);
  const dir = await mkdtemp(join(tmpdir(), 'spotcheck-php-'));
  // started as root, Apache's children run as www-data: they write the SQLite file and its journal here
  await chmod(dir, 0o777);
  const doc = join(dir, 'doc');
  await mkdir(doc);
  await chmod(doc, 0o755);
  await copyFile(join(PHP_DIR, 'index.php'), join(doc, 'index.php'));
  await chmod(join(doc, 'index.php'), 0o644);
  const db = join(dir, 'orders.sqlite');
  await run(which('php') ?? 'php', [join(PHP_DIR, 'index.php'), '--init', db]);
  for (const f of readdirSync(dir)) if (f.startsWith('orders.sqlite')) await chmod(join(dir, f), 0o666);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SPOTCHECK_RUN: dir,
    SPOTCHECK_DOCROOT: doc,
    SPOTCHECK_PORT: String(port),
    SPOTCHECK_LIBPHP: lib,
    SPOTCHECK_DB: db,
    SPOTCHECK_KEY: API_KEY,
    SPOTCHECK_SECRET: SECRET,
    SPOTCHECK_FAULT: fault ?? '',
  };
  const args = ['-f', join(PHP_DIR, 'httpd.conf'), '-DFOREGROUND', ...(fault ? ['-D', `FAULT_${fault}`] : [])];
  const httpd = start(apache, args, env);
  const logs = () => {
    let text = httpd.out();
    for (const f of ['error.log', 'php.log'])
      if (existsSync(join(dir, f))) text += `\n--- ${f}\n${readTail(join(dir, f))}`;
    return text;
  };
  try {
    await untilAnswering(port, 15_000, () => httpd.child.exitCode === null);
  } catch (e) {
    await stop(httpd.child);
    const text = logs();
    await rm(dir, { recursive: true, force: true });
    throw new Error(`apache2 did not start: ${(e as Error).message}\n${text}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: API_KEY,
    secret: SECRET,
    logs,
    async close() {
      await stop(httpd.child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-8000);
  } catch {
    return '';
  }
}

// ------------------------------------------------------------------ Java behind haproxy

/** The haproxy faults (haproxy.cfg's .if blocks); every other Java fault is a --fault flag of Venue.java. */
export const HAPROXY_FAULTS: readonly string[] = ['v11_alias', 'small_buffer'];

let compiled: Promise<string> | undefined;

/** Compiles Venue.java once per process into a temporary directory; its path. */
export function compileJava(): Promise<string> {
  compiled ??= (async () => {
    const out = await mkdtemp(join(tmpdir(), 'spotcheck-java-classes-'));
    await run(which('javac') ?? 'javac', ['-d', out, join(JAVA_DIR, 'Venue.java')]);
    return out;
  })();
  return compiled;
}

/** Removes the compiled classes (afterAll). */
export async function removeJavaClasses(): Promise<void> {
  if (compiled === undefined) return;
  const dir = await compiled.catch(() => undefined);
  compiled = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}

/** Starts the Java venue (JDK HttpServer) behind haproxy, with one fault or none. */
export async function startJavaVenue(fault?: string): Promise<LayerVenue> {
  const haproxy = which('haproxy');
  const java = which('java');
  if (haproxy === undefined || java === undefined) throw new Error(`missing: ${missingTools('java').join(', ')}`);
  const classes = await compileJava();
  const venueFault = fault !== undefined && !HAPROXY_FAULTS.includes(fault) ? ['--fault', fault] : [];
  // a slim container's locale: LANG=C, so the JVM's platform charset is US-ASCII
  const { LC_ALL: _all, LC_CTYPE: _ctype, ...rest } = process.env;
  const backend = start(
    java,
    [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx96m',
      '-cp',
      classes,
      'Venue',
      '--port',
      '0',
      '--key',
      API_KEY,
      '--secret',
      SECRET,
      ...venueFault,
    ],
    { ...rest, LANG: 'C' },
  );
  let front: ReturnType<typeof start> | undefined;
  const logs = () => `--- java\n${backend.out()}\n--- haproxy\n${front?.out() ?? ''}`;
  const close = async () => {
    if (front !== undefined) await stop(front.child);
    await stop(backend.child);
  };
  try {
    const backendPort = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the JVM did not print its port within 15 s')), 15_000);
      const poll = setInterval(() => {
        const m = /listening (\d+)/.exec(backend.out());
        if (m !== null || backend.child.exitCode !== null) {
          clearInterval(poll);
          clearTimeout(timer);
          if (m === null) reject(new Error('the JVM exited'));
          else resolve(Number(m[1]));
        }
      }, 25);
    });
    const port = await freePort();
    front = start(haproxy, ['-db', '-f', join(JAVA_DIR, 'haproxy.cfg')], {
      ...process.env,
      SPOTCHECK_PORT: String(port),
      SPOTCHECK_BACKEND_PORT: String(backendPort),
      SPOTCHECK_FAULT: fault ?? '',
    });
    const f = front;
    await untilAnswering(port, 15_000, () => f.child.exitCode === null && backend.child.exitCode === null);
    return { url: `http://127.0.0.1:${port}`, apiKey: API_KEY, secret: SECRET, logs, close };
  } catch (e) {
    const text = logs();
    await close();
    throw new Error(`the Java venue did not start: ${(e as Error).message}\n${text}`);
  }
}

/**
 * Starts a venue by name. The free port is the kernel's pick released for the server to bind, so
 * another process may take it first: a start that fails is tried again, twice at most.
 */
export async function startLayerVenue(venue: VenueName, fault?: string): Promise<LayerVenue> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (venue === 'php' ? startPhpVenue(fault) : startJavaVenue(fault));
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}
