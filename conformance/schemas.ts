/**
 * Response validation against the spec's JSON Schemas (spec/schemas, generated from
 * src/types.ts and referenced by spec/openapi.yaml), with ajv.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { readKitJson } from '../src/paths.js';

const cache = new Map<string, ValidateFunction>();
let ajv: Ajv2020 | undefined;

/** A validator for `spec/schemas/<name>.schema.json`. */
export function schemaValidator(name: string): ValidateFunction {
  let v = cache.get(name);
  if (v === undefined) {
    ajv ??= new Ajv2020({ allErrors: true, strict: false });
    v = ajv.compile(readKitJson<object>('spec', 'schemas', `${name}.schema.json`));
    cache.set(name, v);
  }
  return v;
}

/** Validate a value; return the ajv errors as short lines (empty when valid). */
export function schemaErrors(name: string, value: unknown): string[] {
  const v = schemaValidator(name);
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
}
