/**
 * The generated JSON Schemas (spec/schemas/) against their source (src/core/types.ts):
 * no drift, deterministic layout, strict-mode clean under ajv 2020-12, and the
 * seed's limits (§2.1, §4.1, §8) actually enforced.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  generateSchemas,
  ID_PREFIX,
  SCHEMA_DIALECT,
  SCHEMA_TYPES,
  SCHEMAS_DIR,
  schemaDrift,
} from './generate-schemas.mjs';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

let generated: Record<string, string>;
let ajv: Ajv2020;
const warnings: string[] = [];

beforeAll(() => {
  generated = generateSchemas();
  ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    logger: {
      log: () => undefined,
      warn: (...a: unknown[]) => warnings.push(a.map(String).join(' ')),
      error: (...a: unknown[]) => warnings.push(a.map(String).join(' ')),
    },
  });
  for (const name of readdirSync(SCHEMAS_DIR)) {
    if (name.endsWith('.schema.json'))
      ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS_DIR, name), 'utf8')) as object);
  }
});

function validator(stem: string): ValidateFunction {
  const v = ajv.getSchema(`${ID_PREFIX}${stem}`);
  if (v === undefined) throw new Error(`no schema ${stem}`);
  return v;
}

function keysSorted(v: Json): boolean {
  if (Array.isArray(v)) return v.every(keysSorted);
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    return keys.every((k, i) => i === 0 || (keys[i - 1] as string) < k) && Object.values(v).every(keysSorted);
  }
  return true;
}

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '30000' };

describe('spec/schemas generation', () => {
  it('regenerating from src/core/types.ts gives the committed files byte for byte (run `npm run schemas` after editing types)', () => {
    expect(Object.keys(generated).sort()).toEqual(
      Object.keys(SCHEMA_TYPES)
        .map((s) => `${s}.schema.json`)
        .sort(),
    );
    for (const [name, text] of Object.entries(generated)) {
      expect(readFileSync(join(SCHEMAS_DIR, name), 'utf8'), name).toBe(text);
    }
    expect(schemaDrift(generated)).toEqual([]);
  });

  it('reports a changed or stale file as drift', () => {
    const first = Object.keys(generated)[0] as string;
    const altered = { ...generated, [first]: `${generated[first]} ` };
    expect(schemaDrift(altered)).toEqual([first]);
    const { [first]: _dropped, ...fewer } = generated;
    expect(schemaDrift(fewer)).toEqual([first]);
  });

  it('every file declares 2020-12, its own $id and title, sorted keys, 2-space JSON and a final newline', () => {
    for (const [stem, typeName] of Object.entries(SCHEMA_TYPES)) {
      const text = generated[`${stem}.schema.json`] as string;
      const json = JSON.parse(text) as Json & Record<string, Json>;
      expect(json.$schema).toBe(SCHEMA_DIALECT);
      expect(json.$id).toBe(`${ID_PREFIX}${stem}`);
      expect(json.title).toBe(typeName);
      expect(text).toBe(`${JSON.stringify(json, null, 2)}\n`);
      expect(keysSorted(json), stem).toBe(true);
      expect(text).not.toContain('#/definitions/');
    }
  });

  it('compiles under ajv 2020-12 strict mode without a warning', () => {
    for (const stem of Object.keys(SCHEMA_TYPES)) validator(stem);
    expect(warnings).toEqual([]);
  });
});

describe('spec/schemas content (annotations of src/core/types.ts come through)', () => {
  it('batch body: 1 to 20 orders (§4.1, §8), each needing symbol, side, type, quantity', () => {
    const v = validator('batch-order-request');
    expect(v(Array.from({ length: 20 }, () => order))).toBe(true);
    expect(v(Array.from({ length: 21 }, () => order))).toBe(false);
    expect(v([])).toBe(false);
    for (const field of ['symbol', 'side', 'type', 'quantity'] as const) {
      const { [field]: _omitted, ...rest } = order;
      expect(v([rest]), field).toBe(false);
    }
  });

  it('DECIMAL: JSON number or decimal string (§2.1)', () => {
    const v = validator('batch-order-item');
    expect(v({ ...order, quantity: 0.5 })).toBe(true);
    expect(v({ ...order, quantity: '0.5' })).toBe(true);
    expect(v({ ...order, quantity: '0.5x' })).toBe(false);
    expect(v({ ...order, quantity: '1e3' })).toBe(false);
    expect(v({ ...order, price: true })).toBe(false);
  });

  it('LONG: JSON integer or string of digits', () => {
    const v = validator('order-request-v1');
    const base = { ...order, timestamp: 1700000000000 };
    expect(v(base)).toBe(true);
    expect(v({ ...base, timestamp: '1700000000000' })).toBe(true);
    expect(v({ ...base, timestamp: 1.5 })).toBe(false);
    expect(v({ ...base, timestamp: '17e11' })).toBe(false);
    const { timestamp: _t, ...noTime } = base;
    expect(v(noTime)).toBe(false);
  });

  it('enums: side, type, stpMode (§2.1)', () => {
    const v = validator('batch-order-item');
    expect(v({ ...order, side: 'buy' })).toBe(false);
    expect(v({ ...order, type: 'STOP' })).toBe(false);
    expect(v({ ...order, stpMode: 'EXPIRE_MAKER' })).toBe(true);
    expect(v({ ...order, stpMode: 'EXPIRE_BOTH' })).toBe(false);
  });

  it('newClientOrderId up to 255 characters (§2.1, §8); unknown fields allowed', () => {
    const v = validator('batch-order-item');
    expect(v({ ...order, newClientOrderId: 'x'.repeat(255) })).toBe(true);
    expect(v({ ...order, newClientOrderId: 'x'.repeat(256) })).toBe(false);
    expect(v({ ...order, somethingElse: 1 })).toBe(true);
  });

  it('v1.1: quantity optional, amount allowed', () => {
    const v = validator('order-request-v1.1');
    expect(v({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '100', timestamp: 1 })).toBe(true);
    expect(v({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: 'lots', timestamp: 1 })).toBe(false);
  });

  it('order response: orderId at most 20 characters (§2.2, §8); required echo fields', () => {
    const v = validator('order-response');
    const resp = {
      symbol: 'BTCUSDT',
      clientOrderId: 'c1',
      orderId: '12345678901234567890',
      side: 'BUY',
      type: 'LIMIT',
    };
    expect(v(resp)).toBe(true);
    expect(v({ ...resp, orderId: '123456789012345678901' })).toBe(false);
    expect(v({ ...resp, orderId: 1234 })).toBe(true);
    const { clientOrderId: _c, ...noClientId } = resp;
    expect(v(noClientId)).toBe(false);
  });

  it('batch response: integer code, entries with integer code and string msg (§2.2, §7)', () => {
    const v = validator('batch-order-response');
    expect(v({ code: 0, result: [{ code: 0, msg: '' }] })).toBe(true);
    expect(v({ code: '0' })).toBe(false);
    expect(v({ code: 0, result: [{ code: 0 }] })).toBe(false);
    expect(v({ code: 0, result: [{ code: 1.5, msg: 'x' }] })).toBe(false);
    const e = validator('error-response');
    expect(e({ code: -1022, msg: 'Signature for this request is not valid.' })).toBe(true);
    expect(e({ code: -1022 })).toBe(false);
  });
});
