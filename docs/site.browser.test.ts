/**
 * The built site in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core; no browser is ever downloaded): every page loads without console
 * errors or requests leaving loopback, navigation and search find the signing guide,
 * and the playground reproduces golden vectors typed into its form. Screenshots of the
 * signing guide and the playground go to artifacts/docs/. Run `npm run docs` first:
 * without a built site this suite fails.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitPath } from '../src/paths.js';
import { DOCTOR_CODES } from '../src/core/doctor/diagnose.js';
import type { SigningVector } from '../vectors/types.js';
import { loadDoctorVectors, loadSigningVectors } from '../vectors/load.js';
import { listFiles } from './lib/link-check.js';
import { serveStatic, type StaticServer } from './lib/static-server.js';
import { pickVector } from './lib/vector-views.js';

const SITE = kitPath('site');
const ARTIFACTS = kitPath('artifacts', 'docs');
const SIGNING_GUIDE = 'Signing requests';

let server: StaticServer;
let browser: Browser;
let context: BrowserContext;

/** Console errors, uncaught page errors and requests to anything but the local server, per page. */
interface PageProblems {
  errors: string[];
  offsite: string[];
}

function watch(page: Page, base: string): PageProblems {
  const problems: PageProblems = { errors: [], offsite: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.errors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.errors.push(`uncaught: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.errors.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  page.on('requestfailed', (req) => {
    // Moving on to the next page cancels what is still loading (ERR_ABORTED); a missing file shows as HTTP 404 above.
    const reason = req.failure()?.errorText ?? '?';
    if (reason !== 'net::ERR_ABORTED') problems.errors.push(`request failed: ${req.url()} (${reason})`);
  });
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.offsite.push(url);
  });
  return problems;
}

beforeAll(async () => {
  if (!existsSync(join(SITE, 'index.html'))) {
    throw new Error(
      `${relative(process.cwd(), SITE)}/index.html is missing: build the site with \`npm run docs\` before \`npm run test:browser\``,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await serveStatic(SITE);
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
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('every page of the built site', () => {
  it('loads without console errors, page errors or requests leaving the local server', async () => {
    const pages = listFiles(SITE)
      .filter((f) => f.endsWith('.html'))
      .map((f) => relative(SITE, f).split('\\').join('/'))
      .sort();
    expect(pages.length).toBeGreaterThan(10);
    const report: string[] = [];
    const queue = [...pages];
    // A few tabs share the list: the site has some 160 pages and one tab at a time is slow on a busy machine.
    async function worker(): Promise<void> {
      const page = await context.newPage();
      const problems = watch(page, server.url);
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const res = await page.goto(new URL(path, server.url).href, { waitUntil: 'load' });
        if (res?.status() !== 200) report.push(`${path}: HTTP ${String(res?.status())}`);
        // Let the deferred scripts (navigation, search, custom.js) run.
        await page.waitForFunction(() => document.body.style.display !== 'none', undefined, { timeout: 10_000 });
        for (const e of problems.errors.splice(0)) report.push(`${path}: ${e}`);
        for (const u of problems.offsite.splice(0)) report.push(`${path}: request leaves the site: ${u}`);
      }
      await page.close();
    }
    await Promise.all([worker(), worker(), worker()]);
    expect(queue).toEqual([]);
    expect(report).toEqual([]);
  }, 300_000);
});

describe('navigation and search', () => {
  it('the sidebar navigation leads to the signing guide', async () => {
    const page = await context.newPage();
    const problems = watch(page, server.url);
    await page.goto(server.url, { waitUntil: 'load' });
    const link = page.locator('.site-menu a', { hasText: SIGNING_GUIDE }).first();
    await link.waitFor({ state: 'visible', timeout: 10_000 });
    await link.click();
    await page.waitForURL(/documents\/Signing_requests\.html$/);
    await expect(page.locator('h1').first().textContent()).resolves.toContain(SIGNING_GUIDE);
    expect(problems.errors).toEqual([]);
    await page.close();
  });

  it('the search box finds the signing guide and opens it', async () => {
    const page = await context.newPage();
    const problems = watch(page, server.url);
    await page.goto(server.url, { waitUntil: 'load' });
    await page.locator('#tsd-search-trigger').click();
    const input = page.locator('#tsd-search-input');
    await input.waitFor({ state: 'visible' });
    await input.fill('signing requests');
    const hit = page.locator('#tsd-search-results li a', { hasText: SIGNING_GUIDE }).first();
    await hit.waitFor({ state: 'visible', timeout: 10_000 });
    await hit.click();
    await page.waitForURL(/documents\/Signing_requests\.html/);
    await expect(page.locator('h1').first().textContent()).resolves.toContain(SIGNING_GUIDE);
    await expect(page.locator('body').textContent()).resolves.toContain('totalParams');
    await page.screenshot({ path: join(ARTIFACTS, 'signing-guide.png'), fullPage: true });
    expect(problems.errors).toEqual([]);
    await page.close();
  });
});

describe('the guide "Why is my signature rejected?"', () => {
  it('is built, in the navigation, and shows every code with a worked example', async () => {
    const page = await context.newPage();
    const problems = watch(page, server.url);
    await page.goto(server.url, { waitUntil: 'load' });
    const link = page.locator('.site-menu a', { hasText: 'Why is my signature rejected?' }).first();
    await link.waitFor({ state: 'visible', timeout: 10_000 });
    await link.click();
    await page.waitForURL(/documents\/Why_is_my_signature_rejected_\.html$/);
    await expect(page.locator('h1').first().textContent()).resolves.toContain('Why is my signature rejected?');
    const text = (await page.locator('body').textContent()) ?? '';
    for (const c of DOCTOR_CODES) {
      expect(await page.locator(`h3:has-text("${c}")`).count(), c).toBe(1);
      expect(text).toContain(`"code": "${c}"`);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'signature-doctor.png'), fullPage: true });
    expect(problems.errors).toEqual([]);
    await page.close();
  });
});

