import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose, type DoctorRequest } from '../src/core/doctor/diagnose.js';
import { sendRaw } from '../src/client/http.js';
import { API_KEY_HEADER } from '../src/core/wire.js';
import { startServer, type RunningServer } from '../src/server/server.js';
import { doctorCommand } from '../src/cli/doctor.js';
import { sign } from '../src/signing/hmac.js';
import { build } from './generate/doctor.js';
import { loadDoctorVectors } from './load.js';
import type { DoctorVector } from './types.js';

const file = loadDoctorVectors();

/** The doctor's input for a vector: the request as sent, the API key included (§5.3). */
function doctorRequest(v: DoctorVector): DoctorRequest {
  return {
    query: v.query,
    body: v.body,
    bodyKind: v.bodyKind,
    signature: v.signature,
    method: v.method,
    path: v.path,
    apiKey: v.apiKey,
    ...(v.otherTimestamps ? { otherTimestamps: v.otherTimestamps } : {}),
  };
}

const hasSignaturePair = (raw: string): boolean => raw.split('&').some((p) => p.startsWith('signature='));

/**
 * The vector as it goes on the wire: a signature not already in the query or form body
 * travels as its own pair, at the end of the query string, or of a form body sent
 * with an empty query string (so that query string stays empty).
 */
function wire(v: DoctorVector): { query: string; body: string } {
  if (hasSignaturePair(v.query) || (v.bodyKind === 'form' && hasSignaturePair(v.body)))
    return { query: v.query, body: v.body };
  const pair = `signature=${encodeURIComponent(v.signature)}`;
  if (v.bodyKind === 'form' && v.query === '') return { query: '', body: `${v.body}&${pair}` };
  return { query: v.query === '' ? pair : `${v.query}&${pair}`, body: v.body };
}

describe('doctor vectors (§5.3)', () => {
  it('are what the generator builds', () => {
    expect(file).toEqual(build());
  });

  it.each(file.tests.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', (_id, _comment, v) => {
    const d = diagnose(doctorRequest(v), v.secret, sign);
    expect(d?.code ?? 'OK').toBe(v.code);
    // Two mistakes (§5.3): the second is named in `also`; a single mistake has none.
    expect(d?.also).toEqual(v.also);
    expect(v.result).toBe(v.code === 'OK' ? 'valid' : 'invalid');
  });
});

describe('doctor vectors through serve --explain, over HTTP (§5.3)', () => {
  let server: RunningServer;
  const [first] = file.tests;
  beforeAll(async () => {
    // Every vector is signed for one key pair (checked below), so one server serves them all.
    server = await startServer({
      explain: true,
      credentials: [{ apiKey: first?.apiKey ?? '', secret: first?.secret ?? '', permissions: ['TRADE', 'USER_DATA'] }],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  // A timestamp hint (otherTimestamps) is the doctor's input, not part of the request: those vectors are for the core only.
  const onTheWire = file.tests.filter((v) => v.otherTimestamps === undefined);

  it('covers every vector without a timestamp hint, and every code', () => {
    expect(onTheWire.length).toBe(file.tests.length - file.tests.filter((v) => v.otherTimestamps !== undefined).length);
    expect(new Set(onTheWire.map((v) => v.code))).toEqual(new Set(file.tests.map((v) => v.code)));
  });

  it.each(onTheWire.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', async (_id, _comment, v) => {
    expect([v.apiKey, v.secret]).toEqual([first?.apiKey, first?.secret]);
    const { query, body } = wire(v);
    const contentType = v.bodyKind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    const res = await sendRaw(
      server.url,
      {
        method: v.method,
        path: v.path,
        query,
        body,
        headers: { [API_KEY_HEADER]: v.apiKey, ...(body !== '' ? { 'content-type': contentType } : {}) },
      },
      { timeoutMs: 10_000 },
    );
    const json = res.json as { code: number; diagnosis?: { code: string; also?: string[] } };
    if (v.code === 'OK') {
      // The signature is right: whatever refuses the request (here the old timestamp, §5.4), it is not the signature.
      expect(json.code).not.toBe(-1022);
      expect(json.diagnosis).toBeUndefined();
      return;
    }
    expect(res.status).toBe(401);
    expect(json.code).toBe(-1022);
    expect(json.diagnosis?.code).toBe(v.code);
    expect(json.diagnosis?.also).toEqual(v.also);
    expect(res.text).not.toContain(v.secret);
    expect(res.text).not.toContain(v.apiKey);
  });
});

describe('doctor vectors through spotcheck doctor (§5.3)', () => {
  it.each(file.tests.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', (_id, _comment, v) => {
    let out = '';
    const argv = [
      '--json',
      '--method',
      v.method,
      '--url',
      `${v.path}?${v.query}`,
      '--body',
      v.body,
      '--body-kind',
      v.bodyKind,
      '--signature',
      v.signature,
      '--api-key',
      v.apiKey,
    ];
    for (const t of v.otherTimestamps ?? []) argv.push('--timestamp', t);
    const exit = doctorCommand(argv, {
      out: (t) => void (out += t),
      err: () => undefined,
      env: { SPOTCHECK_SECRET: v.secret },
    });
    const d = JSON.parse(out) as { code: string; also?: string[] };
    expect(d.code).toBe(v.code);
    expect(d.also).toEqual(v.also);
    expect(exit).toBe(v.code === 'OK' ? 0 : 1);
    expect(out).not.toContain(v.secret);
    expect(out).not.toContain(v.apiKey);
  });
});
