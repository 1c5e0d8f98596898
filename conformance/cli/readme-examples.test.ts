/**
 * The documentation's example commands work as printed: every `npx --no-install spotcheck`
 * line of the README and the guides goes through its command's own parser (the arguments
 * as printed, then `--help`: an unknown flag or a missing value is exit 2), none uses a bare
 * `npx spotcheck` (npx would fetch whatever the registry serves under that name, with the
 * secret in the environment), and the README's `load init` example writes its project.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
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
