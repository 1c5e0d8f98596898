/**
 * Stryker over the reference server's request path (`npm run mutation`; harness/mutation/run.mjs
 * passes this file). Mutants switch inside the server process only: the build command bundles
 * the instrumented server into the sandbox, and the command (judge.mjs, built from the
 * unmutated sources before Stryker starts) judges it with `spotcheck run --profile reference
 * --strict`. A mutant is killed when that run exits non-zero.
 */
export default {
  testRunner: 'command',
  commandRunner: { command: 'node node_modules/.mutation/judge.mjs' },
  buildCommand: 'node harness/mutation/bundle-server.mjs',
  coverageAnalysis: 'off',
  // the request path: signing, validation and the time check the server runs, and the server's
  // parsing, auth, routing, answers and placement; not its connection handling (server.ts), nor
  // core modules only the kit or a browser runs (meaning.ts, webcrypto.ts); src/signing/hmac.ts
  // is the server's HMAC
  mutate: [
    'src/core/signing/{build,hmac,query,total-params}.ts',
    'src/core/validation/*.ts',
    '!src/core/validation/meaning.ts',
    'src/core/time.ts',
    'src/signing/hmac.ts',
    'src/server/*.ts',
    '!src/server/server.ts',
    '!**/*.test.ts',
  ],
  ignorePatterns: ['dist', 'site', 'artifacts', 'reports', '.latbuild', 'docs', 'vectors', '.git'],
  disableTypeChecks: '{src,harness}/**/*.ts',
  concurrency: 2,
  timeoutMS: 20000,
  timeoutFactor: 2,
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: 'node_modules/.stryker-tmp',
  cleanTempDir: true,
  plugins: [],
};
