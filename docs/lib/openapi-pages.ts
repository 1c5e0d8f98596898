/**
 * The HTTP API reference pages, rendered from the dereferenced OpenAPI document
 * (`spec/openapi.yaml`): an overview, one page per operation (parameters, request
 * body, responses, examples, the rules that apply) and a page of the named schemas.
 */
import { code, codeBlock, escapeMd, table } from './markdown.js';

/** A JSON Schema object as found in the dereferenced document (only the keywords the pages show). */
export interface SchemaObject {
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  additionalProperties?: boolean | SchemaObject;
}

/** An example object: a summary and a value. */
export interface ExampleObject {
  summary?: string;
  description?: string;
  value?: unknown;
}

/** A media type entry of a body. */
export interface MediaTypeObject {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

/** A parameter. */
export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

/** A response. */
export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}

/** An operation, with the kit's extensions. */
export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaTypeObject> };
  responses?: Record<string, ResponseObject>;
  security?: Array<Record<string, string[]>>;
  'x-security-type'?: string;
  'x-weight'?: number;
  'x-rules'?: string[];
}

/** The parts of a dereferenced OpenAPI 3.1 document the pages show. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary?: string; description?: string };
  servers?: Array<{
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }>;
  paths?: Record<string, Record<string, OperationObject | unknown>>;
  components?: {
    securitySchemes?: Record<string, { type: string; in?: string; name?: string; description?: string }>;
    schemas?: Record<string, SchemaObject>;
  };
}

/** One generated Markdown page: its file name (flat, next to the other guides) and text. */
export interface GeneratedPage {
  /** File name, e.g. `http-api.md`. */
  file: string;
  /** The page's Markdown, front matter included. */
  markdown: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** A one-line description of a value's schema: type, enum, pattern, bounds. */
export function typeSummary(s: SchemaObject | undefined): string {
  if (s === undefined) return 'any';
  if (s.const !== undefined) return `${code(JSON.stringify(s.const))} (constant)`;
  if (s.enum !== undefined)
    return `one of ${s.enum.map((v) => code(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
  const alts = s.anyOf ?? s.oneOf;
  if (alts !== undefined) return alts.map(typeSummary).join(', or ');
  if (s.allOf !== undefined)
    return s.allOf.some((p) => p.properties !== undefined) ? 'object' : s.allOf.map(typeSummary).join(' and ');
  const type = Array.isArray(s.type)
    ? s.type.join(' or ')
    : (s.type ?? (s.properties !== undefined ? 'object' : 'any'));
  const facts: string[] = [];
  if (s.pattern !== undefined) facts.push(`pattern ${code(s.pattern)}`);
  if (s.format !== undefined) facts.push(`format ${s.format}`);
  const bounds = (min: number | undefined, max: number | undefined, unit: string) => {
    const n = (k: number) => `${k} ${k === 1 ? unit.slice(0, -1) : unit}`;
    if (min !== undefined && max !== undefined) facts.push(`${min} to ${n(max)}`);
    else if (min !== undefined) facts.push(`at least ${n(min)}`);
    else if (max !== undefined) facts.push(`at most ${n(max)}`);
  };
  bounds(s.minLength, s.maxLength, 'characters');
  if (s.minimum !== undefined) facts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) facts.push(`≤ ${s.maximum}`);
  bounds(s.minItems, s.maxItems, 'items');
  if (s.default !== undefined) facts.push(`default ${code(JSON.stringify(s.default))}`);
  const base = type === 'array' ? `array of ${s.items?.title ?? typeSummary(s.items)}` : type;
  return facts.length === 0 ? base : `${base} (${facts.join(', ')})`;
}

/** Text for a table cell: one line, pipes escaped; Markdown inside is kept. */
function cell(s: string | undefined): string {
  return (s ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** The properties and required names of a schema, with `allOf` parts merged. */
function objectParts(s: SchemaObject): { properties: Record<string, SchemaObject>; required: Set<string> } {
  const properties: Record<string, SchemaObject> = { ...(s.properties ?? {}) };
  const required = new Set(s.required ?? []);
  for (const part of s.allOf ?? []) {
    const sub = objectParts(part);
    Object.assign(properties, sub.properties);
    for (const r of sub.required) required.add(r);
  }
  return { properties, required };
}

/** Rows of a field table: every property, nested objects and arrays of objects flattened with dotted paths. */
export function fieldRows(s: SchemaObject, prefix = '', depth = 0): string[][] {
  if (depth > 6) return [];
  if (s.type === 'array' && s.items !== undefined) return fieldRows(s.items, `${prefix}[]`, depth + 1);
  const { properties, required } = objectParts(s);
  const rows: string[][] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    rows.push([code(path), cell(typeSummary(prop)), required.has(name) ? 'yes' : 'no', cell(prop.description)]);
    const inner = prop.type === 'array' ? prop.items : prop;
    if (inner !== undefined && (inner.properties !== undefined || inner.allOf !== undefined)) {
      rows.push(...fieldRows(inner, prop.type === 'array' ? `${path}[]` : path, depth + 1));
    }
  }
  return rows;
}

/** A schema as Markdown: its description, its type line and its field table when it has fields. */
export function renderSchema(s: SchemaObject): string {
  const out: string[] = [];
  if (s.description !== undefined) out.push(s.description.trim(), '');
  out.push(`Type: ${typeSummary(s)}`, '');
  const rows = fieldRows(s);
  if (rows.length > 0) out.push(table(['Field', 'Type', 'Required', 'Description'], rows), '');
  return out.join('\n');
}

function renderExamples(examples: Record<string, ExampleObject> | undefined, single: unknown, lang: string): string {
  const out: string[] = [];
  if (single !== undefined) out.push(codeBlock(JSON.stringify(single, null, 2), lang), '');
  for (const [name, ex] of Object.entries(examples ?? {})) {
    out.push(`Example ${code(name)}${ex.summary === undefined ? '' : `: ${escapeMd(ex.summary)}`}`, '');
    if (ex.description !== undefined) out.push(ex.description.trim(), '');
    if (ex.value !== undefined)
      out.push(codeBlock(typeof ex.value === 'string' ? ex.value : JSON.stringify(ex.value, null, 2), lang), '');
  }
  return out.join('\n');
}

function renderContent(content: Record<string, MediaTypeObject> | undefined, level: string): string {
  const out: string[] = [];
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    out.push(`${level} ${mediaType}`, '');
    if (media.schema !== undefined) {
      if (media.schema.title !== undefined)
        out.push(`Schema: ${code(media.schema.title)} (see [Schemas](./http-api-schemas.md))`, '');
      out.push(renderSchema(media.schema));
    }
    out.push(renderExamples(media.examples, media.example, 'json'));
  }
  return out.join('\n');
}

/** The operations of the document, in path order then method order. */
export function operations(doc: OpenApiDocument): Array<{ method: string; path: string; op: OperationObject }> {
  const out: Array<{ method: string; path: string; op: OperationObject }> = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op !== undefined) out.push({ method: method.toUpperCase(), path, op: op as OperationObject });
    }
  }
  return out;
}

/** File name of an operation's page. */
export function operationFile(op: OperationObject, method: string, path: string): string {
  const id = op.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  return `http-api-${id}.md`;
}

function renderOperation(method: string, path: string, op: OperationObject, ruleLink: (id: string) => string): string {
  const out: string[] = ['---', `title: ${method} ${path}`, '---', `# ${method} ${path}`, ''];
  if (op.summary !== undefined) out.push(`**${escapeMd(op.summary)}**`, '');
  const facts: string[][] = [];
  if (op.operationId !== undefined) facts.push(['Operation ID', code(op.operationId)]);
  if (op['x-security-type'] !== undefined) facts.push(['Security type (§5.1)', code(op['x-security-type'])]);
  if (op.security !== undefined)
    facts.push(['Authentication', op.security.map((s) => Object.keys(s).map(code).join(' + ')).join(' or ')]);
  if (op['x-weight'] !== undefined) facts.push(['Weight', String(op['x-weight'])]);
  if (facts.length > 0) out.push(table(['', ''], facts), '');
  if (op.description !== undefined) out.push(op.description.trim(), '');

  out.push('## Parameters', '');
  const params = op.parameters ?? [];
  if (params.length === 0) out.push('None.', '');
  else {
    out.push(
      table(
        ['Name', 'In', 'Required', 'Type', 'Description', 'Example'],
        params.map((p) => [
          code(p.name),
          p.in,
          p.required === true ? 'yes' : 'no',
          cell(typeSummary(p.schema)),
          cell(p.description),
          p.example === undefined ? '' : code(String(p.example)),
        ]),
      ),
      '',
    );
    for (const p of params) {
      if (p.schema !== undefined && (p.schema.properties !== undefined || p.schema.allOf !== undefined)) {
        out.push(`### Fields of ${code(p.name)}`, '', renderSchema(p.schema));
      }
      if (p.examples !== undefined) out.push(renderExamples(p.examples, undefined, 'json'));
    }
  }

  out.push('## Request body', '');
  if (op.requestBody === undefined) out.push('None.', '');
  else {
    out.push(
      `${op.requestBody.required === true ? 'Required' : 'Optional'}.${op.requestBody.description === undefined ? '' : ` ${op.requestBody.description.trim()}`}`,
      '',
    );
    out.push(renderContent(op.requestBody.content, '###'));
  }

  out.push('## Responses', '');
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    out.push(`### ${status}`, '');
    if (res.description !== undefined) out.push(res.description.trim(), '');
    out.push(renderContent(res.content, '####'));
  }

