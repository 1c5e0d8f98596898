#!/usr/bin/env node
/**
 * The mutation score of the last `npm run mutation` (reports/mutation/mutation.json, Stryker's
 * mutation-testing-report schema): killed (or timed out) over every mutant that compiled, and
 * over the mutants not listed in harness/mutation/equivalent.json, each listed with the reason it
 * is equivalent (no observable change under the reference profile). Survivors not listed are
 * written to reports/mutation/survivors.json and printed; `--check` exits 1 when any exists or
 * the score is under 90%.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutantKey } from './keys.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const reportPath = join(root, 'reports', 'mutation', 'mutation.json');
if (!existsSync(reportPath)) {
  process.stderr.write(`no mutation report at ${reportPath}: run \`npm run mutation\` first\n`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const equivalent = JSON.parse(readFileSync(join(root, 'harness', 'mutation', 'equivalent.json'), 'utf8'));
const listed = new Map(equivalent.mutants.map((m) => [m.key, m]));

const DETECTED = new Set(['Killed', 'Timeout']);
// the judge's log: mutants the unmutated run never reached were passed unjudged (not covered)
const judgedPath = join(root, 'reports', 'mutation', 'judged.jsonl');
const uncovered = new Set(
  existsSync(judgedPath)
    ? readFileSync(judgedPath, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l))
        .filter((j) => j.covered === false)
        .map((j) => j.mutant)
    : [],
);
const rows = [];
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  const seen = new Map();
  for (const m of mutants) {
    if (m.status === 'CompileError' || m.status === 'RuntimeError' || m.status === 'Ignored') continue;
    const base = mutantKey(file, source, m);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const key = n === 1 ? base : `${base} #${n}`;
    rows.push({
      key,
      file,
      line: m.location.start.line,
      status: m.status,
      mutator: m.mutatorName,
      replacement: m.replacement,
    });
  }
}
const detected = rows.filter((r) => DETECTED.has(r.status));
const survived = rows.filter((r) => !DETECTED.has(r.status));
const equivalentRows = survived.filter((r) => listed.has(r.key));
const unexplained = survived.filter((r) => !listed.has(r.key));
const stale = [...listed.keys()].filter((k) => !rows.some((r) => r.key === k && !DETECTED.has(r.status)));
const considered = rows.length - equivalentRows.length;
const score = considered === 0 ? 100 : (100 * detected.length) / considered;
writeFileSync(join(root, 'reports', 'mutation', 'survivors.json'), `${JSON.stringify(unexplained, null, 2)}\n`);
const pct = (a, b) => (b === 0 ? '100.0' : ((100 * a) / b).toFixed(1));
process.stdout.write(
  [
    `mutants: ${rows.length} (compiling); killed or timed out: ${detected.length} (${pct(detected.length, rows.length)}%)`,
    `survivors: ${survived.length} (${survived.filter((r) => r.status === 'NoCoverage').length} never reached by the unmutated run); listed equivalent: ${equivalentRows.length}; unexplained: ${unexplained.length}`,
    `score over non-equivalent mutants: ${detected.length} of ${considered} (${score.toFixed(1)}%)`,
    ...(stale.length > 0
      ? [`equivalent.json lists ${stale.length} mutants that were killed or no longer exist (remove them)`]
      : []),
    ...unexplained
      .slice(0, 40)
      .map((r) => `  survived: ${r.file}:${r.line} ${r.mutator} → ${r.replacement.slice(0, 80)}`),
    '',
  ].join('\n'),
);
if (process.argv.includes('--check') && (unexplained.length > 0 || score < 90)) process.exit(1);
