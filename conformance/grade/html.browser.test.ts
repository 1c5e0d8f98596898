/**
 * The HTML grade report in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core), opened offline from a file:// URL: the report of a `spotcheck grade`
 * session that saw clean, broken and scenario requests. Every part renders, every link
 * has its target, the skew plot shows every timestamp, no request leaves the page, no
 * spelling of the secret is in the files. Screenshots go to artifacts/reports/.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { sendRaw } from '../../src/client/http.js';
import { buildRequest, type RequestSpec } from '../../src/core/request.js';
import { kitPath } from '../../src/paths.js';
import { sign } from '../../src/signing/hmac.js';
import { secretSpellings } from '../report/secret-spellings.js';
import { gradeCommand } from './command.js';
import type { GradeReport } from './report.js';

const KEY = 'browser-grade-key';
const SECRET = 'browser-grade-secret-77e1';
const ARTIFACTS = kitPath('artifacts', 'reports');
const work = mkdtempSync(join(tmpdir(), 'spotcheck-grade-browser-'));
const HTML = join(work, 'grade.html');
const JSON_FILE = join(work, 'grade.json');

let browser: Browser;
let context: BrowserContext;
const requested: string[] = [];
const refused: string[] = [];

const order = (id: string, ts: number): Array<[string, string]> => [
  ['symbol', 'BTCUSDT'],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['quantity', '1'],
  ['price', '100'],
  ['newClientOrderId', id],
  ['timestamp', String(ts)],
];

/** A grade session: clean orders, an unsigned body, a stale timestamp, a 21-order batch, and the time-refusal scenario. */
async function session(url: string): Promise<void> {
  const send = (spec: Partial<RequestSpec> & Pick<RequestSpec, 'endpoint' | 'params'>) =>
    sendRaw(url, buildRequest(sign, { secret: SECRET, apiKey: KEY, ...spec }).request);
  await send({ endpoint: 'v1', params: order('clean-1', Date.now()) });
  await send({ endpoint: 'v1.1', params: order('clean-2', Date.now()), placement: 'body' });
  await send({
    endpoint: 'v1',
    params: order('unsigned-body-1', Date.now()),
    placement: 'split',
    defects: { signedString: (_t, q) => q },
  });
  await send({ endpoint: 'v1', params: order('stale-1', Date.now() - 60_000) });
  const orders = Array.from({ length: 21 }, (_, i) => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '1',
    price: '100',
    newClientOrderId: `big-${i}`,
  }));
  await send({ endpoint: 'batch', params: [['timestamp', String(Date.now())]], jsonText: JSON.stringify(orders) });
  await send({
    endpoint: 'v1',
    params: order('time-refusal.1', Date.now()),
    headers: { 'X-Spotcheck-Scenario': 'time-refusal' },
  });
  await send({
    endpoint: 'v1',
    params: order('time-refusal.1', Date.now() + 1),
    headers: { 'X-Spotcheck-Scenario': 'time-refusal' },
  });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  let out = '';
  const io: Io = { out: (s) => void (out += s), err: () => undefined, env: {} };
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((r) => {
    stop = r;
  });
  const done = gradeCommand(
    ['--api-key', KEY, '--secret', SECRET, '--report-html', HTML, '--report-json', JSON_FILE],
    io,
    () => stopped,
  );
  for (let i = 0; i < 3000 && !out.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
  await session(/listening on (\S+)/.exec(out)?.[1] ?? '');
  stop('SIGINT');
  expect(await done).toBe(1);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (url.startsWith('file://') || url.startsWith('data:')) await route.continue();
    else {
      refused.push(url);
      await route.abort();
    }
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(HTML).href, { waitUntil: 'load' });
  return { page, errors };
}

const report = (): GradeReport => JSON.parse(readFileSync(JSON_FILE, 'utf8')) as GradeReport;

