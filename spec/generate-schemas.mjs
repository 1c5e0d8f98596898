#!/usr/bin/env node
/**
 * Generates spec/schemas/*.schema.json from the wire types in src/core/types.ts with
 * typescript-json-schema. `npm run schemas` writes the files; `--check` only
 * compares and exits 1 when a committed file differs (drift). Tests import
 * `generateSchemas()` and compare without writing.
 *
 * Output: JSON Schema 2020-12 (the dialect of OpenAPI 3.1; ajv 8 reads it through
 * `ajv/dist/2020.js`), one self-contained file per type with its own `$id` and
 * `$defs`, keys sorted, 2-space indentation and a final newline, so the same
 * source always gives the same bytes.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as TJS from 'typescript-json-schema';

const ts = TJS.ts;

/** Folder of this script (spec/). */
const SPEC_DIR = dirname(fileURLToPath(import.meta.url));
/** The source of the wire types. */
export const TYPES_FILE = join(SPEC_DIR, '..', 'src', 'core', 'types.ts');
/** Where the generated files live. */
export const SCHEMAS_DIR = join(SPEC_DIR, 'schemas');
/** The dialect every generated file declares. */
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
/** Prefix of every generated `$id`; the file name follows it. */
export const ID_PREFIX = 'urn:spotcheck:schemas:';

/** File stem (without `.schema.json`) to exported type name in src/core/types.ts. */
export const SCHEMA_TYPES = Object.freeze({
  'order-request-v1': 'OrderRequestV1',
  'order-request-v1.1': 'OrderRequestV11',
  'batch-order-item': 'BatchOrderItem',
  'batch-order-request': 'BatchOrderRequest',
  'batch-order-response': 'BatchOrderResponse',
  'batch-result-entry': 'BatchResultEntry',
  'order-response': 'OrderResponse',
  'single-order-response': 'SingleOrderResponse',
  'error-response': 'ErrorResponse',
});

/** typescript-json-schema settings: required props listed, unknown props allowed, named definitions. */
const TJS_ARGS = {
  required: true,
  noExtraProps: false,
  ref: true,
  aliasRef: false,
  topRef: false,
  titles: false,
  strictNullChecks: true,
  defaultNumberType: 'number',
};

/** Compiler options for the one-file program (no @types, no DOM library, no emit: fast). */
const COMPILER_OPTIONS = {
  target: 'es2022',
  lib: ['es2022'],
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

/** Deep copy with object keys sorted (arrays keep their order). */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k]);
    return out;
  }
  return value;
}

/** Rewrites draft-07 `definitions` and their refs to 2020-12 `$defs`. */
function toDefs(value) {
  if (Array.isArray(value)) return value.map(toDefs);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) {
        out[k] = `#/$defs/${v.slice('#/definitions/'.length)}`;
      } else {
        out[k === 'definitions' ? '$defs' : k] = toDefs(v);
      }
    }
    return out;
  }
  return value;
}

/**
 * The exported type aliases of the file that are unions of non-literal members
 * (`Decimal = number | DecimalString`). The checker flattens such a union to
 * `string | number`, losing the members' annotations (`@pattern`, `@TJS-type`), so
 * each gets an override: `anyOf` of its members' own schemas.
 */
function unionAliases(program, file) {
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`generate-schemas: ${file} is not in the program`);
  const found = [];
  for (const stmt of source.statements) {
    if (!ts.isTypeAliasDeclaration(stmt) || !ts.isUnionTypeNode(stmt.type)) continue;
    const members = stmt.type.types;
    if (members.some((m) => ts.isLiteralTypeNode(m))) continue;
    found.push({ name: stmt.name.text, members });
  }
  return found;
}

/** Schema of one union member: a keyword type, or a local alias (its own generated schema). */
function memberSchema(generator, node) {
  switch (node.kind) {
    case ts.SyntaxKind.NumberKeyword:
      return { type: 'number' };
    case ts.SyntaxKind.StringKeyword:
      return { type: 'string' };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: 'boolean' };
    default:
      break;
  }
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const schema = { ...generator.getSchemaForSymbol(node.typeName.text, false) };
    delete schema.$schema;
    delete schema.definitions;
    return schema;
  }
  throw new Error(`generate-schemas: unsupported union member ${ts.SyntaxKind[node.kind]}`);
}

/** Validation tags that may sit on a property whose type is a named alias. */
const PROPERTY_KEYWORDS = new Set(['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems']);

/** A tag's text as a JSON value: numbers as numbers, anything else as the trimmed string. */
function tagValue(text) {
  const t = text.trim();
  return /^-?[0-9]+(\.[0-9]+)?$/.test(t) ? Number(t) : t;
}

/** Keywords that constrain strings only. */
const STRING_KEYWORDS = new Set(['minLength', 'maxLength', 'pattern']);

