/**
 * The generated rule catalog page: every rule of `spec/rules.json` with its level,
 * seed section, quoted sentence, note and the conformance checks that enforce it.
 * Each rule has two anchors: its ID exactly (`#SIG-REQUIRED`, the stable one the
 * runner's failure output links to) and TypeDoc's heading anchor (`#sig-required`,
 * used by links inside the site).
 */
import type { Rule, RuleLevel } from '../../src/rules.js';
import type { RuleFamily } from '../../src/core/rule-id.js';
import type { CoverageMatrix } from '../../conformance/judgement/coverage.js';
import { code, escapeMd, headingSlug } from './markdown.js';

/** What the page needs of a conformance check (a structural subset of the runner's check definition). */
export interface CheckSummary {
  /** Stable check name, e.g. `SIG-PLACEMENT-QUERY.v1.1`. */
  id: string;
  /** The rule it enforces. */
  ruleId: string;
  /** One line saying what is checked. */
  title: string;
  /** The check's own level when it differs from the rule's. */
  level?: RuleLevel;
  /** The routes it covers (coverage matrix). */
  covers?: readonly string[];
}

/** Title of the rule catalog page (TypeDoc derives its file name, `documents/Rule_catalog.html`, from it). */
export const RULES_TITLE = 'Rule catalog';

/** Family headings, in page order. */
export const FAMILY_TITLES: Readonly<Record<RuleFamily, string>> = {
  SIG: 'Signature',
  TIME: 'Time window',
  AUTH: 'Authentication',
  BATCH: 'Batch orders',
  ORDER: 'Order fields',
  RESULT: 'Batch results',
  SCHEMA: 'Response schemas',
  ROBUST: 'Robustness',
};

/** Link from a page next to the rule catalog to one rule (the heading anchor TypeDoc validates). */
export function ruleLink(id: string, page = './rules.md'): string {
  return `[${code(id)}](${page}#${headingSlug(id)})`;
}

/** Turn decision IDs (`D-...`) in a note into links to the decisions record. */
function linkDecisions(text: string): string {
  return text.replace(/\bD-[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g, (id) => `[${id}](./decisions.md)`);
}

/**
 * The Markdown of the rule catalog page. Throws when a check names a rule the catalog
 * does not have, so a renamed rule cannot leave a check pointing nowhere.
 */
export function renderRulesPage(
  rules: ReadonlyMap<string, Rule>,
  checks: readonly CheckSummary[],
  coverage?: CoverageMatrix,
): string {
  const byRule = new Map<string, CheckSummary[]>();
  for (const c of checks) {
    if (!rules.has(c.ruleId))
      throw new Error(`check ${c.id} names rule ${c.ruleId}, which spec/rules.json does not have`);
    const list = byRule.get(c.ruleId) ?? [];
    list.push(c);
    byRule.set(c.ruleId, list);
  }
  const all = [...rules.values()];
  const count = (level: RuleLevel) => all.filter((r) => r.level === level).length;
  const out: string[] = [
    '---',
    `title: ${RULES_TITLE}`,
    '---',
    `# ${RULES_TITLE}`,
    '',
    `Every normative sentence of the seed is a rule with a stable name. ${all.length} rules: ` +
      `${count('MUST')} MUST (a failure fails the run), ${count('SHOULD')} SHOULD (reported; fails only with \`--strict\`), ` +
      `${count('INFO')} INFO (observed and reported, never a failure in the core profile).`,
    '',
    `Each rule's anchor is its ID: this page's address followed by \`#SIG-REQUIRED\` opens that rule (the runner's failure output links here that way). ` +
      `Where the seed leaves a point open, the rule's note names the decision taken in the [decisions record](./decisions.md). ` +
      `${checks.length} conformance checks enforce these rules.`,
    '',
  ];
  if (coverage !== undefined) {
    const t = coverage.totals;
    out.push(
      `Coverage (a traceability matrix): each rule applies on some of the ${coverage.routes.length} routes ` +
        `(${coverage.routes.map((r) => code(r)).join(', ')}: the batch's JSON body, and each single-order endpoint with its parameters in the query, a form body, or split). ` +
        `Of the ${t.cells} cells, ${t.covered} are covered by a check that sends there and ${t.explained} are explained (spec/coverage.json)` +
        `${t.missing > 0 ? `; ${t.missing} are missing` : ''}. Each rule below lists its cells.`,
      '',
    );
  }
  const families = Object.keys(FAMILY_TITLES) as RuleFamily[];
  const unknown = all.filter((r) => !families.includes(r.family));
  if (unknown.length > 0) throw new Error(`rules with an unknown family: ${unknown.map((r) => r.id).join(', ')}`);
  for (const family of families) {
    const members = all.filter((r) => r.family === family);
    if (members.length === 0) continue;
    out.push(`## ${family}: ${FAMILY_TITLES[family]}`, '');
    for (const r of members) {
      const sections = [r.section, ...(r.alsoSections ?? [])].map((s) => `§${s}`).join(', ');
      out.push(`### ${r.id}`, '', `<a id="${r.id}"></a>**${r.level}** · seed ${sections}`, '');
      out.push(`> ${escapeMd(r.sentence)}`, '');
      if (r.note !== undefined) out.push(linkDecisions(escapeMd(r.note)), '');
      const enforcing = byRule.get(r.id) ?? [];
      if (enforcing.length === 0) {
        out.push('Checks: none in this version of the runner.', '');
      } else {
        out.push('Checks:', '');
        for (const c of enforcing) {
          const level = c.level !== undefined && c.level !== r.level ? ` (${c.level})` : '';
          out.push(`- ${code(c.id)}${level}: ${escapeMd(c.title)}`);
        }
        out.push('');
      }
      const cells = coverage?.cells.filter((c) => c.rule === r.id) ?? [];
      if (cells.length > 0) {
        out.push('| Route | Covered by, or why not observed |', '|---|---|');
        for (const c of cells) {
          const by =
            c.checks.length > 0
              ? c.checks.map((id) => code(id)).join(', ')
              : c.explained !== undefined
                ? `not observed: ${escapeMd(c.explained)}`
                : '**missing**';
          out.push(`| ${code(c.route)} | ${by} |`);
        }
        out.push('');
      }
    }
  }
  return out.join('\n');
}
