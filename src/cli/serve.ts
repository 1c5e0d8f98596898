/**
 * `spotcheck serve`: run the reference server until SIGINT, SIGTERM or SIGHUP, or until
 * the process that started it ends. Prints the
 * URL and the accepted API key once it answers; never prints a secret other than
 * the documented demo ones.
 */
import type { EventEmitter } from 'node:events';
import { SpotcheckError } from '../core/errors.js';
import { DEMO_CREDENTIALS, isDemoSecret } from '../server/credentials.js';
import type { Credential } from '../server/policy.js';
import { DEFAULT_MAX_CONNECTIONS, startServer } from '../server/server.js';
import { credential, parse, type Io } from './args.js';
import { ENDPOINTS } from '../core/wire.js';

/** Usage text of `spotcheck serve`. */
export const SERVE_HELP = `Usage: spotcheck serve [--port P] [--host H] [--api-key K --secret S] [--explain] [--max-connections N]

Starts the reference server (POST ${ENDPOINTS.batch.path}, ${ENDPOINTS.v1.path},
${ENDPOINTS['v1.1'].path}) and prints its URL and the API key it accepts. Stops on
SIGINT (Ctrl-C), SIGTERM or SIGHUP, and when the process that started it ends (e.g. the
npx wrapper of \`npx spotcheck serve\` killed by its pid).

Options:
  --port P      TCP port (default 0: a free port, printed)
  --host H      interface (default 127.0.0.1, loopback only)
  --api-key K   the API key to accept (or set SPOTCHECK_API_KEY)
  --secret S    its secret (or set SPOTCHECK_SECRET); never printed
  --explain     a signature rejection carries a "diagnosis" (the signing mistake that
                explains it, see spotcheck doctor) and is logged as one JSON line on
                stderr; off by default (a production-like server explains nothing)
  --max-connections N
                open connections served at once (default ${DEFAULT_MAX_CONNECTIONS}); beyond
                it a request gets 503 with Retry-After and the connection closes
  -h, --help    this text

Credentials come from the flags, else from SPOTCHECK_API_KEY and SPOTCHECK_SECRET
in the environment (the same variables \`spotcheck run\` reads), else the server
accepts the documented demo keys; it prints which. Unset the variables (or run
\`env -u SPOTCHECK_API_KEY -u SPOTCHECK_SECRET spotcheck serve\`) for the demo keys:
  spotcheck-demo-key           secret spotcheck-demo-secret           (TRADE)
  spotcheck-demo-readonly-key  secret spotcheck-demo-readonly-secret  (no TRADE)
`;

/** Resolves with the name of the first of `signals` that `target` emits, then stops listening. */
export function waitForSignal(
  signals: readonly string[] = ['SIGINT', 'SIGTERM'],
  target: EventEmitter = process,
): Promise<string> {
  return new Promise((resolve) => {
    const handlers = new Map<string, () => void>();
    for (const name of signals) {
      const h = (): void => {
        for (const [n, f] of handlers) target.off(n, f);
        resolve(name);
      };
      handlers.set(name, h);
      target.on(name, h);
    }
  });
}

/** What {@link waitForParentExit} reads of the process (`process` itself by default). */
export interface ParentSide {
  readonly ppid: number;
  readonly channel?: unknown;
  once(event: 'disconnect', listener: () => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
}

/**
 * Resolves when the process that started this one is gone: its parent id changes (the
 * orphan is re-parented), or the IPC channel to it closes. `npx spotcheck serve` killed by
 * its pid kills the npx wrapper only; without this the server would run on, orphaned.
 */
export function waitForParentExit(
  pollMs = 500,
  proc: ParentSide = process,
): { done: Promise<string>; cancel: () => void } {
  const parent = proc.ppid;
  let timer: NodeJS.Timeout | undefined;
  let onDisconnect: (() => void) | undefined;
  const cancel = (): void => {
    if (timer !== undefined) clearInterval(timer);
    if (onDisconnect !== undefined) proc.off('disconnect', onDisconnect);
  };
  const done = new Promise<string>((resolve) => {
    const gone = (why: string): void => {
      cancel();
      resolve(why);
    };
    timer = setInterval(() => {
      if (proc.ppid !== parent) gone('parent process ended');
    }, pollMs);
    timer.unref();
    if (proc.channel !== undefined && proc.channel !== null) {
      onDisconnect = () => gone('parent process ended (IPC channel closed)');
      proc.once('disconnect', onDisconnect);
    }
  });
  return { done, cancel };
}

/** The default end of `serve`: SIGINT, SIGTERM, SIGHUP (its terminal closed), or its parent process ending. */
export function waitForStop(): Promise<string> {
  const parent = waitForParentExit();
  return Promise.race([waitForSignal(['SIGINT', 'SIGTERM', 'SIGHUP']), parent.done]).finally(parent.cancel);
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new SpotcheckError(
      'ERR_USAGE',
      `serve: --port must be a whole number from 0 to 65535, got ${JSON.stringify(text)}`,
    );
  return port;
}

function parseMaxConnections(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_CONNECTIONS;
  const n = /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1))
    throw new SpotcheckError(
      'ERR_USAGE',
      `serve: --max-connections must be a whole number of at least 1, got ${JSON.stringify(text)}`,
    );
  return n;
}

