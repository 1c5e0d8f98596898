/**
 * The input domain page: `spec/domain.json` as tables, one per input of the seed, each form
 * with its class, the rule its refusal is attributed to, the decision when the readings
 * disagree, and the parsers that accept it (linked to their cited sources below).
 */

import type { DomainCatalogue, DomainForm } from '../../conformance/judgement/domain.js';

/** The page title. */
export const DOMAIN_TITLE = 'What the kit sends, and which parsers accept it';

/** The catalogue as the page reads it (spec/domain.schema.json): the kit's own types. */
export type DomainData = Pick<DomainCatalogue, 'description' | 'parsers' | 'inputs' | 'forms'>;
type Form = DomainForm;

/** A value shown in a table cell: code, with control and invisible characters made visible. */
function shown(v: string): string {
  const visible = v
    .replace(/[\u0000-\u001f\u007f\u00a0\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\|/g, '\\|');
  const short = [...visible].length > 60 ? `${[...visible].slice(0, 57).join('')}…` : visible;
  return short === '' ? '(empty)' : `\`${short.replace(/`/g, "'")}\``;
}

/** How a form travels, in words: its value, the time input sent with it, the routes it keeps to. */
function valueOf(f: Form): string {
  const withs = Object.entries(f.with ?? {}).map(([k, v]) => `, with ${k} ${shown(v)}`);
  const only = f.routes === undefined ? '' : `, on ${f.routes.join(', ')}`;
  const where = f.everyEndpoint ? (f.routes === undefined ? ', on every endpoint' : `${only}, each endpoint`) : only;
  return `${ownValue(f)}${withs.join('')}${where}`;
}

function ownValue(f: Form): string {
  const name = f.key === undefined ? '' : `as \`${f.key}\`: `;
  const dup = f.duplicate === undefined ? '' : `, then again ${shown(f.duplicate)}`;
  if (f.absent) return 'left out';
  if (f.text !== undefined) return `${name}${shown(f.text)}${dup}`;
  if (f.json !== undefined) return `${name}JSON ${shown(f.json)}`;
  if (f.body !== undefined) return `body ${shown(f.body)}`;
  if (f.element !== undefined) return `element ${shown(f.element)}`;
  return `query: ${f.query ?? ''}`;
}

const CLASS_WORD = { canonical: 'canonical', unusual: 'valid, unusual', invalid: 'invalid' } as const;

/** The page's Markdown for the catalogue. */
export function renderDomainPage(data: DomainData, ruleLink: (id: string) => string): string {
  const counts = { canonical: 0, unusual: 0, invalid: 0 };
  for (const f of data.forms) counts[f.class]++;
  const out: string[] = [
    '---',
    `title: ${DOMAIN_TITLE}`,
    '---',
    `# ${DOMAIN_TITLE}`,
    '',
    `The input domain catalogue (\`spec/domain.json\`, schema \`spec/domain.schema.json\`) lists ${data.forms.length} forms over ${data.inputs.length} inputs: ${counts.canonical} canonical, ${counts.unusual} valid but unusual, ${counts.invalid} invalid. Every default run sends every form at least once: each invalid form alone, on a route chosen by the seed, so a refusal names its rule; the valid forms several to an accepted request. A form the readings of the seed disagree on names its decision and is reported as INFO.`,
    '',
    'Values in braces are filled in per request: `{now}` the server time in milliseconds, `{w}` a window of 5000, `{sig}` the genuine signature, `{key}` the API key, `{symbol}` the target symbol, `{cid}` a fresh client id, `{cid255:é}` a client id padded with `é` to 255 characters, `{order}` a valid order as JSON.',
    '',
  ];
  for (const input of data.inputs) {
    const forms = data.forms.filter((f) => f.input === input.id);
    out.push(
      `## ${input.id}`,
      '',
      `§${input.section}, ${input.type}; refusals of its invalid forms count toward ${ruleLink(input.ruleId)} unless the form names another rule.`,
      '',
      '| Form | Class | Value | Rule | Accepted by | Note |',
      '|---|---|---|---|---|---|',
    );
    for (const f of forms) {
      const cls =
        f.decision === undefined ? CLASS_WORD[f.class] : `${CLASS_WORD[f.class]} ([${f.decision}](./decisions.md))`;
      const parsers = (f.acceptedBy ?? []).map((p) => `[${p}](#parser-${p})`).join(', ');
      out.push(
        `| ${f.id} | ${cls} | ${valueOf(f)} | ${f.ruleId === undefined ? '' : ruleLink(f.ruleId)} | ${parsers} | ${(f.note ?? '').replace(/\|/g, '\\|')} |`,
      );
    }
    out.push('');
  }
  out.push('## Parsers', '', '| Parser | Language | Function | Behaviour | Source |', '|---|---|---|---|---|');
  for (const p of data.parsers)
    out.push(
      `| <a id="parser-${p.id}"></a>${p.id} | ${p.language} | ${p.function.replace(/\|/g, '\\|')} | ${p.behaviour.replace(/\|/g, '\\|')} | \`${p.source}\` |`,
    );
  out.push('');
  return out.join('\n');
}
