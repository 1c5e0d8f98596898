/**
 * The server under mutation: the reference server started from the (instrumented) sources
 * beside this file, on a free loopback port. Prints `listening URL` once, then serves until
 * SIGTERM. Only this process runs mutated code; the judge is built from unmutated sources.
 *
 * With SPOTCHECK_MUTATION_COVERAGE set and no mutant active (Stryker's initial run), the ids
 * of the mutants the run's requests reached are written there on SIGTERM: a mutant never
 * reached by the unmutated run is reported as not covered, as Stryker's own coverage analysis
 * does for test runners that support it.
 */
import { writeFileSync } from 'node:fs';
import { startServer } from '../../src/server/server.js';

interface StrykerGlobal {
  activeMutant?: string;
  mutantCoverage?: { static: Record<string, number> };
}

const server = await startServer({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${server.url}\n`);
const stop = () => {
  const ns = (globalThis as { __stryker__?: StrykerGlobal }).__stryker__;
  const file = process.env.SPOTCHECK_MUTATION_COVERAGE;
  if (file !== undefined && ns?.activeMutant === undefined)
    writeFileSync(file, JSON.stringify(Object.keys(ns?.mutantCoverage?.static ?? {})));
  void server.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
