/**
 * The placeholder language of the guide templates in `docs/guides/`: `{{helper arg ...}}`.
 * Every value a guide shows from the vectors, the rule catalog or the code is inserted
 * by a helper at build time, so no number or signature in a guide is typed by hand.
 */

/** A named helper: receives the positional arguments and `key=value` options, returns Markdown. */
export type Helper = (args: string[], opts: Readonly<Record<string, string>>) => string;

/** Helpers by name. */
export type Helpers = Readonly<Record<string, Helper>>;

/** A template that could not be rendered: names the file and line of the placeholder. */
export class TemplateError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'TemplateError';
  }
}

/** A placeholder; `\\{{` (a backslash before the braces) writes literal braces instead. */
const PLACEHOLDER = /\\?\{\{([^{}]*)\}\}/g;

/** Split a placeholder's inside into its helper name, positional arguments and `key=value` options. */
export function parsePlaceholder(inside: string): { name: string; args: string[]; opts: Record<string, string> } {
  const words = inside
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const [name = '', ...rest] = words;
  const args: string[] = [];
  const opts: Record<string, string> = {};
  for (const w of rest) {
    const eq = w.indexOf('=');
    if (eq > 0) opts[w.slice(0, eq)] = w.slice(eq + 1);
    else args.push(w);
  }
  return { name, args, opts };
}

/**
 * Replace every placeholder of `text` by its helper's output. An unknown helper, or a
 * helper that throws, fails the whole render with the file and line. `\\{{...}}` is
 * written as `{{...}}` (for text such as GitHub Actions expressions).
 */
export function renderTemplate(file: string, text: string, helpers: Helpers): string {
  return text.replace(PLACEHOLDER, (whole: string, inside: string, offset: number) => {
    if (whole.startsWith('\\')) return whole.slice(1);
    const line = text.slice(0, offset).split('\n').length;
    const { name, args, opts } = parsePlaceholder(inside);
    const helper = Object.hasOwn(helpers, name) ? helpers[name] : undefined;
    if (helper === undefined) throw new TemplateError(file, line, `unknown placeholder ${whole}`);
    try {
      return helper(args, opts);
    } catch (err) {
      throw new TemplateError(file, line, `${whole}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}
