import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { decisionRows } from './helpers.js';
import { renderDecisionsPage } from './decisions-page.js';

describe('renderDecisionsPage', () => {
  it('keeps the record and gives every decision row an anchor equal to its ID', () => {
    const source = readFileSync(kitPath('spec', 'decisions.md'), 'utf8');
    const page = renderDecisionsPage(source);
    expect(page.startsWith('---\ntitle: Decisions record\n---\n')).toBe(true);
    const ids = [...decisionRows(source).keys()];
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(page).toContain(`| <a id="${id}"></a>${id} |`);
    expect(page.replace(/<a id="D-[A-Z0-9-]+"><\/a>/g, '')).toBe(`---\ntitle: Decisions record\n---\n${source}`);
  });
});
