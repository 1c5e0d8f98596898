import { describe as group, expect, it } from 'vitest';
import {
  classify,
  codeValue,
  describe,
  entriesOf,
  entryFailed,
  entryPlaced,
  showsPlaced,
  type Observation,
} from './response.js';

const answer = (status: number, json: unknown) => ({
  status,
  json,
  text: json === undefined ? '' : JSON.stringify(json),
  elapsedMs: 1,
});

group('classify (design notes: a rejection is HTTP 4xx or 2xx with a non-zero code)', () => {
  it('reads statuses: 5xx server-error, 4xx rejected whatever the body, 1xx/3xx bad-response', () => {
    expect(classify(answer(500, { code: 0 })).verdict).toBe('server-error');
    expect(classify(answer(503, undefined)).verdict).toBe('server-error');
    expect(classify(answer(400, { code: -1130, msg: 'x' })).verdict).toBe('rejected');
    expect(classify(answer(404, undefined)).verdict).toBe('rejected');
    expect(classify(answer(302, { code: 0 })).verdict).toBe('bad-response');
  });

  it('a 2xx JSON object without code, or with code 0, is accepted', () => {
    expect(classify(answer(200, { orderId: '1' })).verdict).toBe('accepted');
    expect(classify(answer(200, { code: 0, result: [] })).verdict).toBe('accepted');
  });

  it('a 2xx with a non-zero code is rejected (HTTP-200 error style)', () => {
    expect(classify(answer(200, { code: -1022, msg: 'sig' })).verdict).toBe('rejected');
    expect(classify(answer(200, { code: '-1022' })).verdict).toBe('rejected');
    expect(classify(answer(200, { code: 1.5 })).verdict).toBe('rejected');
  });

  it('D-CODE-READING: "0" and "0.0" are zero, hence accepted', () => {
    expect(classify(answer(200, { code: '0' })).verdict).toBe('accepted');
    expect(classify(answer(200, { code: '0.0' })).verdict).toBe('accepted');
    expect(classify(answer(200, { code: 0.0 })).verdict).toBe('accepted');
  });

  it('D-CODE-READING: a code that is no number ("", null, true, text) is a bad response', () => {
    for (const code of ['', null, true, 'ERR', ' 0', '0x0', {}, []]) {
      expect(classify(answer(200, { code })).verdict, JSON.stringify(code)).toBe('bad-response');
    }
  });

  it('a 2xx that is not a JSON object is a bad response', () => {
    expect(classify(answer(200, undefined)).verdict).toBe('bad-response');
    expect(classify(answer(200, [1])).verdict).toBe('bad-response');
    expect(classify(answer(200, 'ok')).verdict).toBe('bad-response');
  });

  it('keeps code, msg, status and elapsed time', () => {
    const o = classify(answer(400, { code: -1022, msg: 'bad signature' }));
    expect(o).toMatchObject({ status: 400, code: -1022, msg: 'bad signature', elapsedMs: 1 });
    expect(describe(o)).toBe('HTTP 400 {"code":-1022,"msg":"bad signature"}');
    expect(describe({ verdict: 'no-answer', error: 'timeout' })).toBe('no answer (timeout)');
  });
});

group('codeValue', () => {
  it('reads numbers and number strings by value, nothing else', () => {
    expect(codeValue(0)).toBe(0);
    expect(codeValue('-1022')).toBe(-1022);
    expect(codeValue('0.0')).toBe(0);
    expect(codeValue('')).toBeUndefined();
    expect(codeValue(Number.NaN)).toBeUndefined();
    expect(codeValue('1e')).toBeUndefined();
  });
});

group('entriesOf', () => {
  it('returns the result array of a batch body only', () => {
    expect(entriesOf({ code: 0, result: [1] })).toEqual([1]);
    expect(entriesOf({ result: 'x' })).toBeUndefined();
    expect(entriesOf([1])).toBeUndefined();
  });
});

group('entryPlaced', () => {
  it('is judged by the entry code alone: code 0 placed, a failed entry echoing an order not placed', () => {
    expect(entryPlaced({ code: 0, order: {} })).toBe(true);
    expect(entryPlaced({ code: 0 })).toBe(true);
    expect(entryPlaced({ code: -1130, order: {} })).toBe(false);
    expect(entryPlaced({ code: '0', order: {} })).toBe(true); // D-CODE-READING: a code is read by value
    expect(entryPlaced({ code: '', order: {} })).toBe(false);
    expect(entryPlaced({ order: {} })).toBe(false);
    expect(entryPlaced(null)).toBe(false);
  });
});

group('entryFailed', () => {
  it('is the complement of entryPlaced for an entry carrying a code: "0" is placed, not failed', () => {
    expect(entryFailed({ code: -1130, msg: 'price required' })).toBe(true);
    expect(entryFailed({ code: '-1130' })).toBe(true);
    expect(entryFailed({ code: 'ERR' })).toBe(true);
    expect(entryFailed({ code: 0 })).toBe(false);
    expect(entryFailed({ code: '0' })).toBe(false);
    expect(entryFailed({ code: '0.0' })).toBe(false);
    expect(entryFailed({ msg: 'no code at all' })).toBe(false);
    expect(entryFailed(null)).toBe(false);
  });
});

group('showsPlaced: an answer that shows an order placed', () => {
  const accepted = (json: unknown): Observation => ({ verdict: 'accepted', status: 200, json });
  const cases: Array<[string, Observation, boolean]> = [
    ['a single order accepted', accepted({ code: 0, orderId: '1' }), true],
    ['a batch with a placed entry', accepted({ code: 0, result: [{ code: -1 }, { code: 0 }] }), true],
    ['a batch whose every entry failed', accepted({ code: 0, result: [{ code: -2010 }] }), false],
    ['a batch entry without a code', accepted({ code: 0, result: [{ order: {} }] }), false],
    ['a result that is no array', accepted({ code: 0, result: null }), false],
    ['a refusal', { verdict: 'rejected', status: 400, code: -1 }, false],
    ['no answer', { verdict: 'no-answer' }, false],
  ];
  for (const [name, o, want] of cases) it(name, () => expect(showsPlaced(o)).toBe(want));
});
