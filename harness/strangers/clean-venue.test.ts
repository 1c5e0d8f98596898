/**
 * The whole kit against the clean JavaScript-style stranger venue (harness/strangers/languages.ts),
 * with its own codes, shapes and readers: it passes with no MUST failure (`npm run test:interop`,
 * beside the Python and Go ones of languages.test.ts).
 */
import { expect, it } from 'vitest';
import { cleanReaders } from './languages.js';
import { domainPasses, mustFailures, runVenue } from './run-venue.js';

it('the clean js venue passes the whole kit with no MUST failure', async () => {
  const { report } = await runVenue({}, {}, { readers: cleanReaders.js });
  expect(mustFailures(report)).toEqual([]);
  expect(domainPasses(report)).toBeGreaterThan(15);
});
