import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { DOMAIN_TITLE, renderDomainPage, type DomainData } from './domain-page.js';

const data = JSON.parse(readFileSync(kitPath('spec', 'domain.json'), 'utf8')) as DomainData;

describe('renderDomainPage', () => {
  it('renders one table per input, every form a row, every parser with its source and an anchor the rows link to', () => {
    const page = renderDomainPage(data, (id) => `[${id}](./rules.md#${id.toLowerCase()})`);
    expect(page.startsWith(`---\ntitle: ${DOMAIN_TITLE}\n---\n`)).toBe(true);
    for (const i of data.inputs) expect(page).toContain(`\n## ${i.id}\n`);
    for (const f of data.forms) expect(page).toContain(`| ${f.id} |`);
    for (const p of data.parsers) {
      expect(page).toContain(`<a id="parser-${p.id}"></a>`);
      expect(page).toContain(`\`${p.source}\``);
    }
    for (const f of data.forms.filter((x) => x.decision !== undefined))
      expect(page).toContain(`[${f.decision}](./decisions.md)`);
    // a form's second time input and the routes it keeps to are part of how it travels
    const row = (id: string) => page.split('\n').find((l) => l.startsWith(`| ${id} |`)) ?? '';
    expect(row('recvWindow.2^15')).toMatch(/, with timestamp `\{now-2\^15\+5000\}`/);
    expect(row('syntax.method-PUT')).toContain('query: method-PUT, on every endpoint');
    expect(row('syntax.unsigned-query-signed-body')).toContain(', on v1/body, v1.1/body');
    // a table row never breaks: every row has its six cells
    for (const line of page
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| Parser') && !l.includes('<a id="parser-')))
      if (!line.startsWith('| Form')) expect(line.split(/(?<!\\)\|/).length, line).toBe(8);
  });
});
