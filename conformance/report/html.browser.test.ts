/**
 * The HTML report and the implementations matrix in headless Chromium (Debian's
 * /usr/bin/chromium through playwright-core), opened offline from file:// URLs: the
 * report of a fresh `npm start -- --report-html` run and the docs site's three-target
 * matrix (built by `npm run docs`, which must run first). Every part renders, every
 * link has its target, the plot shows every time probe, no request leaves the page,
 * no spelling of the secret is in any file. Screenshots go to artifacts/reports/.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { DEMO_SECRET } from '../../src/server/credentials.js';
import type { RunReport } from '../judgement/types.js';
import type { MatrixData } from './matrix.js';
import { secretSpellings } from './secret-spellings.js';

const ARTIFACTS = kitPath('artifacts', 'reports');
const MEDIA = kitPath('site', 'media');
const work = mkdtempSync(join(tmpdir(), 'spotcheck-html-browser-'));
const REPORT = join(work, 'r.html');
const REPORT_JSON = join(work, 'r.json');

let browser: Browser;
let context: BrowserContext;
/** Every request any page made, and those that were not the file:// page itself or data: (refused). */
const requested: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(MEDIA, 'matrix.html')))
    throw new Error(
      'site/media/matrix.html is missing: build the site with `npm run docs` before `npm run test:browser`',
    );
  mkdirSync(ARTIFACTS, { recursive: true });
  // the done-when command itself: `npm start -- --report-html r.html` (its prestart builds when sources are newer)
  await promisify(execFile)(
    'npm',
    ['start', '--silent', '--', '--report-html', REPORT, '--report-json', REPORT_JSON, '--no-color'],
    { cwd: kitPath(), env: { ...process.env, SPOTCHECK_API_KEY: '', SPOTCHECK_SECRET: '' }, timeout: 120_000 },
  );
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  // Count every request; anything but a file:// page or data: is refused (and fails the tests below).
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (url.startsWith('file://') || url.startsWith('data:')) await route.continue();
    else {
      refused.push(url);
      await route.abort();
    }
  });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Open a local file offline; returns the page and its problems (console errors, page errors). */
async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, errors };
}

/**
 * How a page sits in the 1280 px window: the page's own width (no horizontal scroll when it is
 * 1280 at most), and each table or `pre` wider than its box, which must scroll inside that box.
 */
async function widths(page: Page): Promise<{ page: number; window: number; unscrolled: string[] }> {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
    unscrolled: Array.from(document.querySelectorAll('table, pre'))
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && !/auto|scroll/.test(getComputedStyle(el).overflowX))
      .map((el) => `${el.tagName.toLowerCase()} ${el.scrollWidth} px in ${el.clientWidth} px`),
  }));
}

/** The fragment links of a page whose target id is missing. */
async function missingAnchors(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('a[href^="#"]'))
      .map((a) => decodeURIComponent(a.getAttribute('href')?.slice(1) ?? ''))
      .filter((id) => document.getElementById(id) === null),
  );
}

describe('the HTML report of `npm start -- --report-html`', () => {
  it('renders every part offline, with no request leaving the page', async () => {
    const report = JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as RunReport;
    const { page, errors } = await open(REPORT);
    const before = requested.length;
    await expect(page.locator('#summary .verdict').textContent()).resolves.toContain('PASS');
    expect(await page.locator('#discovery table').first().locator('tr').count()).toBe(
      1 + (report.discovery?.controls.length ?? 0),
    );
    await expect(page.locator('#clock').textContent()).resolves.toMatch(/± \d+ ms/);
    expect(await page.locator('#coverage .grid td[data-status]').count()).toBe(
      (report.coverage?.routes.length ?? 0) * new Set(report.coverage?.cells.map((c) => c.rule)).size,
    );
    expect(await page.locator('#coverage .grid td[data-status="pass"]').count()).toBeGreaterThan(100);
    expect(await page.locator('#checks tr[id^="check-"]').count()).toBe(report.checks.length);
    expect(await page.locator('#latency-plot').isVisible()).toBe(true);
    expect(await page.locator('#latency .num').first().textContent()).toBe(String(report.requests));
    expect(await missingAnchors(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'report-top.png') });
    await page.locator('#coverage').screenshot({ path: join(ARTIFACTS, 'report-coverage.png') });
    // nothing after the page itself: no font, no image, no script
    expect(requested.slice(before)).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  });

  it('plots every time probe of the JSON report inside the plot, between its seed edges', async () => {
    const report = JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as RunReport;
    const probes = report.checks.flatMap((c) => c.timeProbes ?? []);
    expect(probes.length).toBeGreaterThan(50);
    const { page } = await open(REPORT);
    const plot = page.locator('#time-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    if (box === null) throw new Error('the time plot is not rendered');
    const marks = await page.locator('#time-plot g.probe').evaluateAll((gs) =>
      gs.map((g) => ({
        offset: Number(g.getAttribute('data-offset')),
        cls: g.getAttribute('class'),
        r: g.getBoundingClientRect().toJSON() as DOMRect,
      })),
    );
    expect(marks.length).toBe(probes.length);
    expect(marks.map((m) => m.offset).sort((a, b) => a - b)).toEqual(
      probes.map((p) => p.offsetMs).sort((a, b) => a - b),
    );
    expect(marks.filter((m) => m.cls?.includes('accepted')).length).toBe(
      probes.filter((p) => p.verdict === 'accepted').length,
    );
    for (const m of marks) {
      expect(m.r.width, `probe at ${m.offset} ms has no size`).toBeGreaterThan(0);
      expect(
        m.r.left >= box.x - 1 && m.r.right <= box.x + box.width + 1,
        `probe at ${m.offset} ms outside the plot`,
      ).toBe(true);
    }
    // a seed edge per recvWindow row (two each) and the clock band
    const rows = await page.locator('#time-plot g.row').count();
    expect(await page.locator('#time-plot g.row line.seed-edge').count()).toBe(2 * rows);
    expect(await page.locator('#time-plot rect.band').count()).toBeGreaterThan(2 * rows);
    await plot.screenshot({ path: join(ARTIFACTS, 'report-time-plot.png') });
    await page.close();
  });

  it('fits a 1280 px window, passing or failing: nothing wider than the page but what scrolls in its own box', async () => {
    // the passing run's report, and a failing one (the docs matrix's faulty server: failures with
    // Expected, Actual, long answers and curl lines)
    for (const file of [REPORT, join(MEDIA, 'faulty-time-lead.html'), join(MEDIA, 'matrix.html')]) {
      const { page } = await open(file);
      const w = await widths(page);
      expect({ file, ...w }).toEqual({ file, page: 1280, window: 1280, unscrolled: [] });
      await page.close();
    }
  });

  it('holds no spelling of the secret', () => {
    const text = readFileSync(REPORT, 'utf8') + readFileSync(REPORT_JSON, 'utf8');
    for (const s of secretSpellings(DEMO_SECRET)) expect(text.includes(s), s).toBe(false);
  });
});

