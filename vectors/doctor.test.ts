import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/doctor/diagnose.js';
import { sign } from '../src/signing/hmac.js';
import { build } from './generate/doctor.js';
import { loadDoctorVectors } from './load.js';

const file = loadDoctorVectors();

describe('doctor vectors (§5.3)', () => {
  it('are what the generator builds', () => {
    expect(file).toEqual(build());
  });

  it.each(file.tests.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', (_id, _comment, v) => {
    const d = diagnose(
      { query: v.query, body: v.body, bodyKind: v.bodyKind, signature: v.signature, ...(v.otherTimestamps ? { otherTimestamps: v.otherTimestamps } : {}) },
      v.secret,
      sign,
    );
    expect(d?.code ?? 'OK').toBe(v.code);
    // Two mistakes (§5.3): the second is named in `also`; a single mistake has none.
    expect(d?.also).toEqual(v.also);
    expect(v.result).toBe(v.code === 'OK' ? 'valid' : 'invalid');
  });
});
