import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { LAYERS_TITLE, renderLayersPage, type LayersData } from './layers-page.js';

describe('renderLayersPage', () => {
  it('gives every layer its table and every failure mode its sources and probes (or the black-box reason)', () => {
    const data = JSON.parse(readFileSync(kitPath('spec', 'layers.json'), 'utf8')) as LayersData;
    const page = renderLayersPage(data, (id) => `[${id}](./rules.md#${id})`);
    expect(page.startsWith(`---\ntitle: ${LAYERS_TITLE}\n---\n`)).toBe(true);
    for (const l of data.layers) expect(page).toContain(`## ${l.name} (`);
    for (const m of data.failureModes) {
      for (const s of m.sources) expect(page).toContain(`\`${s}\``);
      for (const c of m.probes?.checks ?? []) expect(page).toContain(`[${c}](./rules.md#${c})`);
      if (m.blackBox !== undefined) expect(page).toContain('not seen by a black box');
    }
  });
});
