/**
 * The ROBUST edge probes are built exactly at the reference's edges (D-BODY-LIMIT, D-JSON-DEPTH):
 * the kit keeps its own copy of the two limits, held here to the server's.
 */
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth } from '../../src/core/json.js';
import { MAX_JSON_DEPTH } from '../../src/server/batch.js';
import { DEFAULT_BODY_LIMIT } from '../../src/server/body.js';
import { batchOfBytes, batchOfDepth, REFERENCE_EDGES } from './robust.js';

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '2', newClientOrderId: 'é-1' };

describe('ROBUST-NO-5XX.edges probes', () => {
  it("the kit's edges are the reference server's", () => {
    expect(REFERENCE_EDGES).toEqual({ bodyBytes: DEFAULT_BODY_LIMIT, jsonDepth: MAX_JSON_DEPTH });
  });

  it('a batch of exactly N bytes (multi-byte ids counted in bytes), still one valid order', () => {
    for (const n of [1024, REFERENCE_EDGES.bodyBytes, REFERENCE_EDGES.bodyBytes + 1]) {
      const body = batchOfBytes(order, n);
      expect(Buffer.byteLength(body)).toBe(n);
      expect(JSON.parse(body)).toEqual([order]);
    }
  });

  it('a batch nesting exactly N levels, as the server counts them', () => {
    for (const d of [2, 3, REFERENCE_EDGES.jsonDepth, REFERENCE_EDGES.jsonDepth + 1]) {
      const body = batchOfDepth(order, d);
      expect(jsonNestingDepth(body, 64)).toBe(d);
      expect(JSON.parse(body)[0]).toMatchObject(order);
    }
  });
});