/**
 * Copies validation tags written on interface properties (`@maxLength 20` on
 * `orderId: Long`) into the generated property schema; TJS keeps only annotations
 * (description) beside a `$ref`, so such tags would otherwise be lost. A string
 * keyword beside a `$ref` to a union goes into `if: {type: string}, then: {...}`
 * so that ajv's strict mode knows the type it applies to.
 */
function applyPropertyTags(checker, program, file, name, schema) {
  if (schema === null || typeof schema !== 'object' || schema.properties === undefined) return;
  const source = program.getSourceFile(file);
  const decl = source?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  const symbol = decl === undefined ? undefined : checker.getSymbolAtLocation(decl.name);
  if (symbol === undefined) return;
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  for (const [key, propSchema] of Object.entries(schema.properties)) {
    const prop = type.getProperty(key);
    if (prop === undefined || propSchema === null || typeof propSchema !== 'object') continue;
    for (const tag of prop.getJsDocTags(checker)) {
      if (!PROPERTY_KEYWORDS.has(tag.name)) continue;
      const value = tagValue(ts.displayPartsToString(tag.text ?? []));
      if (STRING_KEYWORDS.has(tag.name) && '$ref' in propSchema && !('type' in propSchema)) {
        propSchema.if = { type: 'string' };
        propSchema.then = { ...(propSchema.then ?? { type: 'string' }), [tag.name]: value };
      } else {
        propSchema[tag.name] = value;
      }
    }
  }
}

/** Documentation comment of a type alias, as TJS would give it. */
function aliasDescription(checker, program, file, name) {
  const source = program.getSourceFile(file);
  const stmt = source?.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  const symbol = stmt === undefined ? undefined : checker.getSymbolAtLocation(stmt.name);
  if (symbol === undefined) return undefined;
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  return text === '' ? undefined : text;
}

/**
 * Every schema file as text, keyed by file name (`order-request-v1.schema.json`),
 * in a fixed order. Pure apart from reading src/core/types.ts; writes nothing.
 */
export function generateSchemas() {
  const file = resolve(TYPES_FILE);
  const program = TJS.getProgramFromFiles([file], COMPILER_OPTIONS);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    });
    throw new Error(`generate-schemas: src/core/types.ts does not compile:\n${text}`);
  }
  const generator = TJS.buildGenerator(program, TJS_ARGS, [file]);
  if (generator === null) throw new Error('generate-schemas: typescript-json-schema could not build a generator');

  const checker = program.getTypeChecker();
  for (const { name, members } of unionAliases(program, file)) {
    const override = { anyOf: members.map((m) => memberSchema(generator, m)) };
    const description = aliasDescription(checker, program, file, name);
    if (description !== undefined) override.description = description;
    generator.setSchemaOverride(name, override);
  }

  const out = {};
  for (const [stem, typeName] of Object.entries(SCHEMA_TYPES)) {
    const raw = generator.getSchemaForSymbol(typeName, true);
    applyPropertyTags(checker, program, file, typeName, raw);
    for (const [defName, def] of Object.entries(raw.definitions ?? {})) {
      applyPropertyTags(checker, program, file, defName, def);
    }
    const schema = toDefs(raw);
    schema.$schema = SCHEMA_DIALECT;
    schema.$id = `${ID_PREFIX}${stem}`;
    schema.title = typeName;
    out[`${stem}.schema.json`] = `${JSON.stringify(sortKeys(schema), null, 2)}\n`;
  }
  return out;
}

/** File names whose committed text differs from the generated one (missing and stale files included). */
export function schemaDrift(generated = generateSchemas(), dir = SCHEMAS_DIR) {
  const drift = [];
  for (const [name, text] of Object.entries(generated)) {
    const path = join(dir, name);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) drift.push(name);
  }
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.schema.json') && !(name in generated)) drift.push(name);
    }
  }
  return drift.sort();
}

function main(argv) {
  const check = argv.includes('--check');
  const generated = generateSchemas();
  if (check) {
    const drift = schemaDrift(generated);
    if (drift.length > 0) {
      process.stderr.write(
        `spec/schemas is out of date with src/core/types.ts: ${drift.join(', ')}\nRun: npm run schemas\n`,
      );
      return 1;
    }
    process.stdout.write(`spec/schemas: ${Object.keys(generated).length} files up to date\n`);
    return 0;
  }
  mkdirSync(SCHEMAS_DIR, { recursive: true });
  for (const [name, text] of Object.entries(generated)) writeFileSync(join(SCHEMAS_DIR, name), text);
  process.stdout.write(`spec/schemas: wrote ${Object.keys(generated).length} files\n`);
  return 0;
}

const invokedAs = process.argv[1] === undefined ? '' : resolve(process.argv[1]);
if (invokedAs === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