/** The credentials to serve: flags, then environment, else the demo keys. Key and secret come as a pair. */
function chooseCredentials(apiKey: string | undefined, secret: string | undefined): ReadonlyArray<Credential> {
  if (apiKey === undefined && secret === undefined) return DEMO_CREDENTIALS;
  if (apiKey === undefined || secret === undefined) {
    throw new SpotcheckError(
      'ERR_USAGE',
      'serve: give both an API key and a secret (--api-key K --secret S, or SPOTCHECK_API_KEY and SPOTCHECK_SECRET), or neither for the demo keys',
    );
  }
  return [{ apiKey, secret, permissions: ['TRADE', 'USER_DATA'] }];
}

/** What to print about the keys: each key and its permissions; a secret only when it is a documented demo one. */
function describeKeys(creds: ReadonlyArray<Credential>): string {
  return creds
    .map((c) => {
      const secret = isDemoSecret(c.secret) ? `, secret ${c.secret} (documented demo secret)` : '';
      return `api key: ${c.apiKey} (${c.permissions.join(', ') || 'no permissions'})${secret}\n`;
    })
    .join('');
}

/** The flags of a command that serves the seed's endpoints: where it listens and the credentials it accepts (`serve`, `grade`). */
export const LISTEN_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
} as const;

/** Run `serve` until `stop` resolves (default: SIGINT or SIGTERM); exit code 0 after a clean stop. */
export async function serveCommand(argv: string[], io: Io, stop: () => Promise<string> = waitForStop): Promise<number> {
  const { values } = parse(
    {
      args: argv,
      strict: true,
      options: {
        ...LISTEN_OPTIONS,
        explain: { type: 'boolean', default: false },
        'max-connections': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'serve',
  );
  if (values.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const port = parsePort(values.port);
  const maxConnections = parseMaxConnections(values['max-connections']);
  const credentials = chooseCredentials(
    credential(values['api-key'], 'SPOTCHECK_API_KEY', io.env),
    credential(values.secret, 'SPOTCHECK_SECRET', io.env),
  );
  const source =
    credentials === DEMO_CREDENTIALS
      ? 'the documented demo keys (no --api-key/--secret, no SPOTCHECK_API_KEY/SPOTCHECK_SECRET)'
      : values['api-key'] !== undefined || values.secret !== undefined
        ? 'the --api-key/--secret flags'
        : 'SPOTCHECK_API_KEY and SPOTCHECK_SECRET from the environment, not the demo keys (unset them for the demo keys)';
  const server = await startServer({
    port,
    host: values.host,
    credentials,
    maxConnections,
    ...(values.explain ? { explain: true, log: (line: string) => io.err(`${line}\n`) } : {}),
  });
  const stopped = stop();
  const explaining = values.explain ? 'explain: signature rejections carry a diagnosis (--explain)\n' : '';
  io.out(
    `spotcheck reference server listening on ${server.url}\ncredentials: ${source}\n${describeKeys(credentials)}${explaining}`,
  );
  if (!['127.0.0.1', '::1', 'localhost'].includes(values.host))
    io.err(`warning: listening on ${values.host}, not only on loopback\n`);
  const signal = await stopped;
  io.err(`${signal}: stopping\n`);
  await server.close();
  return 0;
}
