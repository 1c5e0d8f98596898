import { describe, expect, it } from 'vitest';
import { loadDoctorVectors } from '../../vectors/load.js';
import { diagnosePasted, verdictLines } from './doctor.js';

const vectors = loadDoctorVectors().tests;

describe('the playground doctor (Web Crypto)', () => {
  it.each(vectors.map((v) => [v.tcId, v.comment, v] as const))(
    'doctor vector %i (%s): names its code',
    async (_id, _c, v) => {
      // pasted as the request target (path and query string), with the API key the request carried
      const verdict = await diagnosePasted({
        query: `${v.path}?${v.query}`,
        body: v.body,
        secret: v.secret,
        bodyKind: v.bodyKind,
        signature: v.signature,
        method: v.method,
        apiKey: v.apiKey,
      });
      const code = verdict.kind === 'diagnosis' ? verdict.diagnosis.code : 'OK';
      expect(code).toBe(v.otherTimestamps === undefined ? v.code : 'UNKNOWN'); // the page asks for no timestamp hint
      expect(verdictLines(verdict).join('\n')).not.toContain(v.secret);
    },
  );

  it('reads the signature from a pasted query with a leading ?, and says when there is none', async () => {
    const v = vectors.find((t) => t.code === 'SIGNATURE_PARAM_SIGNED');
    expect(v).toBeDefined();
    const verdict = await diagnosePasted({
      query: `?${v?.query ?? ''}`,
      body: '',
      secret: v?.secret ?? '',
      bodyKind: 'auto',
    });
    expect(verdict.kind === 'diagnosis' && verdict.diagnosis.code).toBe('SIGNATURE_PARAM_SIGNED');
    expect(verdictLines(verdict)[0]).toMatch(/^SIGNATURE_PARAM_SIGNED: /);
    expect(await diagnosePasted({ query: 'a=1', body: 'b=2', secret: 's', bodyKind: 'auto' })).toEqual({
      kind: 'no-signature',
    });
  });
});
