/**
 * The coverage matrix: for every rule of the catalog and every route it
 * applies to (spec/coverage.json), the checks that cover the cell, or the reason it is
 * not observed. Printed by `spotcheck run --list`, carried by the JSON report, shown on
 * the docs site beside the rule catalog; a test fails when a cell is neither.
 */
import { readKitJson } from '../../src/paths.js';
import { rules } from '../../src/rules.js';

/** spec/coverage.json. */
export interface CoverageData {
  routes: string[];
  rules: Record<string, { appliesTo: 'all' | string[]; explained?: Record<string, string> }>;
}

/** One cell: a rule on a route. */
export interface CoverageCell {
  rule: string;
  route: string;
  /** IDs of the checks covering it (empty when explained or missing). */
  checks: string[];
  /** Why it is not observed, when no check covers it. */
  explained?: string;
}

/** The whole matrix and its totals. */
export interface CoverageMatrix {
  routes: string[];
  cells: CoverageCell[];
  totals: { cells: number; covered: number; explained: number; missing: number };
}

let data: CoverageData | undefined;

/** The applicability data (spec/coverage.json). */
export function coverageData(): CoverageData {
  data ??= readKitJson<CoverageData>('spec', 'coverage.json');
  return data;
}

/** The routes a rule applies to. */
export function appliesTo(d: CoverageData, ruleId: string): string[] {
  const a = d.rules[ruleId]?.appliesTo;
  return a === undefined ? [] : a === 'all' ? d.routes : a;
}

/** Build the matrix from the checks' declared cells (`covers`). */
export function coverageMatrix(
  checks: ReadonlyArray<{ id: string; ruleId: string; covers?: readonly string[] | undefined }>,
  d: CoverageData = coverageData(),
): CoverageMatrix {
  const cells: CoverageCell[] = [];
  for (const ruleId of rules().keys()) {
    for (const route of appliesTo(d, ruleId)) {
      const by = checks.filter((c) => c.ruleId === ruleId && (c.covers ?? []).includes(route)).map((c) => c.id);
      const why = d.rules[ruleId]?.explained?.[route];
      cells.push({
        rule: ruleId,
        route,
        checks: by,
        ...(by.length === 0 && why !== undefined ? { explained: why } : {}),
      });
    }
  }
  const covered = cells.filter((c) => c.checks.length > 0).length;
  const explained = cells.filter((c) => c.explained !== undefined).length;
  return {
    routes: d.routes,
    cells,
    totals: { cells: cells.length, covered, explained, missing: cells.length - covered - explained },
  };
}

/** The matrix as text: one row per rule, one column per route (`x` covered, `e` explained, `.` missing, blank: does not apply). */
export function renderMatrix(m: CoverageMatrix): string {
  const width = Math.max(...[...new Set(m.cells.map((c) => c.rule))].map((r) => r.length));
  const head = `${''.padEnd(width)}  ${m.routes.map((r) => r.padEnd(11)).join('')}`;
  const lines = [head];
  for (const rule of new Set(m.cells.map((c) => c.rule))) {
    const row = m.routes.map((route) => {
      const c = m.cells.find((x) => x.rule === rule && x.route === route);
      const mark = c === undefined ? '' : c.checks.length > 0 ? 'x' : c.explained !== undefined ? 'e' : '.';
      return mark.padEnd(11);
    });
    lines.push(`${rule.padEnd(width)}  ${row.join('')}`.trimEnd());
  }
  const t = m.totals;
  lines.push(
    '',
    `x covered by a check, e explained in spec/coverage.json, . missing: ${t.cells} cells, ${t.covered} covered, ${t.explained} explained, ${t.missing} missing`,
  );
  return `${lines.join('\n')}\n`;
}
