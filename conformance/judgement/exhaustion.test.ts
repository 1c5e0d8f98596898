import { describe, expect, it } from 'vitest';
import type { RawRequest } from '../../src/client/http.js';
import type { Observation } from '../../src/core/response.js';
import type { Built, Route } from '../engine/requests.js';
import type { SendResult } from '../engine/transport.js';
import { createExhaustionWatch, meets, refusalMarks, sameRefusal } from './exhaustion.js';

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

describe('the exhaustion watch: a refused order larger than the controls', () => {
  const V11 = { endpoint: 'v1.1', placement: 'query' } as const;
  const BATCH = { endpoint: 'batch', placement: 'json' } as const;
  const broke: Observation = { verdict: 'rejected', status: 400, code: -2010, json: { code: -2010 } };
  const placed: Observation = { verdict: 'accepted', status: 200, json: { code: 0 } };
  const req = (query: string, body = ''): RawRequest => ({ method: 'POST', path: '/x', query, body, headers: {} });
  /** A watch whose controls (the cheapest orders) are placed; the refused order built anew gets `same`, a thousandth of it `small`. */
  const watch = (answers: { same: Observation; small: Observation } | undefined) => {
    const asked: number[] = [];
    const answer = (q: string): Observation =>
      q === 'same=1' ? (answers?.same ?? placed) : q === 'small=1' ? (answers?.small ?? placed) : placed;
    const w = createExhaustionWatch({
      control: () => ({ request: req('control=1'), facts: {} }) as Built,
      send: async (b: Built) => ({ observation: answer(b.request.query), exchange: {} }) as unknown as SendResult,
      acceptedEarlier: () => true,
      ...(answers === undefined
        ? {}
        : {
            sizePair: (_r: Route, _req: RawRequest, index: number): [Built, Built] => {
              asked.push(index);
              return [{ request: req('same=1'), facts: {} } as Built, { request: req('small=1'), facts: {} } as Built];
            },
          }),
    });
    return { w, asked };
  };

  it('the cheapest orders placed; the refused order built anew refused the same way while a thousandth of it is placed: the account, said once', async () => {
    const { w, asked } = watch({ same: broke, small: placed });
    const shown = await w.explains(V11, broke, undefined, req('type=MARKET&amount=10'));
    expect(shown?.mark).toBe('HTTP 400 code -2010');
    expect(shown?.reason).toMatch(
      /and again when sent anew, while the same order a thousandth of its size, sent with it, was placed/,
    );
    expect(asked).toEqual([0]);
    expect(w.current()).toEqual(shown);
  });

  it('a batch: the control is its first refused entry', async () => {
    const entry: Observation = { verdict: 'accepted', status: 200, json: { code: 0, result: [{ code: -2010 }] } };
    const { w, asked } = watch({ same: entry, small: placed });
    const entries: Observation = {
      verdict: 'accepted',
      status: 200,
      json: { code: 0, result: [{ code: 0 }, { code: -2010 }, { code: -2010 }] },
    };
    expect((await w.explains(BATCH, entries, undefined, req('', '[]')))?.mark).toBe('entry code -2010');
    expect(asked).toEqual([1]);
  });

  it('nothing shown, the failure stands: the order built anew placed (the refusal was about what else the request carried), the small one refused, no pair to send, or no refused request given', async () => {
    for (const [answers, refused] of [
      [{ same: placed, small: placed }, req('amount=10')],
      [{ same: broke, small: broke }, req('amount=10')],
      [undefined, req('amount=10')],
      [{ same: broke, small: placed }, undefined],
    ] as const) {
      const { w } = watch(answers);
      expect(await w.explains(V11, broke, undefined, refused)).toBeUndefined();
      expect(w.current()).toBeUndefined();
    }
  });
});
