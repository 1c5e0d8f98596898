/**
 * The documentation's example commands work as printed: every `npx --no-install spotcheck`
 * line of the README and the guides goes through its command's own parser (the arguments
 * as printed, then `--help`: an unknown flag or a missing value is exit 2), none uses a bare
 * `npx spotcheck` (npx would fetch whatever the registry serves under that name, with the
 * secret in the environment), every API path in their code blocks is an endpoint of the API,
 * the README's commands for another folder (`npx --prefix "$KIT" spotcheck`, `node
 * "$KIT/dist/..."`) run the clone's bin from there, and the README's `load init` example
 * writes its project.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ENDPOINTS } from '../../src/core/wire.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { kitPath } from '../../src/paths.js';
import { conformanceCommands } from './commands.js';

const docs = [
  'README.md',
  ...readdirSync(kitPath('docs', 'guides'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/guides/${f}`),
];

/** Shell words of one command line: quotes removed, a trailing `# comment` dropped. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? line.length : end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) break;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The fenced code blocks of a Markdown text, continuation lines joined. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((b) => (b[1] ?? '').replace(/\\\n\s*/g, ' '));
}

/** Each `spotcheck` invocation in the fenced blocks of a Markdown text (continuation lines joined), as argv after `spotcheck`. */
function examples(markdown: string): string[][] {
  const out: string[][] = [];
  for (const block of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    const text = (block[1] ?? '').replace(/\\\n\s*/g, ' ').replace(/\$\\\{\{/g, '${{');
    for (const m of text.matchAll(/npx --no-install spotcheck ([^\n]*)/g)) {
      out.push(shellWords(m[1] ?? ''));
    }
  }
  return out;
}

const quiet = () => {
  let text = '';
  return {
    io: { out: (s: string) => void (text += s), err: (s: string) => void (text += s), env: {} },
    text: () => text,
  };
};

describe("the documentation's example commands", () => {
  beforeAll(() => {
    // load init copies the processor bundle, a build output
    if (!existsSync(kitPath('dist', 'conformance', 'load', 'artillery', 'processor.cjs')))
      execFileSync(process.execPath, [kitPath('harness', 'tools', 'build-processor.mjs')]);
  });

  it('never run a bare `npx spotcheck`', () => {
    for (const f of [...docs, 'action.yml']) {
      expect(readFileSync(kitPath(f), 'utf8'), f).not.toMatch(/npx spotcheck/);
    }
  });

  it('name only endpoints of the API (§4.1, §4.2, §9) where they show a path', () => {
    const paths = new Set(Object.values(ENDPOINTS).map((e) => e.path));
    let count = 0;
    for (const f of docs) {
      for (const block of codeBlocks(readFileSync(kitPath(f), 'utf8'))) {
        for (const m of block.matchAll(/\/api\/[A-Za-z0-9_./-]*/g)) {
          count++;
          expect(paths.has(m[0]), `${f}: ${m[0]} is not one of ${[...paths].join(', ')}`).toBe(true);
        }
      }
    }
    expect(count).toBeGreaterThan(2);
  });

  it("the README's commands for another folder run the clone's bin from there, and write there", () => {
    const bin = kitPath('dist', 'conformance', 'cli', 'bin.js');
    if (!existsSync(bin)) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    const lines = codeBlocks(readFileSync(kitPath('README.md'), 'utf8'))
      .flatMap((b) => b.split('\n'))
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => /^(npx --prefix "\$KIT" spotcheck|node "\$KIT\/dist\/conformance\/cli\/bin\.js") /.test(l));
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['npx', 'node']);
    const elsewhere = mkdtempSync(join(tmpdir(), 'spotcheck-elsewhere-'));
    // no registry: neither form may need one
    const env = {
      ...process.env,
      KIT: kitPath(),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_offline: 'true',
    };
    for (const line of lines) {
      // init as printed (it writes into the folder it runs from); a run only parses (--help)
      const command = / init$/.test(line) ? line : `${line} --help`;
      const out = execFileSync('bash', ['--norc', '-c', command], { cwd: elsewhere, env, encoding: 'utf8' });
      expect(out, command).toMatch(/spotcheck/);
    }
    expect(readdirSync(elsewhere)).toEqual(['spotcheck.target.jsonc']);
  });

  it('parse as printed with the command they name', async () => {
    let count = 0;
    for (const f of docs) {
      for (const argv of examples(readFileSync(kitPath(f), 'utf8'))) {
        count++;
        const q = quiet();
        const code = await main([...argv, '--help'], q.io, conformanceCommands);
        expect({ example: argv.join(' '), code, text: code === 0 ? '' : q.text() }, f).toEqual({
          example: argv.join(' '),
          code: 0,
          text: '',
        });
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  it("the README's load init example writes its project within the default order cap", async () => {
    const line = examples(readFileSync(kitPath('README.md'), 'utf8')).find((a) => a[0] === 'load' && a[1] === 'init');
    expect(line).toBeDefined();
    const argv = [...(line ?? [])];
    const at = argv.indexOf('--out');
    argv[at + 1] = join(mkdtempSync(join(tmpdir(), 'spotcheck-readme-')), argv[at + 1] ?? 'out');
    const q = quiet();
    expect(await main(argv, q.io, conformanceCommands), q.text()).toBe(0);
    expect(q.text()).toMatch(/orders over 4 workers/);
  });
});
