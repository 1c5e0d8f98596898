#!/usr/bin/env node
/**
 * The source tree as a graph: files, lines, relative import edges and import cycles of the
 * folders named (default src/ and conformance/). `node harness/tools/graph.mjs [dir...] [--json]`
 * prints the counts per folder and every cycle (`--json`; `--edges` adds each file's imports); the
 * structure test asserts there is none.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is harness/tools/graph.mjs). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SOURCE = /\.(ts|mts|mjs|js)$/;
const IMPORT =
  /^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Source files (no .d.ts) under each folder, as root-relative paths with `/`. */
export function sourceFiles(dirs, root = ROOT) {
  return dirs
    .flatMap((dir) =>
      existsSync(join(root, dir))
        ? readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
            .filter((e) => e.isFile() && SOURCE.test(e.name) && !/\.d\.m?ts$/.test(e.name))
            .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
        : [],
    )
    .sort();
}

/** The relative import specifiers of a source text (static, re-export, side-effect, dynamic). */
export function importSpecifiers(text) {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]).filter((s) => s.startsWith('.'));
}

/** A specifier of `from` resolved to a file of `files` (`.js` written for a `.ts` source), or undefined. */
function resolveSpec(from, spec, files) {
  const base = relative('.', join(dirname(from), spec))
    .split(sep)
    .join('/');
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`];
  return candidates.find((c) => files.has(c));
}

/** Import graph of the files: file -> the set of files it imports (within the set). */
export function importGraph(files, read = (f) => readFileSync(join(ROOT, f), 'utf8')) {
  const set = new Set(files);
  const graph = new Map();
  for (const f of files) {
    const to = new Set();
    for (const spec of importSpecifiers(read(f))) {
      const target = resolveSpec(f, spec, set);
      if (target !== undefined) to.add(target);
    }
    graph.set(f, to);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Counts of one set of files: files, lines, import edges (product = not a test). */
export function counts(files, graph, read = (f) => readFileSync(join(ROOT, f), 'utf8')) {
  const lines = (f) => read(f).split('\n').length - (read(f).endsWith('\n') ? 1 : 0);
  const tests = files.filter((f) => /\.test\.[mc]?[tj]s$/.test(f));
  return {
    files: files.length,
    testFiles: tests.length,
    lines: files.reduce((n, f) => n + lines(f), 0),
    testLines: tests.reduce((n, f) => n + lines(f), 0),
    edges: files.reduce((n, f) => n + (graph.get(f)?.size ?? 0), 0),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const dirs = args.filter((a) => !a.startsWith('--'));
  const folders = dirs.length > 0 ? dirs : ['src', 'conformance'];
  const files = sourceFiles(folders);
  const graph = importGraph(files);
  const found = cycles(graph);
  const perFolder = Object.fromEntries(
    folders.map((d) => [
      d,
      counts(
        files.filter((f) => f.startsWith(`${d}/`)),
        graph,
      ),
    ]),
  );
  const all = counts(files, graph);
  // --edges: every file's imports too (the docs' architecture page reads them)
  const edges = args.includes('--edges')
    ? Object.fromEntries([...graph].map(([f, to]) => [f, [...to].sort()]))
    : undefined;
  if (json)
    process.stdout.write(
      `${JSON.stringify({ folders: perFolder, total: all, cycles: found, ...(edges === undefined ? {} : { edges }) }, null, 2)}\n`,
    );
  else {
    for (const [d, c] of [...Object.entries(perFolder), ['total', all]])
      process.stdout.write(
        `${d.padEnd(12)} files ${String(c.files).padStart(4)} (tests ${c.testFiles})  lines ${String(c.lines).padStart(6)} (tests ${c.testLines})  import edges ${c.edges}\n`,
      );
    process.stdout.write(`cycles: ${found.length}\n${found.map((c) => `  ${c.join(' <-> ')}\n`).join('')}`);
  }
}
