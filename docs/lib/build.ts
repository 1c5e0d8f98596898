/**
 * The docs site build (`npm run docs`): render the guide templates and the generated
 * pages into a temporary folder, run TypeDoc over the library with those pages as
 * project documents (one site, one navigation, one search), copy the playground in,
 * then check the result. Any warning, broken link or missing page fails the build.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { checks } from '../../conformance/checks/index.js';
import { DATE_HEADER_SLACK_MS } from '../../conformance/engine/clock.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { rules } from '../../src/rules.js';
import { DEFAULT_BODY_LIMIT } from '../../src/server/body.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { SIGNATURE_PARAM } from '../../src/core/signing/query.js';
import { DEFAULT_RECV_WINDOW, MAX_LEAD_MS } from '../../src/core/time.js';
import { MAX_BATCH_ORDERS } from '../../src/core/validation/batch.js';
import { MAX_CLIENT_ORDER_ID } from '../../src/core/validation/fields.js';
import { MAX_RECV_WINDOW } from '../../src/core/validation/time-params.js';
import { loadDoctorVectors, loadOrderVectors, loadSigningVectors, loadTimeWindowVectors } from '../../vectors/load.js';
import { renderDecisionsPage } from './decisions-page.js';
import { renderDomainPage, type DomainData } from './domain-page.js';
import { renderMutationPage, type EquivalentList, type MutationScore } from './mutation-page.js';
import { renderLayersPage, type LayersData } from './layers-page.js';
import { architectureTree, renderArchitecturePage } from './architecture-page.js';
import { headingSlug } from './markdown.js';
import { READINGS } from '../../harness/readings/readings.js';
import { CORRECT_VENUES } from '../../harness/readings/venues.js';
import { decisionRows, makeHelpers, moduleName, type DocsData } from './helpers.js';
import { checkLinks, externalLinks, navigationEntries } from './link-check.js';
import { renderOpenApi, type GeneratedPage, type OpenApiDocument } from './openapi-pages.js';
import { renderRulesPage, ruleLink, RULES_TITLE, type CheckSummary } from './rules-page.js';
import { coverageMatrix } from '../../conformance/judgement/coverage.js';
import { renderTemplate } from './template.js';
import { checkMatrix } from './clients-page.js';
import { EXAMPLE_DIR, EXAMPLE_MATRIX, EXAMPLE_REFERENCE, writeExampleReports } from './example-reports.js';

/** The guide templates of `docs/guides/`, in navigation order; `index.md` is the home page. */
export const GUIDES = [
  'quickstart.md',
  'signing.md',
  'playground.md',
  'signature-doctor.md',
  'client-libraries.md',
  'grade-client.md',
  'time-window.md',
  'batch-orders.md',
  'conformance.md',
  'reports.md',
  'library.md',
] as const;

/** Generated pages after the guides, in navigation order (`http-api.md` holds its own children). */
export const REFERENCE_PAGES = [
  'http-api.md',
  'rules.md',
  'decisions.md',
  'domain.md',
  'layers.md',
  'mutation.md',
  'architecture.md',
] as const;

/** The `--help` text of every command the CLI's top-level help lists, by command (`''`: the top-level help). */
export function cliHelpTexts(root: string): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  const binRel = pkg.bin?.spotcheck;
  if (binRel === undefined) throw new Error('package.json has no bin.spotcheck');
  const bin = join(root, binRel);
  if (!existsSync(bin)) throw new Error(`${binRel} does not exist: run \`npm run build\` first (npm run docs does)`);
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 30_000,
    });
  const top = run(['--help']);
  if (top.status !== 0) throw new Error(`spotcheck --help exited with ${String(top.status)}: ${top.stderr}`);
  const out = new Map<string, string>([['', top.stdout]]);
  const listed = /Commands:\n((?: {2}\S+.*\n)+)/.exec(top.stdout)?.[1] ?? '';
  for (const m of listed.matchAll(/^ {2}(\S+)/gm)) {
    const cmd = m[1] ?? '';
    const r = run([cmd, '--help']);
    if (r.status === 0) out.set(cmd, r.stdout);
  }
  return out;
}

