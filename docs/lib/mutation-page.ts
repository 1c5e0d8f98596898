/**
 * The mutation testing page: the figures of the last whole `npm run mutation`
 * (harness/mutation/score.json) and every surviving mutant set aside as equivalent, by class
 * with its reason (harness/mutation/equivalent.json).
 */

import type { EquivalentList, ScoreFigures } from '../../harness/mutation/score-lib.mjs';

/** The page title. */
export const MUTATION_TITLE = 'How strong the kit is (mutation testing of the reference server)';

/** harness/mutation/score.json: the run's figures (harness/mutation/score.mjs --record). */
export interface MutationScore extends ScoreFigures {
  date: string;
  minutes?: number;
  /** The commit whose kit judged the run. */
  commit?: string;
  /** Unexplained survivors, counted. */
  unexplained: number;
  byFile: Record<string, { mutants: number; detected: number }>;
}

/** harness/mutation/equivalent.json. */
export type { EquivalentList };

/** The precision side: the other readings the kit is run against (harness/readings) and the correct venues it must pass. */
export interface Precision {
  readings: ReadonlyArray<{ id: string; decisions: readonly string[]; summary: string }>;
  /** Open points of spec/decisions.md. */
  decisions: number;
  /** Correct servers written by others, in their own languages and fronts. */
  venues: readonly string[];
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/`/g, "'");

/** The page's Markdown. */
export function renderMutationPage(score: MutationScore, equivalent: EquivalentList, precision: Precision): string {
  const out: string[] = [
    '---',
    `title: ${MUTATION_TITLE}`,
    '---',
    `# ${MUTATION_TITLE}`,
    '',
    "A conformance kit is as good as the faults it catches. `npm run mutation` measures that with Stryker (`@stryker-mutator/core` 9.x, its command runner): it injects one small fault at a time (a mutant) into the reference server's request path (the signing, validation and time checks it runs, and its parsing, authentication, routing, answers and placement), starts that server, and judges it with `spotcheck run --profile reference --strict`, built from the unmutated sources before Stryker starts, so the kit that judges never moves with the server it judges. A mutant is killed when the run exits non-zero.",
    '',
    `## Last whole run (${score.date}${score.minutes === undefined ? '' : `, ${score.minutes} minutes on 2 cores`})`,
    '',
    ...(score.commit === undefined ? [] : [`Judged by the kit at commit \`${score.commit}\`.`, '']),
    '| Measure | Count |',
    '|---|---|',
    `| Mutants of the server (compiling) | ${score.mutants} |`,
    `| Killed | ${score.killed} |`,
    `| Timed out (the run never ended: detected) | ${score.timedOut} |`,
    `| Survived | ${score.survived} (${score.notCovered} of them in server code no request of the run reached) |`,
    `| Set aside as equivalent (below) | ${score.equivalent} |`,
    `| Survivors with no listed reason | ${score.unexplained} |`,
    `| **Score over the non-equivalent mutants** | **${score.score}%** (${score.scoreAll}% of all) |`,
    `| Mutants outside the server (shared core code only the kit or the client runs; the server's bundle leaves it out) | ${score.notServer} (not counted) |`,
    '',
    '## Precision beside power: silence on correct servers',
    '',
    'A fault caught is worth little if a correct server is failed too: a user who meets one false MUST failure stops trusting the others. So the kit is run, on every CI run (`npm run test:interop`), against servers that are right and read the seed another way wherever it leaves the choice:',
    '',
    '| Measure | Count |',
    '|---|---|',
    `| Open points of spec/decisions.md | ${precision.decisions} |`,
    `| Other readings built and run (each alone, and one of each group all together over three seeds) | ${precision.readings.length} |`,
    `| Correct venues written by others (their own languages and fronts) | ${precision.venues.length} |`,
    '| **MUST failures or MUST checks left undecided on them (false alarms)** | **0** (the suite fails on any) |',
    '',
    `The venues: ${precision.venues.join('; ')}.`,
    '',
    '| Reading | Decisions | What the server does |',
    '|---|---|---|',
    ...precision.readings.map((r) => `| \`${r.id}\` | ${r.decisions.join(', ')} | ${cell(r.summary)} |`),
    '',
    '## Power, by file of the reference server',
    '',
    '| File | Mutants | Detected |',
    '|---|---|---|',
    ...Object.entries(score.byFile).map(([f, c]) => `| \`${f}\` | ${c.mutants} | ${c.detected} |`),
    '',
    '## Equivalent mutants',
    '',
    'A survivor is set aside only with the reason no run can see it under the reference profile. Each class below says why; the mutants follow, as `file | mutator | source line | replacement`.',
    '',
  ];
  for (const [cls, reason] of Object.entries(equivalent.classes)) {
    const of = equivalent.mutants.filter((m) => m.class === cls);
    out.push(`### ${cls} (${of.length})`, '', reason, '', '| Mutant | Note |', '|---|---|');
    for (const m of of) out.push(`| \`${cell(m.key)}\` | ${cell(m.note ?? '')} |`);
    out.push('');
  }
  return out.join('\n');
}
