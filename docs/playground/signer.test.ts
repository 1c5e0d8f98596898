import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src/signing/hmac.js';
import { signingSteps } from '../../src/core/signing/total-params.js';
import { loadSigningVectors } from '../../vectors/load.js';
import { checkGoldenVectors, checkVector, computeSignature, hmacSha256Hex, resolveBodyKind } from './signer.js';

describe('hmacSha256Hex (Web Crypto)', () => {
  it('equals the kit signer for any secret and payload, UTF-8 included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        async (secret, payload) => {
          expect(await hmacSha256Hex(secret, payload)).toBe(sign(secret, payload));
        },
      ),
    );
  });
});

describe('computeSignature', () => {
  it('gives the same steps as the kit for any query and form body, with the leading ? dropped', async () => {
    const pair = fc
      .tuple(fc.stringMatching(/^[a-zA-Z]{1,8}$/), fc.stringMatching(/^[a-zA-Z0-9%.]{0,8}$/))
      .map(([k, v]) => `${k}=${v}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(pair, { maxLength: 5 }),
        fc.array(pair, { minLength: 1, maxLength: 5 }),
        async (q, b) => {
          const query = q.join('&');
          const body = b.join('&');
          const r = await computeSignature({ query: `?${query}`, body, secret: 'k', bodyKind: 'auto' });
          const steps = signingSteps(query, body, 'form');
          expect(r).toMatchObject({ ...steps, bodyKind: 'form', signature: sign('k', steps.totalParams) });
        },
      ),
    );
  });

  it('reports whether the pasted signature matches, ignoring case', async () => {
    const sig = sign('s', 'a=1b=2');
    const ok = await computeSignature({
      query: `a=1&signature=${sig.toUpperCase()}`,
      body: 'b=2',
      secret: 's',
      bodyKind: 'form',
    });
    expect(ok).toMatchObject({ totalParams: 'a=1b=2', presented: [sig.toUpperCase()], presentedMatches: true });
    const bad = await computeSignature({ query: `a=1&signature=${sig}`, body: 'b=3', secret: 's', bodyKind: 'form' });
    expect(bad.presentedMatches).toBe(false);
    const none = await computeSignature({ query: 'a=1', body: '', secret: 's', bodyKind: 'auto' });
    expect(none).toMatchObject({ bodyKind: 'none', presentedMatches: undefined });
  });

  it('takes a JSON body raw, signature-looking text included', async () => {
    const body = '[{"symbol":"X","signature":"1"}]';
    const r = await computeSignature({ query: 'timestamp=1', body, secret: 's', bodyKind: 'auto' });
    expect(r).toMatchObject({ bodyKind: 'json', body, totalParams: `timestamp=1${body}` });
  });
});

describe('resolveBodyKind', () => {
  it('guesses none, JSON and form as `spotcheck sign` does, and obeys an explicit choice', () => {
    expect(resolveBodyKind('', 'auto')).toBe('none');
    expect(resolveBodyKind('  [1]', 'auto')).toBe('json');
    expect(resolveBodyKind('{"a":1}', 'auto')).toBe('json');
    expect(resolveBodyKind('a=1', 'auto')).toBe('form');
    expect(resolveBodyKind('[1]', 'form')).toBe('form');
  });
});

describe('checkGoldenVectors', () => {
  const golden = loadSigningVectors().tests;

  it('reproduces every golden signing vector', async () => {
    const check = await checkGoldenVectors(golden);
    expect(check.mismatches).toEqual([]);
    expect(check.passed).toBe(golden.length);
  });

  it('names the first step that differs, and a wrong verdict', async () => {
    const v = golden.find((g) => g.result === 'valid' && g.body !== '');
    expect(v).toBeDefined();
    if (v === undefined) return;
    expect(await checkVector({ ...v, totalParams: `${v.totalParams}x` })).toMatchObject({
      step: 'totalParams',
      tcId: v.tcId,
    });
    expect(await checkVector({ ...v, signedBody: `${v.signedBody}&` })).toMatchObject({ step: 'signedBody' });
    expect(await checkVector({ ...v, result: 'invalid' })).toMatchObject({
      step: 'result',
      expected: 'invalid',
      actual: 'valid',
    });
  });
});