/** Everything the pages are made from, read from the kit (vectors through their checking loader); `cliHelp` defaults to the built CLI's own help texts. */
export async function loadDocsData(root: string, cliHelp?: ReadonlyMap<string, string>): Promise<DocsData> {
  return {
    signing: loadSigningVectors(),
    timeWindow: loadTimeWindowVectors(),
    orders: loadOrderVectors(),
    doctor: loadDoctorVectors(),
    clients: checkMatrix(JSON.parse(readFileSync(join(root, 'docs', 'data', 'client-libraries.json'), 'utf8'))),
    rules: rules(),
    decisions: decisionRows(readFileSync(join(root, 'spec', 'decisions.md'), 'utf8')),
    openapi: (await SwaggerParser.dereference(join(root, 'spec', 'openapi.yaml'))) as unknown as OpenApiDocument,
    constants: {
      API_KEY_HEADER,
      SIGNATURE_PARAM,
      DEFAULT_RECV_WINDOW,
      MAX_LEAD_MS,
      MAX_RECV_WINDOW,
      MAX_BATCH_ORDERS,
      MAX_CLIENT_ORDER_ID,
      DEFAULT_BODY_LIMIT,
      DEMO_API_KEY,
      DEMO_SECRET,
      DATE_HEADER_SLACK_MS,
    },
    cliHelp: cliHelp ?? cliHelpTexts(root),
    apiModule: moduleName(readFileSync(join(root, 'src', 'index.ts'), 'utf8')),
  };
}

/** Every Markdown page of the site: the home page, the guides, the rule catalog, the decisions record, the HTTP API pages. */
export function renderPages(root: string, data: DocsData, checkList: readonly CheckSummary[]): GeneratedPage[] {
  const helpers = makeHelpers(data);
  const guide = (file: string): GeneratedPage => {
    const path = join(root, 'docs', 'guides', file);
    return { file, markdown: renderTemplate(relative(root, path), readFileSync(path, 'utf8'), helpers) };
  };
  const linkRuleId = (check: string): string => {
    const id = check.split('.')[0] ?? check;
    if (!data.rules.has(id)) throw new Error(`spec/layers.json cites a check of unknown rule ${check}`);
    return id;
  };
  const linkRule = (id: string) => {
    if (!data.rules.has(id)) throw new Error(`spec/openapi.yaml cites unknown rule ${id}`);
    return ruleLink(id);
  };
  return [
    guide('index.md'),
    ...GUIDES.map(guide),
    ...renderOpenApi(data.openapi, linkRule),
    { file: 'rules.md', markdown: renderRulesPage(data.rules, checkList, coverageMatrix(checkList)) },
    { file: 'decisions.md', markdown: renderDecisionsPage(readFileSync(join(root, 'spec', 'decisions.md'), 'utf8')) },
    {
      file: 'domain.md',
      markdown: renderDomainPage(
        JSON.parse(readFileSync(join(root, 'spec', 'domain.json'), 'utf8')) as DomainData,
        linkRule,
      ),
    },
    {
      file: 'layers.md',
      markdown: renderLayersPage(
        JSON.parse(readFileSync(join(root, 'spec', 'layers.json'), 'utf8')) as LayersData,
        // a check ID (RULE-ID.variant) links to its rule's entry
        (check) => `[\`${check}\`](./rules.md#${headingSlug(linkRuleId(check))})`,
      ),
    },
    {
      file: 'mutation.md',
      markdown: renderMutationPage(
        JSON.parse(readFileSync(join(root, 'harness', 'mutation', 'score.json'), 'utf8')) as MutationScore,
        JSON.parse(readFileSync(join(root, 'harness', 'mutation', 'equivalent.json'), 'utf8')) as EquivalentList,
        {
          readings: READINGS,
          decisions: decisionRows(readFileSync(join(root, 'spec', 'decisions.md'), 'utf8')).size,
          venues: CORRECT_VENUES,
        },
      ),
    },
    {
      file: 'architecture.md',
      markdown: renderArchitecturePage(architectureTree(sourceEdges(root), (f) => readFileSync(join(root, f), 'utf8'))),
    },
  ];
}