describe('the guide "Client libraries"', () => {
  it('is in the navigation and shows the interop matrix with its date, versions and the mistakes found', async () => {
    const matrix = JSON.parse(readFileSync(kitPath('docs', 'data', 'client-libraries.json'), 'utf8')) as {
      generated: string;
      clients: Array<{ name: string; version: string }>;
    };
    const page = await context.newPage();
    const problems = watch(page, server.url);
    await page.goto(server.url, { waitUntil: 'load' });
    const link = page.locator('.site-menu a', { hasText: 'Client libraries' }).first();
    await link.waitFor({ state: 'visible', timeout: 10_000 });
    await link.click();
    await page.waitForURL(/documents\/Client_libraries\.html$/);
    await expect(page.locator('h1').first().textContent()).resolves.toContain('Client libraries');
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain(matrix.generated.slice(0, 10));
    for (const c of matrix.clients) {
      expect(text).toContain(c.name);
      expect(text).toContain(c.version);
    }
    expect(await page.locator('table').count()).toBeGreaterThanOrEqual(4);
    expect(text).toContain('ENCODING_MISMATCH');
    await page.screenshot({ path: join(ARTIFACTS, 'client-libraries.png'), fullPage: true });
    expect(problems.errors).toEqual([]);
    await page.close();
  });
});

