/**
 * Other serialisations of a JSON body a client may have signed instead of the bytes it
 * sent (§5.3 item 4): Python's `json.dumps` defaults (`", "` and `": "`, non-ASCII
 * escaped) and keys sorted (`sort_keys=True`, Go maps). Numbers and strings keep their
 * text as sent (`1.0` stays `1.0`), so only separators, key order and escapes change.
 * Browser-safe, no I/O.
 */

/** A JSON value with its scalar tokens kept as written. */
export type JsonNode =
  | { t: 'lit'; raw: string }
  | { t: 'arr'; items: JsonNode[] }
  | { t: 'obj'; entries: Array<[raw: string, key: string, value: JsonNode]> };

/** How to write the body again. */
export interface JsonForm {
  /** Object keys sorted by name (code point order, as Python and Go sort). */
  sortKeys: boolean;
  /** `compact`: `,` and `:`; `python`: Python's default `", "` and `": "`. */
  separators: 'compact' | 'python';
  /** Non-ASCII characters in strings written as `\uXXXX` (Python's default `ensure_ascii`). */
  asciiOnly: boolean;
}

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i] ?? '')) this.i++;
  }

  value(depth: number): JsonNode {
    if (depth > 64) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return { t: 'lit', raw: this.string() };
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.s.slice(this.i, this.i + 400),
    );
    if (m === null) throw new Error('not JSON');
    this.i += m[0].length;
    return { t: 'lit', raw: m[0] };
  }

  string(): string {
    const start = this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') return this.s.slice(start, ++this.i);
      else this.i++;
    }
    throw new Error('unterminated string');
  }

  array(depth: number): JsonNode {
    this.i++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return { t: 'arr', items };
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return { t: 'arr', items };
      if (c !== ',') throw new Error('not JSON');
    }
  }

  object(depth: number): JsonNode {
    this.i++;
    const entries: Array<[string, string, JsonNode]> = [];
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return { t: 'obj', entries };
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') throw new Error('not JSON');
      const raw = this.string();
      this.ws();
      if (this.s[this.i++] !== ':') throw new Error('not JSON');
      entries.push([raw, JSON.parse(raw) as string, this.value(depth + 1)]);
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return { t: 'obj', entries };
      if (c !== ',') throw new Error('not JSON');
    }
  }
}

/** The body as a tree of tokens, or undefined when it is not JSON. */
export function parseJsonTokens(text: string): JsonNode | undefined {
  try {
    const p = new Parser(text);
    const v = p.value(0);
    p.ws();
    return p.i === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A string token with every character outside printable ASCII escaped (`\u00e9`, as Python writes it). */
function asciiOnly(raw: string): string {
  return raw.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const byKey = (a: [string, string, JsonNode], b: [string, string, JsonNode]): number =>
  a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/** Write the tree in `form`. */
export function writeJson(node: JsonNode, form: JsonForm): string {
  const [item, colon] = form.separators === 'python' ? [', ', ': '] : [',', ':'];
  const lit = (raw: string): string => (form.asciiOnly && raw.startsWith('"') ? asciiOnly(raw) : raw);
  const write = (n: JsonNode): string => {
    if (n.t === 'lit') return lit(n.raw);
    if (n.t === 'arr') return `[${n.items.map(write).join(item)}]`;
    const entries = form.sortKeys ? [...n.entries].sort(byKey) : n.entries;
    return `{${entries.map(([raw, , v]) => lit(raw) + colon + write(v)).join(item)}}`;
  };
  return write(node);
}

/** Whether any string of the body holds a character outside printable ASCII. */
export function hasNonAscii(text: string): boolean {
  return /[^\x20-\x7e\t\n\r]/.test(text);
}
