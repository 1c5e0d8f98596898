/**
 * The README shipped in the package, from the repository's: written for someone who
 * installed the kit. `<!-- clone-only -->...<!-- /clone-only -->` (clone instructions,
 * the repository's own CI, benches, docs build, layout) is left out, and the text of
 * `<!-- package-only ... -->` comments (install instructions) is shown.
 */
export function packageReadme(text) {
  return text
    .replace(/<!-- clone-only -->[\s\S]*?<!-- \/clone-only -->\n?/g, '')
    .replace(/<!-- package-only\n([\s\S]*?)-->\n?/g, '$1')
    .replace(/\n{3,}/g, '\n\n');
}
