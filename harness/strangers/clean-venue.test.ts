/**
 * The whole kit against one stranger venue in `npm test` (the others run in `npm run
 * test:interop`): the clean JavaScript-style venue (harness/strangers/languages.ts), with its own
 * codes, shapes and readers, passes with no MUST failure, so the developer loop still meets a
 * server the team did not write.
 */
import { expect, it } from 'vitest';
import { cleanReaders } from './languages.js';
import { domainPasses, mustFailures, runVenue } from './run-venue.js';

it('the clean js venue passes the whole kit with no MUST failure', async () => {
  const { report } = await runVenue({}, {}, { readers: cleanReaders.js });
  expect(mustFailures(report)).toEqual([]);
  expect(domainPasses(report)).toBeGreaterThan(15);
});
