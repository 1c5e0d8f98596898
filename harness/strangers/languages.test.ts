/**
 * Venues in the habits of Python, Go and JavaScript (harness/strangers/languages.ts): each
 * lenient reader is caught by the domain probe of its input (spec/domain.json), on its rule
 * family only, and the clean venue of each language passes the whole kit with no MUST failure
 * (JavaScript's in clean-venue.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { cleanReaders, lenientReaders, type Language } from './languages.js';
import { domainPasses, mustFailures, runVenue } from './run-venue.js';

/** The checks that send the domain catalogue and the credential confusion probes. */
const DOMAIN_CHECKS = checks.filter((c) => /\.(domain|confusion)/.test(c.id)).map((c) => c.id);
const family = (id: string): string => id.split('-')[0] ?? id;

describe.concurrent('language-style venues: each lenient reader caught on its rule family', () => {
  it('every language has several lenient readers', () => {
    for (const lang of ['python', 'go', 'js'] as const)
      expect(lenientReaders.filter((r) => r.language === lang).length).toBeGreaterThanOrEqual(4);
  });

  for (const r of lenientReaders)
    it(`${r.language}: ${r.name} fails ${r.caughtBy}, and only checks of its family`, async () => {
      const { report } = await runVenue({}, {}, { only: DOMAIN_CHECKS, readers: r.readers, seed: 13 });
      const failed = mustFailures(report);
      expect(failed).toContain(r.caughtBy);
      expect(failed.filter((id) => family(id) !== family(r.caughtBy))).toEqual([]);
    });

  for (const lang of ['python', 'go'] as Language[])
    it(`the clean ${lang} venue passes the whole kit with no MUST failure`, async () => {
      const { report } = await runVenue({}, {}, { readers: cleanReaders[lang] });
      expect(mustFailures(report)).toEqual([]);
      expect(domainPasses(report)).toBeGreaterThan(15);
    });
});
