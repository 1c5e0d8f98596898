/** Types of harness/mutation/score-lib.mjs. */
export interface MutantRow {
  key: string;
  id: string;
  file: string;
  line: number;
  status: string;
  mutator: string;
  replacement: string;
}
export interface StrykerReport {
  files: Record<
    string,
    {
      source: string;
      mutants: Array<{
        id: string;
        mutatorName: string;
        replacement: string;
        status: string;
        location: { start: { line: number; column: number }; end: { line: number; column: number } };
      }>;
    }
  >;
}
export interface EquivalentList {
  classes: Record<string, string>;
  mutants: Array<{ key: string; class: string; note?: string }>;
}
export function mutantRows(report: StrykerReport, judged: ReadonlyMap<string, 'NotServer' | 'NoCoverage'>): MutantRow[];
export function unjudged(logText: string): Map<string, 'NotServer' | 'NoCoverage'>;
/** The counts of a scored run, as harness/mutation/score.json records them (the survivors' rows aside). */
export interface ScoreFigures {
  notServer: number;
  mutants: number;
  killed: number;
  timedOut: number;
  survived: number;
  notCovered: number;
  equivalent: number;
  score: number;
  scoreAll: number;
}
export function scoreOf(
  rows: readonly MutantRow[],
  equivalent: EquivalentList,
): ScoreFigures & { unexplained: MutantRow[]; stale: string[] };
