/** Types of harness/mutation/keys.mjs. */
export function mutantKey(
  file: string,
  source: string,
  m: { mutatorName: string; replacement: string; location: { start: { line: number } } },
): string;
