/**
 * The site script on the playground page opened from a file (file://): the status line at
 * the top and the error line both say how to open the site, so the top no longer says
 * "needs JavaScript" with JavaScript on (the browser suite checks the same in Chromium).
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';

describe('docs/assets/custom.js on a file:// page', () => {
  it('replaces the "needs JavaScript" status at the top with how to open the site', () => {
    const elements = new Map(
      ['sc-playground', 'sc-golden-result', 'sc-error'].map((id) => [
        id,
        { textContent: id === 'sc-golden-result' ? 'The playground needs JavaScript.' : '' },
      ]),
    );
    const document = { getElementById: (id: string) => elements.get(id) ?? null };
    runInNewContext(readFileSync(kitPath('docs', 'assets', 'custom.js'), 'utf8'), {
      document,
      location: { protocol: 'file:' },
    });
    const top = elements.get('sc-golden-result')?.textContent ?? '';
    expect(top).not.toMatch(/needs JavaScript/);
    expect(top).toContain('npm run docs:serve');
    expect(elements.get('sc-error')?.textContent).toBe(top);
  });
});
