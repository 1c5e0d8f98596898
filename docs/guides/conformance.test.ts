/**
 * The conformance guide's CI advice works as written: every `spotcheck replay` line it
 * (and the README) shows is one `replay` accepts, and it never sends readers to a
 * registry the kit is not published in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { packageRoot } from '../../src/paths.js';
import { conformanceCommands } from '../../conformance/cli/commands.js';

const root = packageRoot();
const sources = ['docs/guides/conformance.md', 'README.md'].map(
  (f) => [f, readFileSync(join(root, f), 'utf8')] as const,
);

/** Each `spotcheck replay ...` command in a code span or block, with its placeholders filled in. */
function replayLines(text: string): string[] {
  return [...text.matchAll(/spotcheck (replay [^`\n#]*)/g)]
    .map((m) => (m[1] ?? '').trim())
    .filter((l) => !l.includes('--from-report') && /--seed/.test(l))
    .map((l) =>
      l
        .replace(/<run id>|\bS\b/g, '1')
        .replace(/<check ID>|\bID\b/g, 'SIG-BODY-COVERED')
        .replace(/\bURL\b/g, 'http://127.0.0.1:9')
        .replace(/\s*\.\.\.\s*$/, '')
        .replace(/[;.,]$/, ''),
    );
}

describe('the CI advice of the docs', () => {
  it('finds the replay lines it judges', () => {
    expect(sources.flatMap(([, t]) => replayLines(t)).length).toBeGreaterThanOrEqual(3);
  });

  for (const [file, text] of sources) {
    it(`${file}: every replay line is one replay accepts (target named)`, async () => {
      for (const line of replayLines(text)) {
        let err = '';
        const io: Io = { out: () => undefined, err: (s) => void (err += s), env: {} };
        // --list: parsed and checked as a replay, nothing sent
        expect(await main([...line.split(/\s+/), '--list'], io, conformanceCommands), `${line}: ${err}`).toBe(0);
      }
    });

    it(`${file}: does not send readers to a registry (the package is not published)`, () => {
      expect(text).not.toMatch(/from the\s+registry/i);
    });
  }
});
