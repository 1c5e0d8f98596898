/**
 * The architecture page, drawn from the source tree at build time: the folders of
 * `conformance/` in the order a run crosses them, every file in each with the first sentence of
 * its own doc comment, and the import arrows between folders (`harness/tools/graph.mjs --edges`).
 * A folder this page does not describe fails the build, so the page cannot fall behind the tree.
 */

/** The page title. */
export const ARCHITECTURE_TITLE = 'How the conformance kit is built';

/** The folders of `conformance/`, in the order a run crosses them, each with what it is. */
export const FOLDER_ROLES: ReadonlyArray<readonly [name: string, role: string]> = [
  [
    'cli',
    'the commands a user types: `spotcheck run`, `replay` and `matrix` parse their arguments, start a run and write its reports',
  ],
  [
    'target',
    "the target description: a server's paths, API-key header, limits and business rules, read, checked against its schema and resolved",
  ],
  [
    'engine',
    "what sends: the run (`runConformance`), each check's session, the scheduler, the pool and the gate that order requests, the order budget, the transport (undici, liveness), traffic, the clocks, the one request builder and discovery",
  ],
  [
    'checks',
    'the catalogue: one file per rule family; each check sends its probes through its session and states what each answer must be',
  ],
  [
    'judgement',
    "what decides: `decide()` alone gives a check its status, from its exchanges' verdicts, the effects of refused calls, the run-wide invariants, exhaustion and coverage; the input forms and the check and report types",
  ],
  [
    'report',
    'what shows: the run report built from the decisions, and its console, JSON, NDJSON, JUnit, HTML, matrix, baseline, curl and replay forms',
  ],
  ['load', '`spotcheck load`: the load engine, its verdict under load, the Artillery project and processor'],
  ['grade', '`spotcheck grade`: a client graded against the rules a server enforces, its scenarios, front and reports'],
];

/** One source file: its path under `conformance/`, lines, and the first sentence of its doc comment. */
export interface ArchitectureFile {
  file: string;
  lines: number;
  summary: string;
}

/** The tree as the page draws it. */
export interface ArchitectureTree {
  /** Source files at the root of `conformance/` (the package's entry points only). */
  rootFiles: ArchitectureFile[];
  folders: Array<{ name: string; role: string; files: ArchitectureFile[] }>;
  /** Import arrows between folders (`from` imports `to`), counted in file-to-file imports. */
  arrows: Array<{ from: string; to: string; count: number }>;
}

/** The first sentence of a source file's leading doc comment ('' without one). */
export function docSummary(text: string): string {
  const m = /^(?:#![^\n]*\n)?\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (m?.[1] === undefined) return '';
  const prose = m[1]
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .filter((l) => l !== '')
    .join(' ');
  const end = /[.:;](\s|$)/.exec(prose);
  const first = end === null ? prose : prose.slice(0, end.index);
  return first.length > 220 ? `${first.slice(0, 219).replace(/\s+\S*$/, '')}…` : first;
}

/**
 * The tree of `conformance/` from the import graph (`edges`: every source file, tests included,
 * and the files it imports) and a reader of file texts. Tests are left out of the page. Throws on
 * a folder {@link FOLDER_ROLES} does not describe.
 */
export function architectureTree(
  edges: Readonly<Record<string, readonly string[]>>,
  read: (file: string) => string,
): ArchitectureTree {
  const isSource = (f: string) => f.startsWith('conformance/') && !/\.test\.[mc]?ts$/.test(f);
  const files = Object.keys(edges).filter(isSource).sort();
  const folderOf = (f: string): string | undefined => {
    const parts = f.split('/');
    return parts.length > 2 ? parts[1] : undefined;
  };
  const describe = (f: string): ArchitectureFile => {
    const text = read(f);
    return {
      file: f.slice('conformance/'.length),
      lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
      summary: docSummary(text),
    };
  };
  const known = new Set(FOLDER_ROLES.map(([n]) => n));
  const unknown = [...new Set(files.map(folderOf).filter((d): d is string => d !== undefined && !known.has(d)))];
  if (unknown.length > 0)
    throw new Error(
      `docs/lib/architecture-page.ts: FOLDER_ROLES does not describe conformance/${unknown.join('/, conformance/')}/`,
    );
  const counts = new Map<string, number>();
  for (const f of files)
    for (const t of edges[f] ?? []) {
      const a = folderOf(f) ?? '(root)';
      const b = isSource(t) ? (folderOf(t) ?? '(root)') : undefined;
      if (b === undefined || a === b) continue;
      counts.set(`${a} ${b}`, (counts.get(`${a} ${b}`) ?? 0) + 1);
    }
  return {
    rootFiles: files.filter((f) => folderOf(f) === undefined).map(describe),
    folders: FOLDER_ROLES.map(([name, role]) => ({
      name,
      role,
      files: files.filter((f) => folderOf(f) === name).map(describe),
    })).filter((d) => d.files.length > 0),
    arrows: [...counts].map(([k, count]) => {
      const [from = '', to = ''] = k.split(' ');
      return { from, to, count };
    }),
  };
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The page's Markdown. */
export function renderArchitecturePage(tree: ArchitectureTree): string {
  const names = tree.folders.map((d) => d.name);
  const count = (from: string, to: string) => tree.arrows.find((a) => a.from === from && a.to === to)?.count;
  const lines = (fs: readonly ArchitectureFile[]) => fs.reduce((n, f) => n + f.lines, 0);
  const out = [
    '---',
    `title: ${ARCHITECTURE_TITLE}`,
    '---',
    `# ${ARCHITECTURE_TITLE}`,
    '',
    'A conformance run is a pipeline: the engine sends probes and records what came back as evidence, ' +
      "the checks say what each answer must be, one decision says what the evidence means, and the report side shows it. `conformance/` is laid out the same way. This page is drawn from the source tree when the site is built: every folder, every file in it with the first sentence of the file's own doc comment, and the import arrows between folders. The pure wire contract, the signer and the reference server are the library under `src/`, which `conformance/` imports and which never imports it.",
    '',
    tree.rootFiles.length === 0
      ? 'No source file stands at the root of `conformance/`: every module sits in the folder of its part, and no file imports from a folder above its own.'
      : `At the root of \`conformance/\`, the package's entry points only: ${tree.rootFiles.map((f) => `\`${f.file}\``).join(', ')}.`,
    '',
    '## The folders',
    '',
    '| Folder | Files | Lines | What it is |',
    '|---|---|---|---|',
    ...tree.folders.map(
      (d) => `| [\`${d.name}/\`](#${d.name}) | ${d.files.length} | ${lines(d.files)} | ${cell(d.role)} |`,
    ),
    '',
    '## Who imports whom',
    '',
    'Each row is a folder and each number is how many imports its files make into the folder of the column (file to file; types included).',
    '',
    `| imports → | ${names.map((n) => `\`${n}/\``).join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...names.map(
      (from) =>
        `| \`${from}/\` | ${names.map((to) => (from === to ? '·' : String(count(from, to) ?? ''))).join(' | ')} |`,
    ),
    '',
  ];
  for (const d of tree.folders) {
    out.push(
      `## ${d.name}`,
      '',
      `\`conformance/${d.name}/\`: ${d.role}.`,
      '',
      '| File | Lines | What it is |',
      '|---|---|---|',
    );
    for (const f of d.files) out.push(`| \`${f.file}\` | ${f.lines} | ${cell(f.summary)} |`);
    out.push('');
  }
  return out.join('\n');
}
