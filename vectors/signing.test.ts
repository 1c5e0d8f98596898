import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sign, verify } from '../src/signing/hmac.js';
import { signatureValues, withoutSignature } from '../src/core/signing/query.js';
import { signingSteps, totalParams } from '../src/core/signing/total-params.js';
import { loadSigningVectors } from './load.js';
import type { SigningVector } from './types.js';

const file = loadSigningVectors();
const cases = file.tests.map((v) => [v.tcId, v.comment, v] as const);

describe('signing vectors (§5.3)', () => {
  it('declare as many vectors as they hold, and include all seven published examples', () => {
    expect(file.tests.length).toBe(file.numberOfTests);
    const published = file.tests.filter((v) => v.flags.includes('Published'));
    expect(published.length).toBe(7);
    for (const v of published) expect(v.source).toMatch(/Binance|HashKey/);
    expect(published.some((v) => v.path === '/openapi/v1/order')).toBe(true);
  });

  it.each(cases)('tcId %i: %s — each intermediate value', (_id, _c, v) => {
    const steps = signingSteps(v.query, v.body, v.bodyKind);
    expect(withoutSignature(v.query)).toBe(v.queryWithoutSignature);
    expect(steps.queryWithoutSignature).toBe(v.queryWithoutSignature);
    expect(steps.body).toBe(v.signedBody);
    expect(totalParams(v.queryWithoutSignature, v.signedBody)).toBe(v.totalParams);
    expect(steps.totalParams).toBe(v.totalParams);
    expect(sign(v.secret, v.totalParams)).toBe(v.signature);
  });

  it.each(cases)('tcId %i: %s — verdict', (_id, _c, v) => {
    expect(verify(v.secret, v.totalParams, v.presentedSignature)).toBe(v.result !== 'invalid');
    // The presented value is the one signature pair the request carries.
    const carried = [...signatureValues(v.query), ...(v.bodyKind === 'form' ? signatureValues(v.body) : [])];
    expect(carried).toEqual([v.presentedSignature]);
  });

  it('mark exactly the case-only differences as acceptable', () => {
    for (const v of file.tests) {
      const caseOnly = v.presentedSignature !== v.signature && v.presentedSignature.toLowerCase() === v.signature;
      expect(v.result === 'acceptable').toBe(caseOnly);
    }
  });
});

/** HMAC-SHA256 of `data` under `secret` by the openssl command, or undefined when openssl is absent. */
function opensslHmac(secret: string, data: string): string | undefined {
  const r = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: Buffer.from(data, 'utf8') });
  if (r.error !== undefined) {
    if ((r.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw r.error;
  }
  expect(r.status).toBe(0);
  const out = r.stdout.toString('utf8').trim();
  const hex = out.slice(out.lastIndexOf(' ') + 1);
  expect(hex).toMatch(/^[0-9a-f]{64}$/);
  return hex;
}

describe('cross-check against an independent HMAC implementation', () => {
  const sample: SigningVector[] = [
    ...file.tests.filter((v) => v.flags.includes('Published')),
    ...file.tests.filter((v) => v.flags.includes('MaxBatch')).slice(0, 1),
    ...file.tests.filter((v) => v.flags.includes('NonAscii') && v.bodyKind === 'json').slice(0, 1),
    ...file.tests.filter((v) => v.flags.includes('LongSecret')).slice(0, 1),
  ];

  it('openssl dgst -sha256 -hmac agrees with the vector signatures (or its absence is detected and node:crypto is used)', () => {
    expect(sample.length).toBeGreaterThanOrEqual(10);
    const probe = spawnSync('openssl', ['version']);
    const present = probe.error === undefined && probe.status === 0;
    for (const v of sample) {
      const viaOpenssl = opensslHmac(v.secret, v.totalParams);
      // Absence must be consistent with the probe, never a silent skip.
      expect(viaOpenssl === undefined).toBe(!present);
      const independent =
        viaOpenssl ??
        createHmac('sha256', Buffer.from(v.secret, 'utf8')).update(Buffer.from(v.totalParams, 'utf8')).digest('hex');
      expect(independent, `tcId ${v.tcId}`).toBe(v.signature);
    }
  });
});
