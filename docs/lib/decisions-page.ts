/**
 * The decisions record page: `spec/decisions.md` as it is, with a title for the site
 * and an anchor equal to each decision ID (`#D-EMPTY-BATCH`) on its table row.
 */

/** The page's Markdown for the text of `spec/decisions.md`. */
export function renderDecisionsPage(markdown: string): string {
  const body = markdown.replace(/^\|\s*(D-[A-Z0-9-]+)\s*\|/gm, (_row, id: string) => `| <a id="${id}"></a>${id} |`);
  return ['---', 'title: Decisions record', '---', body].join('\n');
}
