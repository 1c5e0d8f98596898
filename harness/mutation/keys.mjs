/**
 * A mutant's key across runs and edits elsewhere in its file: the file, the mutator, the text
 * of the source line it changes and the replacement (Stryker's numeric ids change with every
 * run; line numbers with every edit above).
 */
export function mutantKey(file, source, m) {
  const line = source.split('\n')[m.location.start.line - 1] ?? '';
  return `${file} | ${m.mutatorName} | ${line.trim()} | ${m.replacement.replace(/\s+/g, ' ')}`;
}
