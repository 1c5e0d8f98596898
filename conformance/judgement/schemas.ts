/**
 * Response validation with ajv over the dereferenced OpenAPI document
 * (spec/openapi.yaml, whose schemas are generated from src/types.ts), so the runner
 * checks exactly what the spec publishes.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { kitPath } from '../../src/paths.js';
import { ENDPOINTS } from '../../src/core/wire.js';

/** The response bodies the runner validates. */
export type ResponseSchema = 'batch-order-response' | 'order-response' | 'single-order-response';

type Json = Record<string, unknown>;

let validators: Promise<Record<ResponseSchema, ValidateFunction>> | undefined;

function at(obj: unknown, path: ReadonlyArray<string>): Json {
  let cur: unknown = obj;
  for (const k of path) cur = (cur as Json | undefined)?.[k];
  if (typeof cur !== 'object' || cur === null) throw new Error(`spec/openapi.yaml has no ${path.join(' > ')}`);
  return cur as Json;
}

/** A schema without the `$id`/`$schema` of the file it was inlined from (each is compiled alone). */
function standalone(schema: Json): Json {
  const { $id: _id, $schema: _schema, ...rest } = schema;
  return rest;
}

async function build(): Promise<Record<ResponseSchema, ValidateFunction>> {
  const doc = await SwaggerParser.dereference(kitPath('spec', 'openapi.yaml'));
  const json = ['content', 'application/json', 'schema'];
  const batch = at(doc, ['paths', ENDPOINTS.batch.path, 'post', 'responses', '200', ...json]);
  const single = at(doc, ['paths', ENDPOINTS.v1.path, 'post', 'responses', '200', ...json]);
  const order = at(batch, ['properties', 'result', 'items', 'properties', 'order']);
  // one instance: it compiles the draft 2020-12 meta-schema once, not for each of the three
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const compile = (s: Json) => ajv.compile(standalone(s));
  return {
    'batch-order-response': compile(batch),
    'order-response': compile(order),
    'single-order-response': compile(single),
  };
}

/** Validate a response body; the ajv errors as short lines (empty when valid). */
export async function schemaErrors(name: ResponseSchema, value: unknown): Promise<string[]> {
  validators ??= build();
  const v = (await validators)[name];
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
}
