/**
 * judgeExtreme (ORDER-DECIMAL-FORMAT.huge, .huge-amount, .overflow): refused or placed with the
 * exact value passes; another value, a 5xx or garbage fails; an answer that cannot show the
 * value placed is undecided, never passed.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/core/response.js';
import type { SendResult } from '../engine/transport.js';
import type { Route } from '../engine/requests.js';
import { judgeExtreme, PAST_DOUBLE, PAST_LONG } from './extremes.js';

const V1: Route = { endpoint: 'v1', placement: 'query' };
const BATCH: Route = { endpoint: 'batch', placement: 'json' };

/** An answer as the transport hands it to a check (outside a run: no knowledge of the target). */
function answer(status: number, text: string): SendResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const observation = classify({ status, text, ...(json === undefined ? {} : { json }) });
  return {
    observation,
    exchange: { request: { method: 'POST', path: '/', query: '', body: '', headers: {} }, observation },
  } as SendResult;
}

const judge = (r: SendResult, route = V1, value = PAST_LONG) =>
  judgeExtreme(r, route, 'quantity', value, 'probe')?.status ?? 'pass';

describe('judgeExtreme', () => {
  it('passes a refusal, and a single order placed with its exact value in any notation or nesting', () => {
    expect(judge(answer(400, '{"code":-1130,"msg":"bad quantity"}'))).toBe('pass');
    expect(judge(answer(200, `{"code":0,"origQty":"${PAST_LONG}"}`))).toBe('pass');
    expect(judge(answer(200, `{"code":0,"order":{"origQty":"${PAST_LONG}.00"}}`))).toBe('pass');
    expect(judge(answer(200, `{"data":{"origQty":${PAST_LONG}}}`))).toBe('pass');
    expect(judge(answer(200, '{"code":0,"origQty":"1E+400"}'), V1, PAST_DOUBLE)).toBe('pass');
  });

  it('fails a single order placed with another value, and a 5xx', () => {
    expect(judge(answer(200, '{"code":0,"origQty":"5"}'))).toBe('fail');
    expect(judge(answer(200, '{"code":0,"origQty":"18446744073709552000"}'))).toBe('fail');
    expect(judge(answer(200, '{"code":0,"origQty":"Infinity"}'), V1, PAST_DOUBLE)).toBe('fail');
    expect(judge(answer(200, '{"code":0,"origQty":null}'), V1, PAST_DOUBLE)).toBe('fail');
    expect(judge(answer(500, '{"msg":"NumberFormatException"}'))).toBe('fail');
  });

  it('leaves undecided an acceptance with no echo, or an echo no JSON parser reads exactly', () => {
    expect(judge(answer(200, '{"code":0,"orderId":"1"}'))).toBe('inconclusive');
    expect(judge(answer(200, '{"code":0,"origQty":1e400}'), V1, PAST_DOUBLE)).toBe('inconclusive');
    expect(judge(answer(200, '{"code":0,"origQty":1.8446744073709551621e19}'))).toBe('inconclusive');
  });

  it('reads a batch by its first entry: failed passes, placed is compared, no code is undecided', () => {
    expect(judge(answer(200, '{"code":0,"result":[{"code":-1130,"msg":"bad"}]}'), BATCH)).toBe('pass');
    expect(judge(answer(200, `{"code":0,"result":[{"code":0,"order":{"origQty":"${PAST_LONG}"}}]}`), BATCH)).toBe(
      'pass',
    );
    expect(judge(answer(200, '{"code":0,"result":[{"code":0,"order":{"origQty":"5"}}]}'), BATCH)).toBe('fail');
    expect(judge(answer(200, `{"code":0,"result":[{"order":{"origQty":"${PAST_LONG}"}}]}`), BATCH)).toBe(
      'inconclusive',
    );
  });
});
