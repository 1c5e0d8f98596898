/**
 * Loading the golden vectors. Every file is checked against its JSON Schema
 * (`vectors/schema/<kind>.schema.json`) before anything is returned, then for what a
 * schema cannot say: `numberOfTests` equals the number of vectors, `tcId`s are unique,
 * every flag used is explained in `notes`. A file that fails any check throws
 * `SpotcheckError` with code `ERR_DATA_FILE` (the schema errors in `details.errors`).
 *
 * ```ts
 * import { loadSigningVectors } from 'spotcheck/vectors';
 * for (const v of loadSigningVectors().tests) { ... }
 * ```
 * @module spotcheck/vectors
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { SpotcheckError } from '../src/core/errors.js';
import { kitPath } from '../src/paths.js';
import type {
  DoctorVectorFile,
  OrderVectorFile,
  SigningVectorFile,
  TimeWindowVectorFile,
  VectorBase,
  VectorFile,
} from './types.js';

export type * from './types.js';

/** The vector files, by kind: `vectors/<kind>.json` with schema `vectors/schema/<kind>.schema.json`. */
export type VectorKind = 'signing' | 'time-window' | 'orders' | 'doctor';

/** Every vector kind, in a stable order. */
export const VECTOR_KINDS: readonly VectorKind[] = ['signing', 'time-window', 'orders', 'doctor'];

/** The file type of each kind. */
export interface VectorFileOf {
  signing: SigningVectorFile;
  'time-window': TimeWindowVectorFile;
  orders: OrderVectorFile;
  doctor: DoctorVectorFile;
}

/** Absolute path of the kit's vector file of a kind. */
export function vectorPath(kind: VectorKind): string {
  return kitPath('vectors', `${kind}.json`);
}

/** Absolute path of the JSON Schema of a kind. */
export function schemaPath(kind: VectorKind): string {
  return kitPath('vectors', 'schema', `${kind}.schema.json`);
}

/** The `$schema` value a file of this kind must carry. */
export function schemaRef(kind: VectorKind): string {
  return `./schema/${kind}.schema.json`;
}

const validators = new Map<VectorKind, ValidateFunction>();
/** One instance for every kind's schema (each has its own `$id`): the meta-schema is compiled once. */
let ajv: Ajv | undefined;

function validatorFor(kind: VectorKind): ValidateFunction {
  let v = validators.get(kind);
  if (v === undefined) {
    const schema = JSON.parse(readFileSync(schemaPath(kind), 'utf8')) as object;
    ajv ??= new Ajv({ allErrors: true, strict: true });
    v = ajv.compile(schema);
    validators.set(kind, v);
  }
  return v;
}

function refuse(file: string, problem: string, details: Record<string, unknown> = {}): never {
  throw new SpotcheckError('ERR_DATA_FILE', `${file}: ${problem}`, { file, ...details });
}

function describeErrors(errors: readonly ErrorObject[]): string {
  const shown = errors.slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return shown.join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '');
}

/** Checks a schema cannot express: declared count, unique tcIds, every flag explained. */
function checkConsistency(file: string, data: VectorFile<VectorBase>): void {
  if (data.numberOfTests !== data.tests.length) {
    refuse(file, `numberOfTests is ${data.numberOfTests} but the file holds ${data.tests.length} vectors`);
  }
  const seen = new Set<number>();
  for (const t of data.tests) {
    if (seen.has(t.tcId)) refuse(file, `tcId ${t.tcId} appears more than once`, { tcId: t.tcId });
    seen.add(t.tcId);
    for (const flag of t.flags) {
      if (!Object.hasOwn(data.notes, flag))
        refuse(file, `tcId ${t.tcId} uses flag ${flag}, which notes does not explain`, { tcId: t.tcId, flag });
    }
  }
}

/**
 * Check parsed data as a vector file of `kind` (schema first, then consistency) and
 * return it typed. `file` names the source in error messages.
 * @throws SpotcheckError `ERR_DATA_FILE` when the data is not a valid file of that kind.
 */
export function checkVectorFile<K extends VectorKind>(
  kind: K,
  data: unknown,
  file: string = `${kind}.json`,
): VectorFileOf[K] {
  const validate = validatorFor(kind);
  if (!validate(data)) {
    const errors = validate.errors ?? [];
    refuse(file, `does not match ${schemaRef(kind)}: ${describeErrors(errors)}`, { errors });
  }
  const typed = data as VectorFileOf[K];
  checkConsistency(file, typed);
  return typed;
}

/**
 * Read, parse and check a vector file of `kind`; by default the kit's own
 * `vectors/<kind>.json`, or the file at `path` (for example a copy under test).
 * @throws SpotcheckError `ERR_DATA_FILE` when the file cannot be read, is not JSON, or fails a check.
 */
export function loadVectorFile<K extends VectorKind>(kind: K, path: string = vectorPath(kind)): VectorFileOf[K] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    refuse(path, `cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    refuse(path, `is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return checkVectorFile(kind, data, path);
}

/** The signing vectors (`vectors/signing.json`, or `path`), checked. */
export function loadSigningVectors(path?: string): SigningVectorFile {
  return loadVectorFile('signing', path);
}

/** The time-window vectors (`vectors/time-window.json`, or `path`), checked. */
export function loadTimeWindowVectors(path?: string): TimeWindowVectorFile {
  return loadVectorFile('time-window', path);
}

/** The order and batch validation vectors (`vectors/orders.json`, or `path`), checked. */
export function loadOrderVectors(path?: string): OrderVectorFile {
  return loadVectorFile('orders', path);
}

/** The signature doctor vectors (`vectors/doctor.json`, or `path`), checked. */
export function loadDoctorVectors(path?: string): DoctorVectorFile {
  return loadVectorFile('doctor', path);
}