describe('signing playground', () => {
  const golden = loadSigningVectors().tests;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    page = await context.newPage();
    problems = watch(page, server.url);
    await page.goto(new URL('documents/Signing_playground.html', server.url).href, { waitUntil: 'load' });
    await page.locator('#sc-golden-result[data-total]').waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await page?.close();
  });

  it('reproduces every embedded golden vector in the browser and says so', async () => {
    const result = page.locator('#sc-golden-result');
    await expect(result.getAttribute('data-total')).resolves.toBe(String(golden.length));
    await expect(result.getAttribute('data-passed')).resolves.toBe(String(golden.length));
    await expect(result.textContent()).resolves.toBe(
      `${golden.length}/${golden.length} golden signing vectors reproduced in this browser.`,
    );
  });

  /** Type a vector's request into the form, compute, and read every output back. */
  async function typeVector(v: Pick<SigningVector, 'query' | 'body' | 'secret'>) {
    await page.locator('#sc-body-kind').selectOption('auto');
    await page.locator('#sc-query').fill(v.query);
    await page.locator('#sc-body').fill(v.body);
    await page.locator('#sc-secret').fill(v.secret);
    await page.locator('#sc-compute').click();
    await page.waitForFunction(() => {
      const root = document.getElementById('sc-playground');
      return root !== null && root.dataset.seq !== undefined && root.dataset.seq === root.dataset.done;
    });
    const text = (id: string) => page.locator(`#${id}`).textContent();
    return {
      kind: await text('sc-out-kind'),
      query: await text('sc-out-query'),
      body: await text('sc-out-body'),
      total: await text('sc-out-total'),
      signature: await text('sc-out-signature'),
      match: await page.locator('#sc-out-presented').getAttribute('data-match'),
      error: await text('sc-error'),
    };
  }

  const shown = (s: string) => (s === '' ? '(empty)' : s);
  const cases: Array<[string, { flags: string[]; result?: string }]> = [
    ['published A1, all in the query string', { flags: ['Published', 'QueryOnly'], result: 'valid' }],
    ['published A3, split with no "&" at the join', { flags: ['Published', 'Split'], result: 'valid' }],
    ['a batch with a JSON body', { flags: ['JsonBody', 'Batch', 'DecimalsAsStrings'], result: 'valid' }],
    [
      'a form body with non-ASCII percent-encoding',
      { flags: ['FormBody', 'NonAscii', 'PercentEncoded'], result: 'valid' },
    ],
    ['an "&" inserted at the join (invalid)', { flags: ['Split', 'AmpersandAtJoin'], result: 'invalid' }],
  ];

  for (const [name, query] of cases) {
    it(`reproduces ${name} typed into the form`, async () => {
      const v = pickVector(golden, query, 'vectors/signing.json');
      const out = await typeVector(v);
      expect(out).toEqual({
        kind: v.bodyKind,
        query: shown(v.queryWithoutSignature),
        body: shown(v.signedBody),
        total: v.totalParams,
        signature: v.signature,
        match: String(v.result !== 'invalid'),
        error: '',
      });
    });
  }

  it('gives another signature for another secret, and says the pasted one does not match', async () => {
    const v = pickVector(golden, { flags: ['Published', 'QueryOnly'], result: 'valid' }, 'vectors/signing.json');
    const out = await typeVector({ ...v, secret: `${v.secret}x` });
    expect(out.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(out.signature).not.toBe(v.signature);
    expect(out.match).toBe('false');
  });

  it('diagnoses a pasted request whose signature is rejected, and leaves a correct one alone', async () => {
    const doctor = loadDoctorVectors().tests;
    const diagnoseTyped = async (v: { query: string; body: string; secret: string }) => {
      await typeVector(v);
      const out = page.locator('#sc-diagnosis');
      const before = (await out.getAttribute('data-done')) ?? '0';
      await page.locator('#sc-diagnose').click();
      await page.waitForFunction((prev) => {
        const o = document.getElementById('sc-diagnosis');
        return o !== null && o.dataset.seq !== prev && o.dataset.seq === o.dataset.done;
      }, before);
      return { code: await out.getAttribute('data-code'), text: (await out.textContent()) ?? '' };
    };
    const left = doctor.find((t) => t.code === 'SIGNATURE_PARAM_SIGNED');
    expect(left).toBeDefined();
    const bad = await diagnoseTyped({ query: left?.query ?? '', body: left?.body ?? '', secret: left?.secret ?? '' });
    expect(bad.code).toBe('SIGNATURE_PARAM_SIGNED');
    expect(bad.text).toMatch(/^SIGNATURE_PARAM_SIGNED: /);
    expect(bad.text).toContain('⟦');
    expect(bad.text).not.toContain(left?.secret ?? '');
    const joined = pickVector(
      golden,
      { flags: ['Split', 'AmpersandAtJoin'], result: 'invalid' },
      'vectors/signing.json',
    );
    expect((await diagnoseTyped(joined)).code).toBe('SEPARATOR_INSERTED');
    const ok = pickVector(golden, { flags: ['Published', 'Split'], result: 'valid' }, 'vectors/signing.json');
    expect((await diagnoseTyped(ok)).code).toBe('OK');
  });

  it('shows the page without console errors and saves a screenshot', async () => {
    const v = pickVector(golden, { flags: ['Published', 'Split'], result: 'valid' }, 'vectors/signing.json');
    await typeVector(v);
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
    expect(problems.errors).toEqual([]);
    expect(problems.offsite).toEqual([]);
  });
});

describe('the site opened from a file (file://), as the README once said to', () => {
  it('shows the guides, and the playground says how to open it instead of failing', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(pathToFileURL(join(SITE, 'documents', 'Signing_playground.html')).href, { waitUntil: 'load' });
    await expect
      .poll(async () => (await page.locator('#sc-error').textContent()) ?? '')
      .toContain('npm run docs:serve');
    // the status line at the top no longer says JavaScript is needed: it says the same
    const top = (await page.locator('#sc-golden-result').textContent()) ?? '';
    expect(top).not.toMatch(/needs JavaScript/);
    expect(top).toContain('npm run docs:serve');
    expect(errors).toEqual([]);
    await page.goto(pathToFileURL(join(SITE, 'index.html')).href, { waitUntil: 'load' });
    expect(await page.locator('h1, h2').first().textContent()).toBeTruthy();
    await page.close();
  });
});
