/**
 * The mutation score, pure: from Stryker's report (mutation-testing-report schema), the judge's
 * log (mutants the unmutated run never reached) and the equivalent list, each mutant's outcome
 * and the score over the mutants not listed as equivalent.
 */
import { mutantKey } from './keys.mjs';

const DETECTED = new Set(['Killed', 'Timeout']);

/**
 * Each compiling mutant with its stable key and outcome: `NoCoverage` (passed unjudged: the unmutated
 * run never reached it), `NotServer` (passed unjudged: outside the server's bundle, code only the
 * kit or the client runs).
 */
export function mutantRows(report, judged) {
  const rows = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const seen = new Map();
    // numbered in source order, so mutants sharing a line's text and replacement keep their numbers whatever order a run lists them in
    const inOrder = [...mutants].sort(
      (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    for (const m of inOrder) {
      if (m.status === 'CompileError' || m.status === 'RuntimeError' || m.status === 'Ignored') continue;
      const base = mutantKey(file, source, m);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const status = m.status === 'Survived' ? (judged.get(m.id) ?? m.status) : m.status;
      rows.push({
        key: n === 1 ? base : `${base} #${n}`,
        id: m.id,
        file,
        line: m.location.start.line,
        status,
        mutator: m.mutatorName,
        replacement: m.replacement,
      });
    }
  }
  return rows;
}

/** The mutants the judge passed unjudged, by id: `NotServer` (its log's `inServer: false`) or `NoCoverage` (`covered: false`). */
export function unjudged(logText) {
  const out = new Map();
  for (const line of logText.split('\n')) {
    if (line.trim() === '') continue;
    const j = JSON.parse(line);
    if (j.inServer === false) out.set(j.mutant, 'NotServer');
    else if (j.covered === false) out.set(j.mutant, 'NoCoverage');
  }
  return out;
}

/**
 * The score: detected over the server's mutants not listed equivalent; the survivors without a
 * listed reason; listed keys no survivor has (stale). Mutants outside the server are counted apart.
 */
export function scoreOf(allRows, equivalent) {
  const listed = new Map(equivalent.mutants.map((m) => [m.key, m]));
  const rows = allRows.filter((r) => r.status !== 'NotServer');
  const detected = rows.filter((r) => DETECTED.has(r.status));
  const survived = rows.filter((r) => !DETECTED.has(r.status));
  const equivalentRows = survived.filter((r) => listed.has(r.key));
  const unexplained = survived.filter((r) => !listed.has(r.key));
  const survivorKeys = new Set(survived.map((r) => r.key));
  const stale = [...listed.keys()].filter((k) => !survivorKeys.has(k));
  const considered = rows.length - equivalentRows.length;
  return {
    notServer: allRows.length - rows.length,
    mutants: rows.length,
    killed: rows.filter((r) => r.status === 'Killed').length,
    timedOut: rows.filter((r) => r.status === 'Timeout').length,
    survived: survived.length,
    notCovered: survived.filter((r) => r.status === 'NoCoverage').length,
    equivalent: equivalentRows.length,
    unexplained,
    stale,
    score: considered === 0 ? 100 : Math.round((1000 * detected.length) / considered) / 10,
    scoreAll: rows.length === 0 ? 100 : Math.round((1000 * detected.length) / rows.length) / 10,
  };
}
