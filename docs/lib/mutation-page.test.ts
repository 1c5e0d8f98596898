import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { MUTATION_TITLE, renderMutationPage, type EquivalentList, type MutationScore } from './mutation-page.js';
import { READINGS } from '../../harness/readings/readings.js';
import { CORRECT_VENUES } from '../../harness/readings/venues.js';

const read = <T>(...p: string[]) => JSON.parse(readFileSync(kitPath(...p), 'utf8')) as T;

describe('renderMutationPage', () => {
  it('shows the recorded score and lists every equivalent mutant under its class with the reason', () => {
    const score = read<MutationScore>('harness', 'mutation', 'score.json');
    const equivalent = read<EquivalentList>('harness', 'mutation', 'equivalent.json');
    const page = renderMutationPage(score, equivalent, { readings: READINGS, decisions: 42, venues: CORRECT_VENUES });
    expect(page.startsWith(`---\ntitle: ${MUTATION_TITLE}\n---\n`)).toBe(true);
    expect(page).toContain(`**${score.score}%**`);
    for (const [cls, reason] of Object.entries(equivalent.classes)) {
      expect(page).toContain(`### ${cls} (`);
      expect(page).toContain(reason);
    }
    for (const m of equivalent.mutants) expect(page).toContain(m.key.replace(/\|/g, '\\|').replace(/`/g, "'"));
    for (const f of Object.keys(score.byFile)) expect(page).toContain(`| \`${f}\` |`);
    // precision beside power: every reading the kit is run against, the correct venues, and the false alarms (0)
    expect(page).toContain('| Open points of spec/decisions.md | 42 |');
    expect(page).toContain('(false alarms)** | **0**');
    for (const r of READINGS) expect(page).toContain(`| \`${r.id}\` |`);
    for (const v of CORRECT_VENUES) expect(page).toContain(v);
  });
});
