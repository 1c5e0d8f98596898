import { describe, expect, it } from 'vitest';
import { meets, refusalMarks, sameRefusal } from './exhaustion.js';

describe('refusal marks (the account may be exhausted)', () => {
  it('reads a whole-call refusal, or the failed entries of an accepted batch', () => {
    expect(refusalMarks({ verdict: 'rejected', status: 400, code: -2010 })).toEqual(['HTTP 400 code -2010']);
    expect(
      refusalMarks({
        verdict: 'accepted',
        status: 200,
        json: { code: 0, result: [{ code: 0 }, { code: -2010 }, { code: -1102 }, { code: -2010 }] },
      }),
    ).toEqual(['entry code -2010', 'entry code -1102']);
    expect(refusalMarks({ verdict: 'accepted', status: 200, json: { code: 0 } })).toEqual([]);
    expect(refusalMarks({ verdict: 'server-error', status: 500 })).toEqual([]);
  });

  it('the same venue code is the same refusal on a single order and inside a batch', () => {
    expect(sameRefusal('HTTP 400 code -2010', 'entry code -2010')).toBe(true);
    expect(sameRefusal('HTTP 400 code -2010', 'HTTP 400 code -1021')).toBe(false);
    expect(meets(['entry code -1102', 'entry code -2010'], 'HTTP 400 code -2010')).toBe(true);
    expect(meets([], 'HTTP 400 code -2010')).toBe(false);
  });
});
