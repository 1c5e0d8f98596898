/**
 * `vectors/time-window.json` (§5.4): expectations written here by hand from the seed,
 * never computed by the code under test.
 */
import type { TimeWindowVector, TimeWindowVectorFile } from '../types.js';
import { vectorFile, type Draft } from './common.js';

function timeDrafts(): Array<Draft<TimeWindowVector>> {
  const S = 1767225600000;
  const ok = (
    comment: string,
    flags: string[],
    timestamp: number,
    recvWindow?: number,
    serverTime = S,
  ): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'valid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
  });
  const old = (
    comment: string,
    flags: string[],
    timestamp: number,
    recvWindow?: number,
    serverTime = S,
  ): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'invalid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
    reason: 'too-old',
    ruleId: 'TIME-WINDOW-PAST',
  });
  const ahead = (
    comment: string,
    flags: string[],
    timestamp: number,
    recvWindow?: number,
    serverTime = S,
  ): Draft<TimeWindowVector> => ({
    comment,
    flags,
    result: 'invalid',
    serverTime,
    timestamp,
    ...(recvWindow === undefined ? {} : { recvWindow }),
    reason: 'too-far-ahead',
    ruleId: 'TIME-WINDOW-LEAD',
  });
  return [
    ok('timestamp equal to serverTime, recvWindow omitted', ['SameMillisecond', 'DefaultRecvWindow'], S),
    ok('timestamp equal to serverTime, recvWindow 5000', ['SameMillisecond'], S, 5000),
    ok(
      'exactly 5000 ms old with the default recvWindow (serverTime - timestamp <= recvWindow)',
      ['DefaultRecvWindow', 'Boundary'],
      S - 5000,
    ),
    old('5001 ms old with the default recvWindow', ['DefaultRecvWindow', 'Boundary'], S - 5001),
    ok('exactly 5000 ms old with recvWindow 5000 given', ['Boundary'], S - 5000, 5000),
    old('5001 ms old with recvWindow 5000 given', ['Boundary'], S - 5001, 5000),
    ok('exactly recvWindow (3000) old', ['Boundary'], S - 3000, 3000),
    old('recvWindow (3000) + 1 ms old', ['Boundary'], S - 3001, 3000),
    ok('1 ms old, recvWindow omitted', ['DefaultRecvWindow'], S - 1),
    ok('timestamp leads serverTime by 1 ms', ['Lead'], S + 1),
    ok('timestamp leads serverTime by 999 ms (timestamp < serverTime + 1000)', ['Lead', 'Boundary'], S + 999),
    ahead('timestamp leads serverTime by 1000 ms', ['Lead', 'Boundary'], S + 1000),
    ahead('timestamp leads serverTime by 1001 ms', ['Lead'], S + 1001),
    ahead(
      'lead of 1000 ms with recvWindow 60000: recvWindow does not widen the lead',
      ['Lead', 'Boundary', 'LargeRecvWindow'],
      S + 1000,
      60000,
    ),
    ok(
      'lead of 999 ms with recvWindow 0: the lead allowance does not depend on recvWindow',
      ['Lead', 'Boundary', 'ZeroRecvWindow'],
      S + 999,
      0,
    ),
    ahead('timestamp a day ahead', ['Lead', 'FarOff'], S + 86_400_000),
    ok('recvWindow 0, same millisecond', ['ZeroRecvWindow', 'SameMillisecond', 'Boundary'], S, 0),
    old('recvWindow 0, 1 ms old', ['ZeroRecvWindow', 'Boundary'], S - 1, 0),
    ok('recvWindow 1, 1 ms old', ['Boundary'], S - 1, 1),
    old('recvWindow 1, 2 ms old', ['Boundary'], S - 2, 1),
    ok('recvWindow 60000, exactly 60000 ms old', ['LargeRecvWindow', 'Boundary'], S - 60000, 60000),
    old('recvWindow 60000, 60001 ms old', ['LargeRecvWindow', 'Boundary'], S - 60001, 60000),
    ok('recvWindow 60000, 30000 ms old', ['LargeRecvWindow'], S - 30000, 60000),
    old('recvWindow 10000 but 10 minutes old', ['FarOff'], S - 600_000, 10000),
    old('timestamp 0 (epoch): far too old', ['FarOff', 'DefaultRecvWindow'], 0),
    old(
      'timestamp in seconds instead of milliseconds',
      ['FarOff', 'DefaultRecvWindow', 'Seconds'],
      Math.floor(S / 1000),
    ),
    ahead('timestamp in microseconds instead of milliseconds', ['Lead', 'FarOff', 'Microseconds'], S * 1000),
    ok(
      'serverTime and timestamp of a published signing example (HashKey, 1538323200000), 4999 ms old',
      ['DefaultRecvWindow'],
      1538323200000 - 4999,
      undefined,
      1538323200000,
    ),
    old('6000 ms old with recvWindow 5999', ['Boundary'], S - 6000, 5999),
    ok('6000 ms old with recvWindow 6000', ['Boundary'], S - 6000, 6000),
  ];
}

const TIME_HEADER = [
  'Golden vectors for the time-based security of seed §5.4: a request is processed iff timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow.',
  'recvWindow absent means the default 5000 (§5.4 item 2). All values are integer milliseconds since the epoch.',
  'Invalid vectors name the reason (too-old: serverTime - timestamp > recvWindow, rule TIME-WINDOW-PAST; too-far-ahead: timestamp >= serverTime + 1000, rule TIME-WINDOW-LEAD).',
  'When both would apply the lead check is reported first; no vector here has both.',
  'Limits on recvWindow itself (D-RECVWINDOW-MAX) are parameter validation, not part of this check.',
  'Generated by vectors/generate/time-window.ts; checked against vectors/schema/time-window.schema.json by vectors/load.ts.',
];

const TIME_NOTES: Record<string, string> = {
  SameMillisecond: 'timestamp equals serverTime.',
  DefaultRecvWindow: 'recvWindow is omitted, so the default of 5000 ms applies.',
  Boundary: 'The case sits on, or one millisecond past, an edge of the window.',
  Lead: 'The timestamp is ahead of the server time; only a lead under 1000 ms is accepted (§5.4 item 4).',
  ZeroRecvWindow: 'recvWindow is 0: only a timestamp not older than serverTime is accepted.',
  LargeRecvWindow: 'recvWindow is 60000, far above the recommended 5000 (still honoured as sent).',
  FarOff: 'The timestamp is far from the server time.',
  Seconds: 'A client bug: the timestamp is in seconds.',
  Microseconds: 'A client bug: the timestamp is in microseconds.',
};

/** The content of `vectors/time-window.json`. */
export function build(): TimeWindowVectorFile {
  return vectorFile<TimeWindowVector>('time-window', TIME_HEADER, TIME_NOTES, timeDrafts());
}
