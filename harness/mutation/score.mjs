#!/usr/bin/env node
/**
 * The mutation score of the last `npm run mutation` (reports/mutation/mutation.json): killed (or
 * timed out) over every compiling mutant, and over the mutants not listed as equivalent in
 * harness/mutation/equivalent.json (each with its class and reason: no observable change under
 * the reference profile). Survivors not listed go to reports/mutation/survivors.json and are
 * printed. `--record` writes the figures to harness/mutation/score.json (the README and the docs
 * site quote it); `--check` exits 1 when a survivor is unexplained or the score is under 90%.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutantRows, scoreOf, unjudged } from './score-lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const reports = join(root, 'reports', 'mutation');
const reportPath = join(reports, 'mutation.json');
if (!existsSync(reportPath)) {
  process.stderr.write(`no mutation report at ${reportPath}: run \`npm run mutation\` first\n`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const equivalent = JSON.parse(readFileSync(join(root, 'harness', 'mutation', 'equivalent.json'), 'utf8'));
const logPath = join(reports, 'judged.jsonl');
const rows = mutantRows(report, unjudged(existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''));
const s = scoreOf(rows, equivalent);
writeFileSync(join(reports, 'survivors.json'), `${JSON.stringify(s.unexplained, null, 2)}\n`);
process.stdout.write(
  [
    `mutants outside the server (code only the kit or the client runs; not in the server's bundle): ${s.notServer}`,
    `server mutants: ${s.mutants} (compiling); killed: ${s.killed}; timed out: ${s.timedOut} (${s.scoreAll}% of all)`,
    `survivors: ${s.survived} (${s.notCovered} never reached by the unmutated run); listed equivalent: ${s.equivalent}; unexplained: ${s.unexplained.length}`,
    `score over non-equivalent mutants: ${s.score}%`,
    ...(s.stale.length > 0
      ? [`equivalent.json lists ${s.stale.length} mutants no survivor has (killed, or the code changed)`]
      : []),
    ...s.unexplained
      .slice(0, 60)
      .map((r) => `  survived: ${r.file}:${r.line} ${r.mutator} → ${r.replacement.slice(0, 80)}`),
    '',
  ].join('\n'),
);
if (process.argv.includes('--record')) {
  const minutes = Number(process.env.SPOTCHECK_MUTATION_MINUTES ?? NaN);
  const { unexplained, stale, ...figures } = s;
  const record = {
    $comment:
      'Written by `npm run mutation` (harness/mutation/score.mjs --record); quoted by the README and the docs site.',
    date: new Date().toISOString().slice(0, 10),
    ...(Number.isFinite(minutes) ? { minutes } : {}),
    ...(process.env.SPOTCHECK_MUTATION_COMMIT ? { commit: process.env.SPOTCHECK_MUTATION_COMMIT } : {}),
    ...figures,
    unexplained: unexplained.length,
    byFile: Object.fromEntries(
      [...new Set(rows.filter((r) => r.status !== 'NotServer').map((r) => r.file))].sort().map((f) => {
        const of = rows.filter((r) => r.file === f && r.status !== 'NotServer');
        return [
          f,
          { mutants: of.length, detected: of.filter((r) => r.status === 'Killed' || r.status === 'Timeout').length },
        ];
      }),
    ),
  };
  writeFileSync(join(root, 'harness', 'mutation', 'score.json'), `${JSON.stringify(record, null, 2)}\n`);
}
if (process.argv.includes('--check') && (s.unexplained.length > 0 || s.score < 90)) process.exit(1);
