import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSpotcheckError, SpotcheckError } from '../src/core/errors.js';
import {
  checkVectorFile,
  loadOrderVectors,
  loadSigningVectors,
  loadTimeWindowVectors,
  loadVectorFile,
  schemaRef,
  VECTOR_KINDS,
  vectorPath,
  type VectorKind,
} from './load.js';

const dir = mkdtempSync(join(tmpdir(), 'spotcheck-vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deep copy of the kit's file of `kind` as plain JSON. */
function copyOf(kind: VectorKind): { tests: Array<Record<string, unknown>>; [k: string]: unknown } {
  return JSON.parse(readFileSync(vectorPath(kind), 'utf8')) as { tests: Array<Record<string, unknown>> };
}

/** Write `data` to a temp file and load it; return the error thrown. */
function refusal(kind: VectorKind, data: unknown, name: string): SpotcheckError {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  try {
    loadVectorFile(kind, path);
  } catch (err) {
    if (isSpotcheckError(err)) return err;
    throw err;
  }
  throw new Error(`${name}: the loader accepted a broken file`);
}

describe("the kit's vector files", () => {
  it('each names its own schema and loads', () => {
    for (const kind of VECTOR_KINDS) {
      const file = loadVectorFile(kind);
      expect(file.$schema).toBe(schemaRef(kind));
      expect(file.tests.length).toBe(file.numberOfTests);
      expect(file.header.length).toBeGreaterThan(0);
    }
  });

  it('hold the declared numbers of vectors, at least the minimum each brief asks for', () => {
    expect(loadSigningVectors().tests.length).toBeGreaterThanOrEqual(40);
    expect(loadTimeWindowVectors().tests.length).toBeGreaterThanOrEqual(20);
    expect(loadOrderVectors().tests.length).toBeGreaterThanOrEqual(40);
  });

  it('use every flag they explain (no stale notes)', () => {
    for (const kind of VECTOR_KINDS) {
      const file = loadVectorFile(kind);
      const used = new Set(file.tests.flatMap((t) => t.flags));
      expect(Object.keys(file.notes).filter((n) => !used.has(n))).toEqual([]);
    }
  });
});

describe('the loader refuses a broken copy with ERR_DATA_FILE', () => {
  it('a vector missing a required field (schema)', () => {
    const data = copyOf('signing');
    delete data.tests[0]?.totalParams;
    const err = refusal('signing', data, 'missing-field');
    expect(err.code).toBe('ERR_DATA_FILE');
    expect(err.message).toContain('totalParams');
    expect(Array.isArray(err.details.errors)).toBe(true);
  });

  it('a vector with an unknown field (additionalProperties false)', () => {
    const data = copyOf('time-window');
    if (data.tests[0] !== undefined) data.tests[0].expected = 'valid';
    expect(refusal('time-window', data, 'extra-field').code).toBe('ERR_DATA_FILE');
  });

  it('a signature that is not lower-case hex', () => {
    const data = copyOf('signing');
    if (data.tests[0] !== undefined) data.tests[0].signature = String(data.tests[0].signature).toUpperCase();
    expect(refusal('signing', data, 'upper-signature').message).toContain('signature');
  });

  it('an invalid time vector without its reason, and a valid one with a reason', () => {
    const data = copyOf('time-window');
    const bad = data.tests.find((t) => t.result === 'invalid');
    if (bad !== undefined) delete bad.reason;
    expect(refusal('time-window', data, 'no-reason').code).toBe('ERR_DATA_FILE');
    const data2 = copyOf('time-window');
    const good = data2.tests.find((t) => t.result === 'valid');
    if (good !== undefined) Object.assign(good, { reason: 'too-old', ruleId: 'TIME-WINDOW-PAST' });
    expect(refusal('time-window', data2, 'valid-with-reason').code).toBe('ERR_DATA_FILE');
  });

  it('a valid order vector that expects rule IDs', () => {
    const data = copyOf('orders');
    const good = data.tests.find((t) => t.result === 'valid');
    if (good !== undefined) good.expectedRuleIds = ['ORDER-SIDE-ENUM'];
    expect(refusal('orders', data, 'valid-with-ids').code).toBe('ERR_DATA_FILE');
  });

  it('the wrong $schema', () => {
    const data = copyOf('orders');
    data.$schema = './schema/signing.schema.json';
    expect(refusal('orders', data, 'wrong-schema').message).toContain('$schema');
  });

  it('a numberOfTests that does not match', () => {
    const data = copyOf('signing');
    data.numberOfTests = data.tests.length + 1;
    expect(refusal('signing', data, 'count').message).toMatch(/numberOfTests is \d+ but the file holds \d+/);
  });

  it('a duplicated tcId', () => {
    const data = copyOf('orders');
    const second = data.tests[1];
    if (second !== undefined) second.tcId = data.tests[0]?.tcId;
    expect(refusal('orders', data, 'dup-tcid').message).toContain('appears more than once');
  });

  it('a flag that notes does not explain', () => {
    const data = copyOf('time-window');
    const first = data.tests[0];
    if (first !== undefined) first.flags = ['Unexplained'];
    const err = refusal('time-window', data, 'flag');
    expect(err.message).toContain('Unexplained');
    expect(err.details.flag).toBe('Unexplained');
  });

  it('text that is not JSON, and a file that does not exist', () => {
    expect(refusal('signing', '{"header": [', 'not-json').message).toContain('is not JSON');
    expect(() => loadSigningVectors(join(dir, 'absent.json'))).toThrow(/cannot be read/);
  });

  it('data checked without a file (checkVectorFile) gets the same treatment', () => {
    expect(() => checkVectorFile('orders', { tests: [] }, 'inline')).toThrow(SpotcheckError);
    const data = copyOf('orders');
    expect(checkVectorFile('orders', data, 'inline').numberOfTests).toBe(data.tests.length);
  });
});
