import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { sourceFiles } from '../../harness/tools/graph.mjs';
import {
  ARCHITECTURE_TITLE,
  architectureTree,
  docSummary,
  FOLDER_ROLES,
  renderArchitecturePage,
} from './architecture-page.js';
import { sourceEdges } from './build.js';

const read = (f: string) => readFileSync(kitPath(f), 'utf8');

describe('the architecture page', () => {
  it('is drawn from the tree: every folder and source file of conformance/, each with its doc sentence, and the arrows between folders', () => {
    const edges = sourceEdges(kitPath());
    const tree = architectureTree(edges, read);
    const page = renderArchitecturePage(tree);
    expect(page.startsWith(`---\ntitle: ${ARCHITECTURE_TITLE}\n---\n`)).toBe(true);
    const sources = sourceFiles(['conformance']).filter((f) => !/\.test\.ts$/.test(f) && f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(60);
    for (const f of sources) {
      const rel = f.slice('conformance/'.length);
      expect(page, rel).toContain(`| \`${rel}\` |`);
      expect(docSummary(read(f)), `${f} has no leading doc comment`).not.toBe('');
    }
    for (const [name] of FOLDER_ROLES) expect(page).toContain(`## ${name}\n`);
    // an arrow the tree has is a number in the table: the run imports the decision
    const runnerToDecide = edges['conformance/engine/runner.ts']?.includes('conformance/judgement/decide.ts');
    expect(runnerToDecide).toBe(true);
    const engineRow = page.split('\n').find((l) => l.startsWith('| `engine/` |')) ?? '';
    const cols =
      page
        .split('\n')
        .find((l) => l.startsWith('| imports → |'))
        ?.split('|')
        .map((c) => c.trim()) ?? [];
    const judgementCount = engineRow.split('|').map((c) => c.trim())[cols.indexOf('`judgement/`')];
    expect(Number(judgementCount)).toBeGreaterThan(0);
    expect(Number(judgementCount)).toBe(tree.arrows.find((a) => a.from === 'engine' && a.to === 'judgement')?.count);
  });

  it('fails the build for a folder it does not describe, and says which', () => {
    const edges = { 'conformance/engine/a.ts': [], 'conformance/mystery/b.ts': ['conformance/engine/a.ts'] };
    expect(() => architectureTree(edges, () => '/** A. */\n')).toThrow('conformance/mystery/');
  });

  it('counts arrows between folders only, files at the root apart, and takes the first sentence of a doc comment', () => {
    const edges = {
      'conformance/engine/a.ts': ['conformance/judgement/b.ts', 'conformance/engine/c.ts'],
      'conformance/engine/c.ts': ['conformance/judgement/b.ts', 'src/x.ts'],
      'conformance/judgement/b.ts': [],
      'conformance/engine/c.test.ts': ['conformance/report/z.ts'],
      'conformance/index.ts': ['conformance/engine/a.ts'],
    };
    const tree = architectureTree(edges, (f) =>
      f.endsWith('b.ts') ? '#!/usr/bin/env node\n/**\n * Decides. Then more.\n */\n' : 'x\n',
    );
    expect(tree.arrows).toEqual([
      { from: 'engine', to: 'judgement', count: 2 },
      { from: '(root)', to: 'engine', count: 1 },
    ]);
    expect(tree.rootFiles.map((f) => f.file)).toEqual(['index.ts']);
    expect(tree.folders.find((d) => d.name === 'judgement')?.files[0]?.summary).toBe('Decides');
    expect(renderArchitecturePage(tree)).toContain("the package's entry points only: `index.ts`");
  });
});