  const rules = op['x-rules'] ?? [];
  if (rules.length > 0) {
    out.push(
      '## Rules',
      '',
      `The rules of the [rule catalog](./rules.md) that apply to this operation (${rules.length}):`,
      '',
    );
    out.push(rules.map((r) => `- ${ruleLink(r)}`).join('\n'), '');
  }
  return out.join('\n');
}

/** Every titled schema reachable from the operations' bodies, by title, plus the named component schemas. */
export function namedSchemas(doc: OpenApiDocument): Map<string, SchemaObject> {
  const out = new Map<string, SchemaObject>();
  const visit = (s: SchemaObject | undefined, depth: number): void => {
    if (s === undefined || depth > 8) return;
    if (s.title !== undefined && !out.has(s.title)) out.set(s.title, s);
    for (const p of Object.values(s.properties ?? {})) visit(p, depth + 1);
    visit(s.items, depth + 1);
    for (const p of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(p, depth + 1);
  };
  for (const { op } of operations(doc)) {
    for (const m of Object.values(op.requestBody?.content ?? {})) visit(m.schema, 0);
    for (const r of Object.values(op.responses ?? {}))
      for (const m of Object.values(r.content ?? {})) visit(m.schema, 0);
  }
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) if (!out.has(name)) out.set(name, s);
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * All pages of the HTTP API reference. `ruleLink` writes the link to one rule of the
 * catalog (and fails for an unknown ID).
 */
export function renderOpenApi(doc: OpenApiDocument, ruleLink: (id: string) => string): GeneratedPage[] {
  const ops = operations(doc);
  if (ops.length === 0) throw new Error('the OpenAPI document has no operations');
  const schemas = namedSchemas(doc);
  const children = [...ops.map(({ method, path, op }) => operationFile(op, method, path)), 'http-api-schemas.md'];

  const index: string[] = [
    '---',
    'title: HTTP API reference',
    'children:',
    ...children.map((c) => `  - ./${c}`),
    '---',
  ];
  index.push(
    `# ${escapeMd(doc.info.title)}`,
    '',
    `OpenAPI ${doc.openapi} document \`spec/openapi.yaml\`, version ${doc.info.version}. This reference is rendered from it at build time.`,
    '',
  );
  if (doc.info.summary !== undefined) index.push(`*${escapeMd(doc.info.summary)}*`, '');
  index.push('## Operations', '');
  index.push(
    table(
      ['Method', 'Path', 'Summary'],
      ops.map(({ method, path, op }) => [
        method,
        `[${code(path)}](./${operationFile(op, method, path)})`,
        cell(op.summary),
      ]),
    ),
    '',
  );
  if (doc.info.description !== undefined) index.push(doc.info.description.trim(), '');
  if (doc.servers !== undefined && doc.servers.length > 0) {
    index.push('## Servers', '');
    for (const s of doc.servers) {
      const vars = Object.entries(s.variables ?? {}).map(([k, v]) => `${code(k)} default ${code(v.default)}`);
      index.push(
        `- ${code(s.url)}${s.description === undefined ? '' : `: ${s.description.trim()}`}${vars.length > 0 ? ` (${vars.join(', ')})` : ''}`,
      );
    }
    index.push('');
  }
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  if (schemes.length > 0) {
    index.push('## Security schemes', '');
    for (const [name, s] of schemes) {
      index.push(
        `### ${name}`,
        '',
        `${s.type}${s.in === undefined ? '' : ` in ${s.in}`}${s.name === undefined ? '' : ` ${code(s.name)}`}`,
        '',
      );
      if (s.description !== undefined) index.push(s.description.trim(), '');
    }
  }
  index.push(
    `## Schemas`,
    '',
    `The [schemas page](./http-api-schemas.md) describes the ${schemas.size} named schemas field by field.`,
    '',
  );

  const schemaPage: string[] = ['---', 'title: Schemas', '---', '# Schemas', ''];
  schemaPage.push(
    'Every named schema of the request and response bodies. The JSON Schema files in `spec/schemas/` are generated from the TypeScript types of `src/core/types.ts`.',
    '',
  );
  for (const [name, s] of schemas) schemaPage.push(`## ${name}`, '', renderSchema(s));

  return [
    { file: 'http-api.md', markdown: index.join('\n') },
    ...ops.map(({ method, path, op }) => ({
      file: operationFile(op, method, path),
      markdown: renderOperation(method, path, op, ruleLink),
    })),
    { file: 'http-api-schemas.md', markdown: schemaPage.join('\n') },
  ];
}