/** The import graph of `conformance/` as harness/tools/graph.mjs draws it (`--edges`). */
export function sourceEdges(root: string): Record<string, string[]> {
  const out = execFileSync(
    process.execPath,
    [join(root, 'harness', 'tools', 'graph.mjs'), 'conformance', '--json', '--edges'],
    {
      encoding: 'utf8',
    },
  );
  return (JSON.parse(out) as { edges: Record<string, string[]> }).edges;
}

/** Options `runTypedoc` sets after reading the configuration (home page, documents, output). */
export type TypedocOverrides = Readonly<Record<string, unknown>>;

/**
 * Run TypeDoc with `config` (default `docs/typedoc.json`), the pages of `genDir` as
 * project documents (`index.md` as the home page), into `outDir`. Throws on any warning
 * or error: an undocumented export, a link TypeDoc cannot resolve, a missing page.
 */
export async function runTypedoc(
  root: string,
  genDir: string,
  outDir: string,
  overrides: TypedocOverrides = {},
  config: string = join(root, 'docs', 'typedoc.json'),
): Promise<void> {
  // loaded here, not at the top: the page renderers and their tests never load TypeDoc (and TypeScript)
  const { Application, PackageJsonReader, TSConfigReader, TypeDocReader } = await import('typedoc');
  const app = await Application.bootstrapWithPlugins({ options: config }, [
    new TypeDocReader(),
    new PackageJsonReader(),
    new TSConfigReader(),
  ]);
  const settings: TypedocOverrides = {
    readme: join(genDir, 'index.md'),
    projectDocuments: [...GUIDES, ...REFERENCE_PAGES].map((f) => join(genDir, f)),
    out: outDir,
    ...overrides,
  };
  for (const [name, value] of Object.entries(settings)) app.options.setValue(name as never, value as never, root);
  const fail = (stage: string) =>
    new Error(
      `typedoc ${stage}: ${app.logger.errorCount} errors, ${app.logger.warningCount} warnings (see above); warnings fail the docs build`,
    );
  if (app.logger.hasErrors() || app.logger.hasWarnings()) throw fail('options');
  const project = await app.convert();
  if (project === undefined || app.logger.hasErrors() || app.logger.hasWarnings()) throw fail('conversion');
  app.validate(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings() || app.logger.validationWarningCount > 0)
    throw fail('validation');
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) throw fail('rendering');
}

/** Relative module specifiers a compiled ES module imports (static, re-export and dynamic). */
export function importsOf(js: string): string[] {
  const out: string[] = [];
  for (const m of js.matchAll(
    /(?:^|[;\s])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    out.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return out;
}

/**
 * Copy the playground module and everything it imports from the compiled tree into
 * `assets/playground/` of the site (paths kept, so relative imports still resolve), and
 * write the golden vectors next to them. Fails on any import a browser cannot load
 * (a bare specifier such as `node:crypto`).
 */
export function copyPlayground(compiledRoot: string, outDir: string, golden: unknown): string[] {
  const dest = join(outDir, 'assets', 'playground');
  const copied: string[] = [];
  const queue = [join(compiledRoot, 'docs', 'playground', 'page.js')];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file))
      throw new Error(`playground module ${relative(compiledRoot, file)} is missing from ${compiledRoot}`);
    const rel = relative(compiledRoot, file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('./') && !spec.startsWith('../'))
        throw new Error(`playground module ${rel} imports ${spec}, which a browser cannot load`);
      queue.push(resolve(dirname(file), spec));
    }
    mkdirSync(dirname(join(dest, rel)), { recursive: true });
    copyFileSync(file, join(dest, rel));
    copied.push(rel);
  }
  writeFileSync(
    join(dest, 'golden-vectors.js'),
    `// The golden signing vectors (vectors/signing.json), embedded when the site was built.\nexport default ${JSON.stringify(golden)};\n`,
  );
  return copied.sort();
}

