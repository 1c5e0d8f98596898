import { describe, expect, it } from 'vitest';
import { counts, cycles, importGraph, importSpecifiers, sourceFiles } from './graph.mjs';

describe('import graph (harness/tools/graph.mjs)', () => {
  it('reads static, type, re-export, side-effect and dynamic imports, relative ones only', () => {
    const text = [
      "import { a } from './a.js';",
      'import type {',
      '  B,',
      "} from '../b.js';",
      "export * from './c.js';",
      "import './d.js';",
      "const e = await import('./e.js');",
      "import { f } from 'undici';",
      " * import { g } from './in-a-comment-line.js' is a doc line, not an import",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js']);
  });

  it('finds a cycle, a self-import, and none in a chain', () => {
    const texts: Record<string, string> = {
      'x/a.ts': "import { b } from './b.js';",
      'x/b.ts': "import type { c } from './c.js';",
      'x/c.ts': "import { a } from './a.js';",
      'x/d.ts': "import { d } from './d.js';",
      'x/e.ts': "import { a } from './a.js';",
    };
    const files = Object.keys(texts);
    const graph = importGraph(files, (f) => texts[f] ?? '');
    expect(cycles(graph)).toEqual([['x/a.ts', 'x/b.ts', 'x/c.ts'], ['x/d.ts']]);
    expect(counts(files, graph, (f) => texts[f] ?? '').edges).toBe(5);
    const chain = importGraph(['x/a.ts', 'x/b.ts'], (f) => texts[f] ?? '');
    expect(cycles(chain)).toEqual([]);
  });

  it('src/, conformance/ and harness/ import each other without a cycle', () => {
    const files = sourceFiles(['src', 'conformance', 'harness']);
    expect(files).toContain('conformance/engine/requests.ts');
    const graph = importGraph(files);
    expect(graph.get('conformance/engine/transport.ts')?.has('conformance/engine/requests.ts')).toBe(true);
    expect(cycles(graph)).toEqual([]);
  });

  it('conformance/ keeps at most five files at its root, and no file imports from a folder above its own', () => {
    const files = sourceFiles(['conformance']);
    const root = files.filter((f) => f.split('/').length === 2);
    expect(root.length, root.join(', ')).toBeLessThanOrEqual(5);
    const graph = importGraph(files);
    const folder = (f: string) => f.slice(0, f.lastIndexOf('/') + 1);
    // an arrow up: the imported file's folder is a strict prefix of the importer's (conformance/engine/x -> conformance/y);
    // an entry point nothing imports (the Artillery processor, bundled on its own) stands above the folder it drives
    const imported = new Set([...graph].filter(([f]) => !f.includes('.test.')).flatMap(([, to]) => [...to]));
    const up = [...graph]
      .filter(([f]) => imported.has(f))
      .flatMap(([f, to]) =>
        [...to].filter((t) => folder(f) !== folder(t) && folder(f).startsWith(folder(t))).map((t) => `${f} -> ${t}`),
      );
    expect(imported.has('conformance/engine/transport.ts')).toBe(true);
    expect(up).toEqual([]);
    // the rule can fire: a file in a sub-folder importing one at the root
    const probe = importGraph(['conformance/a.ts', 'conformance/engine/b.ts'], (f) =>
      f.endsWith('b.ts') ? "import { a } from '../a.js';" : '',
    );
    expect([...(probe.get('conformance/engine/b.ts') ?? [])]).toEqual(['conformance/a.ts']);
  });
});