describe('the HTML grade report of `spotcheck grade --report-html`', () => {
  it('renders every part offline: verdict, rules, broken requests with bytes, diagnosis and curl, scenarios', async () => {
    const r = report();
    const { page, errors } = await open();
    await expect(page.locator('#summary .verdict').textContent()).resolves.toContain('BROKEN');
    expect(await page.locator('#rules tr[id^="rule-CLIENT-"]').count()).toBe(r.rules.length);
    for (const id of ['CLIENT-SIGNATURE', 'CLIENT-TIMESTAMP', 'CLIENT-BATCH-SIZE'])
      await expect(page.locator(`[id="rule-${id}"] .status`).textContent()).resolves.toBe('broken');
    const broken = r.requests.filter((q) => q.broken.length > 0);
    expect(broken.map((q) => q.key)).toEqual(
      expect.arrayContaining(['unsigned-body-1', 'stale-1', 'big-0, big-1, big-2 (+18)']),
    );
    expect(await page.locator('#broken .failure').count()).toBe(broken.length);
    const unsigned = page.locator(`[id="req-${broken.find((q) => q.key === 'unsigned-body-1')?.seq}"]`);
    await expect(unsigned.textContent()).resolves.toContain('BODY_NOT_SIGNED');
    await expect(unsigned.locator('pre.wire').textContent()).resolves.toContain('x-svc-apikey: browser-grade-key');
    await expect(unsigned.locator('pre.curl').textContent()).resolves.toContain('$SPOTCHECK_SECRET');
    await expect(page.locator('#scenarios').textContent()).resolves.toContain('re-signed with a fresh timestamp');
    expect(await page.locator('#requests tr').count()).toBe(1 + r.requests.length);
    const missing = await page.evaluate(() =>
      Array.from(document.querySelectorAll('a[href^="#"]'))
        .map((a) => decodeURIComponent(a.getAttribute('href')?.slice(1) ?? ''))
        .filter((id) => document.getElementById(id) === null),
    );
    expect(missing).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'grade-top.png') });
    await unsigned.screenshot({ path: join(ARTIFACTS, 'grade-broken-request.png') });
    expect(refused).toEqual([]);
    expect(requested.every((u) => u.startsWith('file://'))).toBe(true);
    await page.close();
  });

  it('plots every timestamp of the session inside the skew plot, outside ones marked refused', async () => {
    const r = report();
    const { page } = await open();
    const plot = page.locator('#time-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    if (box === null) throw new Error('the skew plot is not rendered');
    const marks = await page.locator('#time-plot g.probe').evaluateAll((gs) =>
      gs.map((g) => ({
        offset: Number(g.getAttribute('data-offset')),
        cls: g.getAttribute('class') ?? '',
        r: g.getBoundingClientRect().toJSON() as DOMRect,
      })),
    );
    expect(marks.map((m) => m.offset).sort((a, b) => a - b)).toEqual(r.skew.map((s) => s.skewMs).sort((a, b) => a - b));
    expect(marks.filter((m) => m.cls.includes('refused')).length).toBe(r.skew.filter((s) => !s.kept).length);
    expect(marks.some((m) => m.cls.includes('refused') && m.offset < -50_000)).toBe(true);
    for (const m of marks) expect(m.r.left >= box.x - 1 && m.r.right <= box.x + box.width + 1).toBe(true);
    await plot.screenshot({ path: join(ARTIFACTS, 'grade-skew-plot.png') });
    // over the session: one point per timestamp, the stale one a cross, all inside the plot
    const over = page.locator('#skew-time-plot');
    const obox = await over.boundingBox();
    if (obox === null) throw new Error('the skew-over-time plot is not rendered');
    const points = await page
      .locator('#skew-time-plot g.point')
      .evaluateAll((gs) =>
        gs.map((g) => ({ cls: g.getAttribute('class') ?? '', r: g.getBoundingClientRect().toJSON() as DOMRect })),
      );
    expect(points.length).toBe(r.skew.length);
    expect(points.filter((p) => p.cls.includes('broken')).length).toBe(r.skew.filter((s) => !s.kept).length);
    for (const p of points) {
      expect(p.r.width).toBeGreaterThan(0);
      expect(p.r.top >= obox.y - 1 && p.r.bottom <= obox.y + obox.height + 1).toBe(true);
    }
    await over.screenshot({ path: join(ARTIFACTS, 'grade-skew-over-time.png') });
    await page.close();
  });

  it('holds no spelling of the secret', () => {
    const text = readFileSync(HTML, 'utf8') + readFileSync(JSON_FILE, 'utf8');
    for (const s of secretSpellings(SECRET)) expect(text.includes(s), s).toBe(false);
  });
});
