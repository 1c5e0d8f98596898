import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { packageRoot } from '../../src/paths.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { loadDocsData, renderPages } from '../lib/build.js';

const root = packageRoot();
const help = new Map(['', 'sign', 'serve', 'run', 'replay', 'matrix'].map((c) => [c, `Usage: spotcheck ${c}\n`]));

/** The shell block that follows `<!-- snippet: NAME -->` in a rendered page. */
function snippet(markdown: string, name: string): string {
  const m = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(markdown);
  if (m?.[1] === undefined) throw new Error(`no snippet ${name}`);
  return m[1];
}

describe('the signed curl of the quickstart, run against the reference server', () => {
  let server: RunningServer;
  let script: string;
  beforeAll(async () => {
    server = await startServer();
    const pages = renderPages(root, await loadDocsData(root, help), checks);
    script = snippet(pages.find((p) => p.file === 'quickstart.md')?.markdown ?? '', 'signed-curl');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Run the snippet with bash (asynchronously: the server answers from this process). */
  const run = async (text: string) => {
    const r = await promisify(execFile)('bash', ['--norc', '-c', text], {
      encoding: 'utf8',
      env: { ...process.env, BASE_URL: server.url },
      timeout: 20_000,
    });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as {
      code: number;
      result?: Array<{ code: number; order?: { clientOrderId?: string } }>;
    };
  };

  it('places the order exactly as the page says', async () => {
    const before = server.orders.count();
    const answer = await run(script);
    expect(answer.code).toBe(0);
    expect(answer.result).toHaveLength(1);
    expect(answer.result?.[0]).toMatchObject({ code: 0, order: { clientOrderId: 'quickstart-1' } });
    expect(server.orders.count()).toBe(before + 1);
  });

  it('is rejected when the body changes after signing, as the page says', async () => {
    const tampered = script.replace('--data-binary "$BODY"', '--data-binary "${BODY/0.01/0.02}"');
    expect(tampered).not.toBe(script);
    const before = server.orders.count();
    const answer = await run(tampered);
    expect(answer.code).not.toBe(0);
    expect(server.orders.count()).toBe(before);
  });
});
