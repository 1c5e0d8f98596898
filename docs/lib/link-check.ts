/**
 * The built site's internal link check: every `href`/`src` of every HTML page, and
 * every path of TypeDoc's navigation and search data, must name a file of the site,
 * and every `#fragment` an `id` (or `name`) inside that file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** One broken link: the page it is on, the link as written and what is wrong. */
export interface BrokenLink {
  /** Page (or data file) holding the link, relative to the site root. */
  page: string;
  /** The link as written. */
  link: string;
  /** `missing file`, `missing anchor` or `outside the site`. */
  problem: 'missing file' | 'missing anchor' | 'outside the site';
}

/** Every file below `dir`, as absolute paths. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };

function unescapeHtml(s: string): string {
  return s.replace(/&(amp|quot|#39|lt|gt);/g, (e) => ENTITIES[e] ?? e);
}

/** The `href` and `src` attribute values of an HTML (or SVG) text, entities decoded. */
export function linksOf(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    out.push(unescapeHtml(m[1] ?? m[2] ?? ''));
  }
  return out;
}

/** The fragment targets of an HTML (or SVG) text: every `id` and every `name` attribute. */
export function anchorsOf(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi))
    out.add(unescapeHtml(m[1] ?? m[2] ?? ''));
  return out;
}

/** True for a link that leaves the site (scheme or protocol-relative) or points nowhere. */
function isExternal(link: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//');
}

/** The JSON TypeDoc embeds (base64 of deflated JSON) in a data script such as `assets/navigation.js`. */
export function decodeTypedocData(siteDir: string, file: string): unknown {
  const text = readFileSync(join(siteDir, file), 'utf8');
  const m = /"([A-Za-z0-9+/=]+)"/.exec(text);
  if (m?.[1] === undefined) throw new Error(`${file}: no embedded data found`);
  return JSON.parse(inflateSync(Buffer.from(m[1], 'base64')).toString('utf8'));
}

/** One entry of TypeDoc's navigation tree, flattened: its text and page path. */
export interface NavEntry {
  /** The text shown in the navigation. */
  text: string;
  /** The page, relative to the site root. */
  path: string;
}

/** Every entry of `assets/navigation.js`, depth first. */
export function navigationEntries(siteDir: string): NavEntry[] {
  const out: NavEntry[] = [];
  const walk = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const n of nodes as Array<{ text?: unknown; path?: unknown; children?: unknown }>) {
      if (typeof n.text === 'string' && typeof n.path === 'string') out.push({ text: n.text, path: n.path });
      walk(n.children);
    }
  };
  walk(decodeTypedocData(siteDir, 'assets/navigation.js'));
  return out;
}

/** The page paths of TypeDoc's navigation and search data, relative to the site root. */
export function typedocDataPaths(siteDir: string): Array<{ file: string; path: string }> {
  const nav = navigationEntries(siteDir).map((e) => ({ file: 'assets/navigation.js', path: e.path }));
  const rows = (decodeTypedocData(siteDir, 'assets/search.js') as { rows?: Array<{ url?: unknown }> }).rows ?? [];
  const search = rows
    .filter((r) => typeof r.url === 'string')
    .map((r) => ({ file: 'assets/search.js', path: String(r.url) }));
  return [...nav, ...search];
}

/** Every link of the site's HTML pages that leaves the site (`http:`, `https:` or protocol-relative), with its page. */
export function externalLinks(siteDir: string): Array<{ page: string; link: string }> {
  const root = resolve(siteDir);
  const out: Array<{ page: string; link: string }> = [];
  for (const file of listFiles(root)) {
    if (!file.endsWith('.html')) continue;
    for (const link of linksOf(readFileSync(file, 'utf8'))) {
      if (/^https?:/i.test(link) || link.startsWith('//')) out.push({ page: relative(root, file), link });
    }
  }
  return out;
}

/** Check every internal link of the site in `siteDir`; returns the broken ones (none: all good). */
export function checkLinks(siteDir: string): BrokenLink[] {
  const root = resolve(siteDir);
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    let a = anchorCache.get(file);
    if (a === undefined) {
      a = anchorsOf(readFileSync(file, 'utf8'));
      anchorCache.set(file, a);
    }
    return a;
  };
  const broken: BrokenLink[] = [];
  const check = (page: string, fromDir: string, link: string): void => {
    if (link === '' || link === '#' || isExternal(link)) return;
    const hashAt = link.indexOf('#');
    const pathPart = (hashAt === -1 ? link : link.slice(0, hashAt)).split('?')[0] ?? '';
    const fragment = hashAt === -1 ? '' : decodeURIComponent(link.slice(hashAt + 1));
    let target = pathPart === '' ? join(root, page) : resolve(fromDir, decodeURIComponent(pathPart));
    const rel = relative(root, target);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      broken.push({ page, link, problem: 'outside the site' });
      return;
    }
    try {
      if (statSync(target).isDirectory()) target = join(target, 'index.html');
      statSync(target);
    } catch {
      broken.push({ page, link, problem: 'missing file' });
      return;
    }
    const ext = extname(target).toLowerCase();
    if (fragment !== '' && (ext === '.html' || ext === '.svg') && !anchors(target).has(fragment)) {
      broken.push({ page, link, problem: 'missing anchor' });
    }
  };
  for (const file of listFiles(root)) {
    if (!file.endsWith('.html')) continue;
    const page = relative(root, file);
    for (const link of linksOf(readFileSync(file, 'utf8'))) check(page, dirname(file), link);
  }
  for (const { file, path } of typedocDataPaths(root)) check(file, root, path);
  return broken;
}
