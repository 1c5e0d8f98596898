import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, checkLinks, externalLinks, linksOf } from './link-check.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function site(files: Record<string, string>, nav: unknown = [], rows: unknown = []): string {
  const root = mkdtempSync(join(tmpdir(), 'linkcheck-'));
  dirs.push(root);
  const data = (name: string, v: unknown) => `window.${name} = "${deflateSync(JSON.stringify(v)).toString('base64')}"`;
  const all = {
    'assets/navigation.js': data('navigationData', nav),
    'assets/search.js': data('searchData', { rows, index: {} }),
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('checkLinks', () => {
  it('accepts a site whose links, anchors and navigation paths all resolve', () => {
    const root = site(
      {
        'index.html':
          '<a href="documents/a.html#SIG-X">x</a> <a href="https://example.org/">ext</a> <a href="#">top</a> <img src="assets/i.svg#ic">',
        'documents/a.html':
          '<h3 id="sig-x"><a id="SIG-X"></a></h3><a href="../index.html">home</a><a href="#sig-x">self</a>',
        'assets/i.svg': '<svg><g id="ic"></g></svg>',
      },
      [{ text: 'A', path: 'documents/a.html', children: [] }],
      [{ name: 'A', url: 'documents/a.html#sig-x' }],
    );
    expect(checkLinks(root)).toEqual([]);
    expect(externalLinks(root)).toEqual([{ page: 'index.html', link: 'https://example.org/' }]);
  });

  it('reports a missing page, a missing anchor, a link leaving the site and a dangling navigation path', () => {
    const root = site(
      {
        'index.html':
          '<a href="documents/gone.html">a</a><a href="documents/a.html#NOPE">b</a><a href="../../etc/passwd">c</a>',
        'documents/a.html': '<p id="here">x</p><a href="#there">self</a>',
      },
      [{ text: 'B', path: 'documents/b.html' }],
    );
    expect(checkLinks(root)).toEqual(
      expect.arrayContaining([
        { page: 'index.html', link: 'documents/gone.html', problem: 'missing file' },
        { page: 'index.html', link: 'documents/a.html#NOPE', problem: 'missing anchor' },
        { page: 'index.html', link: '../../etc/passwd', problem: 'outside the site' },
        { page: join('documents', 'a.html'), link: '#there', problem: 'missing anchor' },
        { page: 'assets/navigation.js', link: 'documents/b.html', problem: 'missing file' },
      ]),
    );
    expect(checkLinks(root)).toHaveLength(5);
  });
});

describe('linksOf / anchorsOf', () => {
  it('reads href and src in both quote styles and decodes entities', () => {
    expect(linksOf(`<a href="a.html?x=1&amp;y=2">x</a><script src='s.js'></script>`)).toEqual([
      'a.html?x=1&y=2',
      's.js',
    ]);
    expect([...anchorsOf('<h2 id="a"></h2><a name="b"></a>')]).toEqual(['a', 'b']);
  });
});
