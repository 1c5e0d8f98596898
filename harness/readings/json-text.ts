/**
 * JSON texts as a server of another reading reads them (D-JSON-TEXT): a tree that keeps each
 * number's text and every member of an object in order (repeats included), read strictly
 * (RFC 8259) or with the extensions stock parsers accept (a byte order mark, comments,
 * trailing commas, single-quoted strings: RFC 8259 §9 lets a parser accept them), and written
 * back as plain JSON. Test harness only.
 */

export type JsonNode =
  | { kind: 'object'; members: Array<[string, JsonNode]> }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' };

/** The extensions a lenient reader accepts. */
export interface Leniency {
  bom?: boolean;
  comments?: boolean;
  trailingCommas?: boolean;
  singleQuotes?: boolean;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** The tree of a JSON text, or undefined when the reader refuses it. */
export function readJsonText(text: string, lenient: Leniency = {}): JsonNode | undefined {
  let i = 0;
  if (lenient.bom === true && text.startsWith('\uFEFF')) i = 1;
  const fail = (): never => {
    throw new Error('no JSON');
  };
  const ws = (): void => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (lenient.comments === true && c === '/' && text[i + 1] === '/') {
        const end = text.indexOf('\n', i);
        i = end === -1 ? text.length : end + 1;
      } else if (lenient.comments === true && c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        if (end === -1) fail();
        i = end + 2;
      } else return;
    }
  };
  const str = (): string => {
    const q = text[i];
    if (q !== '"' && !(q === "'" && lenient.singleQuotes === true)) fail();
    i++;
    let out = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) return fail();
      if (c === q) {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e === "'" && q === "'") {
          out += "'";
          i += 2;
        } else if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail();
        continue;
      }
      if ((c.codePointAt(0) ?? 0) < 0x20) fail();
      out += c;
      i++;
    }
  };
  const value = (depth: number): JsonNode => {
    if (depth > 64) fail();
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const close = c === '{' ? '}' : ']';
      const members: Array<[string, JsonNode]> = [];
      const items: JsonNode[] = [];
      ws();
      if (text[i] === close) {
        i++;
        return c === '{' ? { kind: 'object', members } : { kind: 'array', items };
      }
      for (;;) {
        if (c === '{') {
          ws();
          const k = str();
          ws();
          if (text[i++] !== ':') fail();
          members.push([k, value(depth + 1)]);
        } else items.push(value(depth + 1));
        ws();
        const d = text[i++];
        if (d === ',' && lenient.trailingCommas === true) {
          ws();
          if (text[i] === close) {
            i++;
            return c === '{' ? { kind: 'object', members } : { kind: 'array', items };
          }
          continue;
        }
        if (d === close) return c === '{' ? { kind: 'object', members } : { kind: 'array', items };
        if (d !== ',') fail();
      }
    }
    if (c === '"' || c === "'") return { kind: 'string', value: str() };
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m !== null) {
      i = NUMBER.lastIndex;
      return { kind: 'number', text: m[0] };
    }
    for (const lit of ['true', 'false', 'null'] as const)
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return { kind: 'literal', text: lit };
      }
    return fail();
  };
  try {
    const v = value(0);
    ws();
    return i === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Plain JSON text of a tree (numbers as their text, members in order, repeats kept). */
export function writeJsonText(n: JsonNode): string {
  switch (n.kind) {
    case 'object':
      return `{${n.members.map(([k, v]) => `${JSON.stringify(k)}:${writeJsonText(v)}`).join(',')}}`;
    case 'array':
      return `[${n.items.map(writeJsonText).join(',')}]`;
    case 'string':
      return JSON.stringify(n.value);
    case 'number':
      return n.text;
    case 'literal':
      return n.text;
  }
}

/** An object's members with each name kept once: the first value (`first`) or the last. */
export function dedupe(n: JsonNode, keep: 'first' | 'last'): JsonNode {
  if (n.kind === 'array') return { kind: 'array', items: n.items.map((x) => dedupe(x, keep)) };
  if (n.kind !== 'object') return n;
  const out = new Map<string, JsonNode>();
  for (const [k, v] of n.members) if (keep === 'last' || !out.has(k)) out.set(k, dedupe(v, keep));
  // (the order of first appearance)
  const order = [...new Set(n.members.map(([k]) => k))];
  return { kind: 'object', members: order.map((k) => [k, out.get(k) as JsonNode]) };
}

/** The depth of nested arrays and objects of a tree (a flat batch has 2). */
export function depthOf(n: JsonNode): number {
  if (n.kind === 'array') return 1 + Math.max(0, ...n.items.map(depthOf));
  if (n.kind === 'object') return 1 + Math.max(0, ...n.members.map(([, v]) => depthOf(v)));
  return 0;
}
