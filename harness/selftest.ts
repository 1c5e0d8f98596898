/**
 * Running the whole suite against an in-process server, for the runner's self-tests
 * and the benchmark.
 */
import { DEFAULT_TIMEOUT_MS } from '../conformance/engine/transport.js';
import { DEMO_API_KEY, DEMO_READONLY_API_KEY, DEMO_READONLY_SECRET, DEMO_SECRET } from '../src/server/credentials.js';
import { startServer, type ServerOptions } from '../src/server/server.js';
import type { RunOptions } from '../conformance/engine/runner.js';
import { runAgreeing } from './agreeing-run.js';
import type { RunReport } from '../conformance/judgement/types.js';

/** Start a reference server with `options`, run the checks against it, stop it. */
export async function runAgainstServer(
  options: ServerOptions,
  run: Partial<Omit<RunOptions, 'target'>> = {},
): Promise<RunReport> {
  const server = await startServer({ port: 0, ...options });
  try {
    return await runAgainstUrl(server.url, run);
  } finally {
    await server.close();
  }
}

/** Run the checks with the demo keys against a server at `baseUrl` (the reference server, or a proxy or variant in front of it). */
export function runAgainstUrl(baseUrl: string, run: Partial<Omit<RunOptions, 'target'>> = {}): Promise<RunReport> {
  return runAgreeing({
    target: {
      baseUrl,
      apiKey: DEMO_API_KEY,
      secret: DEMO_SECRET,
      symbol: 'BTCUSDT',
      otherSymbol: 'ETHUSDT',
      noTradeKey: { apiKey: DEMO_READONLY_API_KEY, secret: DEMO_READONLY_SECRET },
    },
    profile: 'core',
    seed: 1,
    runs: 100,
    rate: 0,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    only: [],
    maxOrders: 1_000_000,
    ...run,
  });
}
