/**
 * Entry of `npm run bench` (`node dist/harness/bench/main.js [section...] [--rounds N] [--sample-ms M]`).
 * Each section is a separate module listed in {@link SECTIONS}; with no section named,
 * all run. Figures are medians of alternating rounds, each beside its baseline.
 */
import { parseArgs } from 'node:util';
import type { CompareOptions } from './measure.js';
import { runSigning } from './signing.js';
import { runDoctor } from './doctor.js';
import { benchServer } from './server.js';

/** One benchmark section: a name to select it by and a function that prints its figures. */
export interface BenchSection {
  name: string;
  description: string;
  run: (out: (s: string) => void, opts: CompareOptions) => void | Promise<void>;
}

/** Every section, in the order they run. Add new sections (server, runner) here. */
export const SECTIONS: readonly BenchSection[] = [
  { name: 'signing', description: 'sign vs naive createHmac; batch validation vs JSON.parse', run: runSigning },
  { name: 'doctor', description: 'signature doctor candidate search vs one plain verify', run: runDoctor },
  {
    name: 'server',
    description: 'reference server vs bare node:http under child-process load; RSS over 60 s',
    run: (out) => benchServer(out),
  },
];

const USAGE = `Usage: node dist/harness/bench/main.js [section...] [--rounds N] [--sample-ms M]

Sections:
${SECTIONS.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join('\n')}
`;

/** Run the named sections (all when none); returns the exit code. */
export async function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        rounds: { type: 'string', default: '21' },
        'sample-ms': { type: 'string', default: '60' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(USAGE);
    return 0;
  }
  const rounds = Number(parsed.values.rounds);
  const sampleMs = Number(parsed.values['sample-ms']);
  if (!Number.isInteger(rounds) || rounds < 1 || !(sampleMs > 0)) {
    process.stderr.write(`bench: --rounds needs a whole number >= 1 and --sample-ms a positive number\n\n${USAGE}`);
    return 2;
  }
  const names = parsed.positionals;
  const unknown = names.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown section ${unknown.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  const chosen = names.length === 0 ? SECTIONS : SECTIONS.filter((s) => names.includes(s.name));
  out(`node ${process.version}, ${process.platform}/${process.arch}\n\n`);
  for (const s of chosen) {
    out(`== ${s.name} ==\n`);
    await s.run(out, { rounds, sampleMs });
    out('\n');
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