describe("the docs site's three-target matrix", () => {
  const matrix = (): MatrixData => JSON.parse(readFileSync(join(MEDIA, 'matrix.json'), 'utf8')) as MatrixData;

  it('renders offline, and every link leads to a file of the folder and an id inside it', async () => {
    const m = matrix();
    expect(m.targets.map((t) => t.exitCode)).toEqual([0, 0, 1]);
    const { page, errors } = await open(join(MEDIA, 'matrix.html'));
    const before = requested.length;
    expect(await page.locator('table.matrix td[data-status]').count()).toBe(m.targets.length * m.rules.length);
    expect(await page.locator('table.matrix td[data-status="fail"]').count()).toBe(
      m.cells.filter((c) => c.status === 'fail').length,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'matrix.png'), fullPage: true });
    const links = await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links.length).toBeGreaterThan(m.cells.length);
    expect(await missingAnchors(page)).toEqual([]);
    // open each linked file once and check every fragment pointing into it
    const byFile = new Map<string, Set<string>>();
    for (const l of links) {
      const u = new URL(l);
      expect(u.protocol).toBe('file:');
      const file = fileURLToPath(u);
      expect(existsSync(file), file).toBe(true);
      if (!byFile.has(file)) byFile.set(file, new Set());
      if (u.hash !== '') byFile.get(file)?.add(decodeURIComponent(u.hash.slice(1)));
    }
    for (const [file, ids] of byFile) {
      if (!file.endsWith('.html') || ids.size === 0) continue;
      const target = await open(file);
      const missing = await target.page.evaluate(
        (list) => list.filter((id) => document.getElementById(id) === null),
        [...ids],
      );
      expect(missing, file).toEqual([]);
      expect(await missingAnchors(target.page)).toEqual([]);
      await target.page.close();
    }
    expect(errors).toEqual([]);
    expect(requested.slice(before).filter((u) => !u.startsWith('file://'))).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  });

  it("a failing cell opens the faulty server's report at the rule, whose failures carry Expected, Actual, replay and curl", async () => {
    const { page } = await open(join(MEDIA, 'matrix.html'));
    const cell = page.locator('table.matrix td[data-status="fail"] a').first();
    const href = await cell.getAttribute('href');
    expect(href).toMatch(/^faulty-time-lead\.html#rule-TIME-/);
    await cell.click();
    await page.waitForURL(/faulty-time-lead\.html#rule-/);
    const rule = decodeURIComponent(new URL(page.url()).hash.slice(1));
    // the rule's row is scrolled to the top of the window
    const at = await page.locator(`[id="${rule}"]`).boundingBox();
    expect(at !== null && at.y >= 0 && at.y < 900).toBe(true);
    const failure = page.locator('[id="failure-TIME-WINDOW-LEAD"]');
    for (const part of ['Expected', 'Actual', 'Replay', 'curl'])
      expect(await failure.locator('dt', { hasText: part }).count(), part).toBe(1);
    expect(await failure.locator('pre').last().textContent()).toContain('$SPOTCHECK_SECRET');
    expect(await failure.locator('blockquote').textContent()).toContain('§5.4');
    await failure.screenshot({ path: join(ARTIFACTS, 'faulty-failure.png') });
    await page.locator('#time-plot').screenshot({ path: join(ARTIFACTS, 'faulty-time-plot.png') });
    // the faulty server's measured lead edge lies past the seed's +1000 ms
    const lead = await page
      .locator('#time-plot line.measured-edge[data-side="lead"]')
      .first()
      .locator('title')
      .textContent();
    expect(Number(/≈ \+?(-?\d+)/.exec(lead ?? '')?.[1])).toBeGreaterThan(3000);
    await page.close();
  });

  it('holds no spelling of the secret in any file of the folder', () => {
    const text = readdirSync(MEDIA)
      .map((f) => readFileSync(join(MEDIA, f), 'utf8'))
      .join('\n');
    for (const s of secretSpellings(DEMO_SECRET)) expect(text.includes(s), s).toBe(false);
  });
});
