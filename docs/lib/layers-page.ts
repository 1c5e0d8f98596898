/**
 * The layers page: `spec/layers.json` as one table per layer a request crosses, each failure
 * mode with its public sources and the probes of a default run that see it (or why a black box
 * cannot).
 */

/** The page title. */
export const LAYERS_TITLE = 'The layers a request crosses, and how each fails';

/** spec/layers.json. */
export interface LayersData {
  description: string;
  layers: Array<{ id: string; name: string; what: string }>;
  failureModes: Array<{
    id: string;
    layer: string;
    failure: string;
    sources: string[];
    probes?: { forms?: string[]; checks?: string[] };
    blackBox?: string;
  }>;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The page's Markdown; `linkRule` links a check ID to its rule on the rule catalog page. */
export function renderLayersPage(data: LayersData, linkRule: (id: string) => string): string {
  const out = [
    '---',
    `title: ${LAYERS_TITLE}`,
    '---',
    `# ${LAYERS_TITLE}`,
    '',
    `${data.description} A form is an input's value as [What the kit sends](./domain.md) lists it; a check links to its rule.`,
    '',
  ];
  for (const layer of data.layers) {
    const modes = data.failureModes.filter((m) => m.layer === layer.id);
    out.push(
      `## ${layer.name} (${modes.length})`,
      '',
      `${layer.what}.`,
      '',
      '| Failure | Sources | Seen by |',
      '|---|---|---|',
    );
    for (const m of modes) {
      // (as text: the site links nowhere outside itself, docs/lib/link-check.ts)
      const sources = m.sources.map((s) => `\`${s}\``).join(' ');
      const seen =
        m.probes === undefined
          ? `not seen by a black box: ${m.blackBox ?? ''}`
          : [...(m.probes.forms ?? []).map((f) => `\`${f}\``), ...(m.probes.checks ?? []).map((c) => linkRule(c))].join(
              ', ',
            );
      out.push(`| ${cell(m.failure)} | ${sources} | ${cell(seen)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
