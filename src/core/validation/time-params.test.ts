import { describe, expect, it } from 'vitest';
import { checkTimeParams, MAX_RECV_WINDOW } from './time-params.js';

const ids = (r: ReturnType<typeof checkTimeParams>): string[] => r.issues.map((i) => i.ruleId);

describe('checkTimeParams (§5.4 items 1-2, decision D-RECVWINDOW-MAX)', () => {
  it('reads timestamp and recvWindow from query strings or JSON numbers', () => {
    expect(checkTimeParams('1767225600000', '5000')).toEqual({
      timestamp: 1767225600000,
      recvWindow: 5000,
      issues: [],
    });
    expect(checkTimeParams(1767225600000, undefined)).toEqual({ timestamp: 1767225600000, issues: [] });
    expect(checkTimeParams(1, 0)).toEqual({ timestamp: 1, recvWindow: 0, issues: [] });
  });

  it('requires timestamp (TIME-TIMESTAMP-REQUIRED)', () => {
    const r = checkTimeParams(undefined, '5000');
    expect(ids(r)).toEqual(['TIME-TIMESTAMP-REQUIRED']);
    expect(r.timestamp).toBeUndefined();
    expect(r.recvWindow).toBe(5000);
  });

  it('refuses a value that is not whole milliseconds (ORDER-RECVWINDOW-FORMAT), on the right path', () => {
    const r = checkTimeParams('1767225600000.5', 'abc');
    expect(ids(r)).toEqual(['ORDER-RECVWINDOW-FORMAT', 'ORDER-RECVWINDOW-FORMAT']);
    expect(r.issues.map((i) => i.path)).toEqual([['timestamp'], ['recvWindow']]);
    expect(ids(checkTimeParams('-1', undefined))).toEqual(['ORDER-RECVWINDOW-FORMAT']);
    expect(ids(checkTimeParams(1, -5))).toEqual(['ORDER-RECVWINDOW-FORMAT']);
  });

  it('accepts recvWindow up to 60000 and refuses more (TIME-RECVWINDOW-RECOMMENDED)', () => {
    expect(MAX_RECV_WINDOW).toBe(60000);
    expect(checkTimeParams(1, '60000').recvWindow).toBe(60000);
    const r = checkTimeParams(1, '60001');
    expect(ids(r)).toEqual(['TIME-RECVWINDOW-RECOMMENDED']);
    expect(r.recvWindow).toBeUndefined();
  });
});

describe('the text forms of a LONG (D-LONG-CANONICAL)', () => {
  it('refuses a leading zero, a plus sign and padding as ORDER-LONG-CANONICAL, and keeps plain digits and 0', () => {
    for (const v of ['01700000000000', '+1700000000000', ' 1700000000000', '1700000000000 ', '05000', '00']) {
      expect(
        checkTimeParams(v, undefined).issues.map((i) => i.ruleId),
        v,
      ).toEqual(['ORDER-LONG-CANONICAL']);
      expect(
        checkTimeParams('1700000000000', v).issues.map((i) => i.ruleId),
        v,
      ).toEqual(['ORDER-LONG-CANONICAL']);
    }
    expect(checkTimeParams('1700000000000', '0').issues).toEqual([]);
    expect(checkTimeParams('1700000000000', '5000').issues).toEqual([]);
  });

  it('refuses a fraction, a sign and an exponent as ORDER-RECVWINDOW-FORMAT', () => {
    for (const v of ['1700000000000.5', '-1700000000000', '1.7e12', '5e3']) {
      expect(
        checkTimeParams(v, undefined).issues.map((i) => i.ruleId),
        v,
      ).toEqual(['ORDER-RECVWINDOW-FORMAT']);
    }
  });
});