/** Hosts the site may link to (TypeDoc's footer); anything else is a mistake such as an auto-linked file name. */
export const EXTERNAL_HOSTS: readonly string[] = ['typedoc.org'];

/** Checks of the built site; returns the problems (none: the site is good). */
export function verifySite(outDir: string, ruleIds: Iterable<string>, documentTitles: readonly string[]): string[] {
  const problems = checkLinks(outDir).map((b) => `${b.page}: ${b.problem}: ${b.link}`);
  for (const { page, link } of externalLinks(outDir)) {
    const host = URL.canParse(link, 'https://x/') ? new URL(link, 'https://x/').hostname : link;
    if (!EXTERNAL_HOSTS.includes(host))
      problems.push(`${page}: external link to ${link} (allowed hosts: ${EXTERNAL_HOSTS.join(', ')})`);
  }
  const nav = navigationEntries(outDir);
  const pageOf = (title: string) => nav.find((e) => e.text === title)?.path;
  for (const title of documentTitles)
    if (pageOf(title) === undefined) problems.push(`page "${title}" is missing from the navigation`);
  const rulesPage = pageOf(RULES_TITLE);
  if (rulesPage !== undefined) {
    const html = readFileSync(join(outDir, rulesPage), 'utf8');
    for (const id of ruleIds) if (!html.includes(`id="${id}"`)) problems.push(`${rulesPage}: no anchor #${id}`);
  }
  return problems;
}

/** The title of a generated page (its front matter `title:`), or undefined for the home page. */
export function titleOf(markdown: string): string | undefined {
  return /^---\n(?:.*\n)*?title: (.+)\n(?:.*\n)*?---/.exec(markdown)?.[1]?.trim();
}

/** Build the whole site into `outDir`; returns a one-line summary. */
export async function buildSite(root: string, outDir: string, compiledRoot: string): Promise<string> {
  const started = Date.now();
  const data = await loadDocsData(root);
  const pages = renderPages(root, data, checks);
  const genDir = mkdtempSync(join(tmpdir(), 'spotcheck-docs-'));
  let ok = false;
  try {
    for (const p of pages) writeFileSync(join(genDir, p.file), p.markdown);
    // the worked example: the harness's clean and faulty servers in a matrix (exit 1: the faulty ones fail, as they must),
    // written beside the pages so the guide's links to it resolve and TypeDoc publishes it under media/
    const example = await writeExampleReports(genDir);
    if (
      example.exitCode !== 1 ||
      !existsSync(join(genDir, EXAMPLE_MATRIX)) ||
      !existsSync(join(genDir, EXAMPLE_REFERENCE))
    ) {
      throw new Error(
        `the example matrix did not come out as expected (exit ${example.exitCode}, expected 1):\n${example.log}`,
      );
    }
    await runTypedoc(root, genDir, outDir);
    const copied = copyPlayground(compiledRoot, outDir, data.signing);
    // TypeDoc copied the two pages the guide links to into media/; their sibling reports go beside them
    const media = join(outDir, 'media');
    for (const f of readdirSync(join(genDir, EXAMPLE_DIR))) copyFileSync(join(genDir, EXAMPLE_DIR, f), join(media, f));
    const titles = pages.map((p) => titleOf(p.markdown)).filter((t): t is string => t !== undefined);
    const problems = verifySite(outDir, data.rules.keys(), titles);
    if (problems.length > 0)
      throw new Error(`the built site has ${problems.length} problems:\n  ${problems.join('\n  ')}`);
    ok = true;
    const html = readdirSync(outDir, { recursive: true }).filter((f) => String(f).endsWith('.html')).length;
    return `docs: ${html} pages (${pages.length} generated from docs/ and spec/, ${copied.length} playground modules, the example matrix in media/) in ${relative(root, outDir)}/, links checked, ${((Date.now() - started) / 1000).toFixed(1)} s`;
  } finally {
    if (ok) rmSync(genDir, { recursive: true, force: true });
    else process.stderr.write(`docs: generated Markdown kept in ${genDir}\n`);
  }
}
