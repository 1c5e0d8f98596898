import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules.js';
import type { Rule } from '../../src/rules.js';
import { renderRulesPage, ruleLink } from './rules-page.js';

const sample = new Map<string, Rule>([
  [
    'SIG-REQUIRED',
    {
      id: 'SIG-REQUIRED',
      family: 'SIG',
      level: 'MUST',
      section: '5.3',
      sentence: 'The request carries a parameter `signature`.',
    },
  ],
  [
    'BATCH-EMPTY',
    {
      id: 'BATCH-EMPTY',
      family: 'BATCH',
      level: 'INFO',
      section: '4.1',
      alsoSections: ['8'],
      sentence: 'at most 20 <elements>',
      note: 'Open point (decision D-EMPTY-BATCH).',
    },
  ],
]);

describe('renderRulesPage', () => {
  const page = renderRulesPage(sample, [
    { id: 'SIG-REQUIRED', ruleId: 'SIG-REQUIRED', title: 'a request without a signature is rejected' },
    { id: 'SIG-REQUIRED.empty', ruleId: 'SIG-REQUIRED', title: 'an empty | signature', level: 'SHOULD' },
  ]);

  it('gives each rule a heading and an anchor equal to its ID', () => {
    expect(page).toContain('### SIG-REQUIRED\n\n<a id="SIG-REQUIRED"></a>**MUST** · seed §5.3');
    expect(page).toContain('### BATCH-EMPTY\n\n<a id="BATCH-EMPTY"></a>**INFO** · seed §4.1, §8');
  });

  it('quotes the sentence escaped and links decisions named in the note', () => {
    expect(page).toContain('> The request carries a parameter `signature`.');
    expect(page).toContain('> at most 20 &lt;elements&gt;');
    expect(page).toContain('Open point (decision [D-EMPTY-BATCH](./decisions.md)).');
  });

  it('lists the checks enforcing each rule, with a level only where it differs', () => {
    expect(page).toContain(
      '- `SIG-REQUIRED`: a request without a signature is rejected\n- `SIG-REQUIRED.empty` (SHOULD): an empty \\| signature',
    );
    expect(page).toMatch(/### BATCH-EMPTY[^#]*Checks: none in this version of the runner\./);
  });

  it("shows each rule's cells of the coverage matrix: the covering checks, or why a cell is not observed", () => {
    const withCoverage = renderRulesPage(
      sample,
      [{ id: 'SIG-REQUIRED', ruleId: 'SIG-REQUIRED', title: 't', covers: ['v1/query'] }],
      {
        routes: ['v1/query', 'v1/body'],
        cells: [
          { rule: 'SIG-REQUIRED', route: 'v1/query', checks: ['SIG-REQUIRED'] },
          { rule: 'SIG-REQUIRED', route: 'v1/body', checks: [], explained: 'not reachable | here' },
        ],
        totals: { cells: 2, covered: 1, explained: 1, missing: 0 },
      },
    );
    expect(withCoverage).toContain('Of the 2 cells, 1 are covered by a check that sends there and 1 are explained');
    expect(withCoverage).toContain(
      '| `v1/query` | `SIG-REQUIRED` |\n| `v1/body` | not observed: not reachable \\| here |',
    );
  });

  it('fails when a check names a rule the catalog does not have', () => {
    expect(() => renderRulesPage(sample, [{ id: 'X', ruleId: 'SIG-GONE', title: 't' }])).toThrow(
      /check X names rule SIG-GONE/,
    );
  });

  it('covers every rule of the real catalog exactly once', () => {
    const real = renderRulesPage(rules(), []);
    for (const id of rules().keys()) expect(real.split(`<a id="${id}"></a>`)).toHaveLength(2);
  });
});

describe('ruleLink', () => {
  it('links to the lower-case heading anchor TypeDoc validates', () => {
    expect(ruleLink('SIG-TOTALPARAMS-NO-SEPARATOR')).toBe(
      '[`SIG-TOTALPARAMS-NO-SEPARATOR`](./rules.md#sig-totalparams-no-separator)',
    );
  });
});
