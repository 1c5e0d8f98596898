/**
 * The README's layout section is the tree: every folder of the repository (two levels
 * deep) is in it, under its parent, and it names no folder that does not exist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './graph.mjs';

const IGNORED = new Set(['node_modules', 'dist', 'site', 'artifacts', 'reports', '.git', 'testdata']);

/** Folders holding at least one file, as `a/` and `a/b/`. */
function folders(dir = '', depth = 0): string[] {
  const entries = readdirSync(join(ROOT, dir), { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || IGNORED.has(e.name) || (e.name.startsWith('.') && e.name !== '.ci')) continue;
    const rel = `${dir}${e.name}/`;
    const hasFile = readdirSync(join(ROOT, rel), { recursive: true, withFileTypes: true }).some((x) => x.isFile());
    if (!hasFile) continue;
    out.push(rel);
    if (depth === 0) out.push(...folders(rel, 1));
  }
  return out;
}

/** The README's Layout block: top-level entries and, under each, the names of its lines. */
function layout(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Layout\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const sections = new Map<string, string>();
  let current = '';
  for (const line of block.split('\n')) {
    const top = /^(\S+?\/)/.exec(line);
    if (top?.[1] !== undefined) {
      current = top[1];
      sections.set(current, line);
    } else if (current !== '') sections.set(current, `${sections.get(current) ?? ''}\n${line}`);
  }
  return sections;
}

describe('README layout', () => {
  it('lists every folder under its parent', () => {
    const tree = layout();
    const dirs = folders();
    expect(dirs).toContain('harness/tools/');
    expect(tree.size).toBeGreaterThan(5);
    const missing = dirs.filter((d) => {
      const [top, sub] = d.split('/');
      const section = tree.get(`${top}/`);
      if (section === undefined) return true;
      return (
        sub !== '' &&
        sub !== undefined &&
        !new RegExp(`(^|[\\s(,])${sub.replace(/[.]/g, '\\.')}/`).test(
          section.split('\n').slice(1).join('\n') + section.slice(section.indexOf(' ')),
        )
      );
    });
    expect(missing).toEqual([]);
  });

  it('names every npm script that runs a harness/load or harness/bench file where that folder is listed', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const harness = layout().get('harness/') ?? '';
    const missing = Object.entries(scripts)
      .filter(([, cmd]) => /harness\/(load|bench)\//.test(cmd))
      .map(([name]) => name)
      .filter((name) => !harness.replace(/\n\s+/g, ' ').includes(`npm run ${name}`));
    expect(missing).toEqual([]);
  });

  it('names no top-level folder that does not exist', () => {
    const dirs = new Set(folders().filter((d) => d.split('/').length === 2));
    expect([...layout().keys()].filter((k) => !dirs.has(k))).toEqual([]);
  });
});
