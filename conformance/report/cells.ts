/**
 * The report's rule x route cells, as the HTML report and the matrix draw them: for
 * every rule and every route of spec/coverage.json, what this run found there. Read
 * from the checks' own per-route verdicts (`cells`); a check without them (info, skip,
 * or a report written before checks had cells) gives its status, a pass counting only
 * on the routes it reached with a deciding answer.
 */
import type { CheckReport, CheckStatus, RunReport } from '../judgement/types.js';

/** What a run found on one rule x route cell. */
export type CellStatus = CheckStatus | 'unanswered' | 'not-offered' | 'not-applicable' | 'explained' | 'not-run';

/** One cell of a run's matrix. */
export interface ReportCell {
  rule: string;
  route: string;
  status: CellStatus;
  /** The checks judging this cell (the first is the one a link points at). */
  checks: string[];
  /** Why: the coverage explanation, the route's control, or a per-route reason. */
  note?: string;
}

/** A run's cells with their axes (rules in catalog order, routes in spec/coverage.json order). */
export interface ReportCells {
  rules: string[];
  routes: string[];
  cells: ReportCell[];
}

/** Worst first: the status a cell takes when several checks judge it. */
const SEVERITY: readonly CellStatus[] = ['fail', 'unanswered', 'inconclusive', 'skip', 'info', 'pass'];

/**
 * The checks whose verdicts make a cell's (or a rule's) status: an INFO-level sub-check reports,
 * it does not judge, so it counts only where no check above INFO ran (a MUST rule shows its
 * MUST verdict, not "info" because an INFO sub-check outranks a pass).
 */
export function judging<T extends Pick<CheckReport, 'level'>>(ran: readonly T[]): T[] {
  const above = ran.filter((c) => c.level !== 'INFO');
  return above.length > 0 ? above : [...ran];
}

/** The status of several verdicts on one cell: the worst. */
export function worst(statuses: readonly CellStatus[]): CellStatus | undefined {
  for (const s of SEVERITY) if (statuses.includes(s)) return s;
  return statuses[0];
}

/** A check's own verdicts per route (`cells`, conformance/judgement/verdict.ts); empty for a check without route cells (info, skip). */
export function ownCells(c: CheckReport): Array<{ route: string; status: CellStatus; reason?: string }> {
  return (c.cells ?? []).map((x) => ({
    route: x.route,
    status: x.verdict,
    ...(x.reason === undefined ? {} : { reason: x.reason }),
  }));
}

function ownCell(c: CheckReport, route: string): { status: CellStatus; reason?: string } | undefined {
  return ownCells(c).find((x) => x.route === route);
}

/** A check's verdict on one route: its own cell, else its status (a pass only where it reached the route with a deciding answer). */
export function checkCell(c: CheckReport, route: string): { status: CellStatus; reason?: string } {
  const own = ownCell(c, route);
  if (own !== undefined) return own;
  if (c.status === 'pass' && c.routes !== undefined && !c.routes.includes(route))
    return { status: 'inconclusive', reason: `${c.id} passed without a deciding answer on ${route}` };
  return { status: c.status, ...(c.reason === undefined ? {} : { reason: c.reason }) };
}

/** The cells of a run, from its coverage matrix, its checks and its discovery. */
export function reportCells(r: RunReport): ReportCells {
  const cov = r.coverage;
  if (cov === undefined) return { rules: [...new Set(r.checks.map((c) => c.ruleId))], routes: [], cells: [] };
  const byId = new Map(r.checks.map((c) => [c.id, c]));
  const control = new Map((r.discovery?.controls ?? []).map((c) => [c.route, c]));
  const cells: ReportCell[] = cov.cells.map((cc) => {
    // the checks declared on the cell, and those that judged it themselves (the per-input checks, on the routes their forms went to)
    const judgedHere = r.checks.filter(
      (c) => c.ruleId === cc.rule && !cc.checks.includes(c.id) && (c.cells ?? []).some((x) => x.route === cc.route),
    );
    const ran = [
      ...cc.checks.map((id) => byId.get(id)).filter((c): c is CheckReport => c !== undefined),
      ...judgedHere,
    ];
    const base = { rule: cc.rule, route: cc.route, checks: ran.map((c) => c.id) };
    if (control.get(cc.route)?.state === 'not-offered')
      return { ...base, status: 'not-offered', note: `the target does not offer ${cc.route}` };
    if (ran.length === 0) {
      if (cc.explained !== undefined) return { ...base, status: 'explained', note: cc.explained };
      return {
        ...base,
        status: 'not-run',
        note: cc.checks.length === 0 ? 'no check covers this cell' : `not run in this run: ${cc.checks.join(', ')}`,
      };
    }
    const verdicts = judging(ran).map((c) => ({ c, v: checkCell(c, cc.route) }));
    const status = worst(verdicts.map((x) => x.v.status)) ?? 'not-run';
    // the link goes to the check that gave the cell its status
    const lead = verdicts.find((x) => x.v.status === status);
    const checks = lead === undefined ? base.checks : [lead.c.id, ...base.checks.filter((id) => id !== lead.c.id)];
    return { ...base, checks, status, ...(lead?.v.reason === undefined ? {} : { note: lead.v.reason }) };
  });
  const rules = [...new Set(cells.map((c) => c.rule))];
  return { rules, routes: cov.routes, cells };
}

/** The status of a rule over all its cells (the matrix across targets): the worst of its judged cells. */
export function ruleStatus(cells: readonly ReportCell[], rule: string, checks: readonly CheckReport[]): CellStatus {
  const mine = cells.filter((c) => c.rule === rule);
  const judged = mine.map((c) => c.status).filter((s) => SEVERITY.includes(s));
  const w = worst(judged);
  if (w !== undefined) return w;
  // a rule without route cells (or none judged): its checks' statuses
  const own = worst(judging(checks.filter((c) => c.ruleId === rule)).map((c) => c.status));
  if (own !== undefined) return own;
  if (mine.length > 0 && mine.every((c) => c.status === 'not-offered')) return 'not-offered';
  if (mine.some((c) => c.status === 'explained')) return 'explained';
  return 'not-run';
}
