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
});
