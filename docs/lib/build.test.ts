import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { packageRoot } from '../../src/paths.js';
import {
  copyPlayground,
  GUIDES,
  importsOf,
  loadDocsData,
  REFERENCE_PAGES,
  renderPages,
  titleOf,
  verifySite,
} from './build.js';
import type { GeneratedPage } from './openapi-pages.js';

const root = packageRoot();
const help = new Map(['', 'sign', 'serve', 'run', 'replay', 'matrix'].map((c) => [c, `Usage: spotcheck ${c}\n`]));

describe('renderPages over the real kit', () => {
  let pages: GeneratedPage[];
  beforeAll(async () => {
    pages = renderPages(root, await loadDocsData(root, help), checks);
  });
  const byFile = () => new Map(pages.map((p) => [p.file, p.markdown]));

  it('renders the home page, every guide and every reference page, each with a title', () => {
    const files = byFile();
    for (const f of ['index.md', ...GUIDES, ...REFERENCE_PAGES]) expect(files.has(f), f).toBe(true);
    for (const p of pages.filter((x) => x.file !== 'index.md')) expect(titleOf(p.markdown), p.file).toBeDefined();
  });

  it('fills every placeholder and links the home page to every guide and reference page', () => {
    for (const p of pages) expect(p.markdown, p.file).not.toMatch(/(?<!\$)\{\{/);
    const home = byFile().get('index.md') ?? '';
    for (const f of [...GUIDES, ...REFERENCE_PAGES]) expect(home).toContain(`](./${f})`);
  });

  it('uses every template of docs/guides/', () => {
    const templates = readdirSync(join(root, 'docs', 'guides')).filter((f) => f.endsWith('.md'));
    expect(templates.sort()).toEqual(['index.md', ...GUIDES].sort());
  });

  it('lists every check of the runner on the rule catalog page', () => {
    const page = byFile().get('rules.md') ?? '';
    for (const c of checks) expect(page).toContain(`\`${c.id}\``);
  });
});

describe('titleOf', () => {
  it('reads the front matter title', () => {
    expect(titleOf('---\ntitle: The time window\nchildren:\n  - ./a.md\n---\n# x')).toBe('The time window');
    expect(titleOf('# no front matter')).toBeUndefined();
  });
});

describe('importsOf', () => {
  it('finds static, re-export, side-effect and dynamic imports', () => {
    const js = `import { a } from './a.js';\nexport { b } from "../b.js";\nimport './c.js';\nconst d = await import('./d.js');\nimport type_x from 'node:crypto';`;
    expect(importsOf(js)).toEqual(['./a.js', '../b.js', './c.js', './d.js', 'node:crypto']);
  });
});

describe('copyPlayground', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'playground-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (base: string, files: Record<string, string>) => {
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, f)), { recursive: true });
      writeFileSync(join(base, f), text);
    }
  };

  it('copies the page module and its relative imports, paths kept, and embeds the vectors', () => {
    const compiled = join(dir, 'ok');
    write(compiled, {
      'docs/playground/page.js': "import { s } from './signer.js';",
      'docs/playground/signer.js': "import { t } from '../../src/signing/total-params.js';",
      'src/signing/total-params.js': 'export const t = 1;',
      'src/unused.js': 'export {}',
    });
    const out = join(dir, 'site-ok');
    expect(copyPlayground(compiled, out, { tests: [1] })).toEqual([
      'docs/playground/page.js',
      'docs/playground/signer.js',
      'src/signing/total-params.js',
    ]);
    expect(readFileSync(join(out, 'assets/playground/golden-vectors.js'), 'utf8')).toContain(
      'export default {"tests":[1]};',
    );
  });

  it('refuses a module a browser cannot load', () => {
    const compiled = join(dir, 'bad');
    write(compiled, { 'docs/playground/page.js': "import { createHmac } from 'node:crypto';" });
    expect(() => copyPlayground(compiled, join(dir, 'site-bad'), {})).toThrow(
      /imports node:crypto, which a browser cannot load/,
    );
  });
});

describe('verifySite', () => {
  it('reports external links to other hosts, pages missing from the navigation and rule anchors missing', () => {
    const site = mkdtempSync(join(tmpdir(), 'verify-'));
    const data = (name: string, v: unknown) =>
      `window.${name} = "${deflateSync(JSON.stringify(v)).toString('base64')}"`;
    const files: Record<string, string> = {
      'assets/navigation.js': data('navigationData', [{ text: 'Rule catalog', path: 'documents/Rule_catalog.html' }]),
      'assets/search.js': data('searchData', { rows: [], index: {} }),
      'index.html': '<a href="https://typedoc.org/">ok</a> <a href="http://rest-api.md">auto-linked file name</a>',
      'documents/Rule_catalog.html': '<h3 id="sig-a"><a id="SIG-A"></a>SIG-A</h3>',
    };
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(site, f)), { recursive: true });
      writeFileSync(join(site, f), text);
    }
    try {
      expect(verifySite(site, ['SIG-A', 'SIG-B'], ['Rule catalog', 'Quickstart'])).toEqual([
        'index.html: external link to http://rest-api.md (allowed hosts: typedoc.org)',
        'page "Quickstart" is missing from the navigation',
        'documents/Rule_catalog.html: no anchor #SIG-B',
      ]);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
