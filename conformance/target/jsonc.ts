/**
 * JSON with comments and trailing commas (the format of the target description and the
 * matrix's targets file), read with `jsonc-parser`, the reader VS Code uses: errors say
 * where (line and column), an unknown key is named with the closest known one, and a key
 * that looks like a credential is refused with the reason.
 */
import {
  findNodeAtLocation,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
  getNodeValue,
} from 'jsonc-parser';

/** Plain words for jsonc-parser's error codes. */
const WORDS: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes expected',
  ValueExpected: 'a value expected',
  ColonExpected: 'a colon expected',
  CommaExpected: 'a comma expected',
  CloseBraceExpected: 'a closing } expected',
  CloseBracketExpected: 'a closing ] expected',
  EndOfFileExpected: 'nothing expected after the value',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated /* comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/**
 * One line per syntax problem, `line:column: problem`, each said once (jsonc-parser reports one
 * error per construct it could not close, several at one place). A file whose value began and
 * whose every error runs to its very end (an unterminated string included) was cut short: one
 * line says so, with the closing brackets it lacks.
 */
function syntaxErrors(text: string, found: readonly ParseError[], begun: boolean): string[] {
  const place = (offset: number): string => {
    const { line, column } = lineColumn(text, offset);
    return `${line}:${column}`;
  };
  if (begun && found.length > 0 && found.every((e) => e.offset + e.length >= text.length)) {
    const count = (code: string): number => found.filter((e) => printParseErrorCode(e.error) === code).length;
    const missing = [
      [count('CloseBraceExpected'), '}'],
      [count('CloseBracketExpected'), ']'],
    ]
      .filter(([n]) => (n as number) > 0)
      .map(([n, c]) => `${n} closing ${c}`)
      .join(' and ');
    return [
      `${place(text.length)}: the file ends before its JSON value does${missing === '' ? '' : ` (${missing} missing)`}: is it cut short?`,
    ];
  }
  const lines: string[] = [];
  for (const e of found) {
    const code = printParseErrorCode(e.error);
    const line = `${place(e.offset)}: ${WORDS[code] ?? code}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

/** A parsed document: its value, and where each JSON Pointer of it sits (`line:column`). */
export interface JsoncDocument {
  value: unknown;
  /** `line:column` of the value at a JSON Pointer (`/order/price`), or of the key itself with `key`. */
  where(pointer: string, key?: string): string;
}

/**
 * Parse JSONC text; `errors` gets one `line:column: problem` line per syntax error (empty when
 * the text is valid, and then `value` is the document's value).
 */
export function parseJsonc(text: string): { doc: JsoncDocument; errors: string[] } {
  const found: ParseError[] = [];
  const root = parseTree(text, found, { allowTrailingComma: true, disallowComments: false });
  const errors = syntaxErrors(text, found, root !== undefined);
  if (root === undefined && errors.length === 0) errors.push('1:1: the file is empty (a JSON value expected)');
  const at = (node: Node | undefined): string => {
    const { line, column } = lineColumn(text, node?.offset ?? 0);
    return `${line}:${column}`;
  };
  const segments = (pointer: string): string[] =>
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const doc: JsoncDocument = {
    value: root === undefined ? undefined : getNodeValue(root),
    where(pointer, key) {
      if (root === undefined) return '1:1';
      const path = segments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const node = path.length === 0 ? root : findNodeAtLocation(root, path);
      if (key === undefined || node?.type !== 'object') return at(node);
      const prop = node.children?.find((p) => p.children?.[0]?.value === key);
      return at(prop?.children?.[0] ?? node);
    },
  };
  return { doc, errors };
}

/** A key's name suggests it holds a credential (an API key, a secret, a password, a token). */
export function looksLikeCredential(key: string): boolean {
  return /secret|api[-_]?key|passw(or)?d|passphrase|token|credential|private[-_]?key/i.test(key);
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), letter case ignored. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        v = Math.min(v, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return d[s.length]?.[t.length] ?? 0;
}

/** The known key closest to `key`, when close enough to be a typo (at most a third of its letters off, and `most`). */
export function closestKey(key: string, known: readonly string[], most = Number.POSITIVE_INFINITY): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(key, k);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.min(most, Math.max(1, Math.floor(Math.max(key.length, best.length) / 3)))
    ? best
    : undefined;
}

/**
 * A key the schema does not know that looks like a credential (`secret`, `apiKey`, `password`,
 * `token`...), unless it is a one- or two-letter typo of a known key (`apiKeyHeadr`).
 */
export function credentialKey(key: string, known: readonly string[]): boolean {
  return looksLikeCredential(key) && closestKey(key, known, 2) === undefined;
}

/** `unknown key "paht": did you mean "path"?` or, with no close key, the known keys listed. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = closestKey(key, known);
  return near !== undefined
    ? `unknown key "${key}": did you mean "${near}"?`
    : `unknown key "${key}" (known: ${known.map((k) => `"${k}"`).join(', ')})`;
}
