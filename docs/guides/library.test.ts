/**
 * Every ```js block of docs/guides/library.md runs: each is written as an ES
 * module inside the package (so `import ... from 'spotcheck'` resolves through the
 * package's own exports to dist/) and run with node; exit 0 or the test fails.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';

const run = promisify(execFile);
const ROOT = kitPath();

/** The ```js blocks of a markdown text, with the heading above each. */
export function jsBlocks(markdown: string): Array<{ heading: string; code: string }> {
  const out: Array<{ heading: string; code: string }> = [];
  let heading = '';
  const re = /^(#{1,6} .*)$|^```js\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) {
    if (m[1] !== undefined) heading = m[1].replace(/^#+ /, '');
    else out.push({ heading, code: m[2] ?? '' });
  }
  return out;
}

async function runModule(name: string, code: string): Promise<{ code: number; output: string }> {
  const dir = join(ROOT, 'dist', 'doc-examples');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, code);
  try {
    const r = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('docs/guides/library.md examples', () => {
  const blocks = jsBlocks(readFileSync(join(ROOT, 'docs', 'guides', 'library.md'), 'utf8'));
  const built = existsSync(join(ROOT, 'dist', 'src', 'index.js'));

  it('has the five examples, each checking its result', () => {
    expect(blocks.map((b) => b.heading)).toEqual([
      'Sign a request',
      'Verify a signature',
      'Place orders with the client, against the reference server',
      'Start the server in a test',
      'In a browser: the pure core',
    ]);
    for (const b of blocks) expect(b.code, b.heading).toMatch(/assert\./);
  });

  blocks.forEach((b, i) => {
    it(`runs: ${b.heading}`, async () => {
      if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
      const r = await runModule(`example-${i}`, b.code);
      expect(r.code, r.output).toBe(0);
    }, 90_000);
  });

  it('would notice a wrong example: the signing example with a wrong expectation exits non-zero', async () => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const broken = (blocks[0]?.code ?? '').replace('update(query + body)', "update(query + '&' + body)");
    expect(broken).not.toBe(blocks[0]?.code);
    expect((await runModule('example-broken', broken)).code).not.toBe(0);
  }, 90_000);
});
