import { describe, expect, it } from 'vitest';
import type { RouteCell } from '../judgement/verdict.js';
import { CHECK_LINE_MAX, cellsLine, cellsLines, checkLine, shortObservation } from './console.js';

const reason =
  'no positive control: a valid request on this route met the same refusal in this run (code -1013, filter failure: LOT_SIZE), so the rejection proves nothing';

describe('console route notes', () => {
  const cells: RouteCell[] = [
    { route: 'batch/json', verdict: 'pass', requests: 3 },
    { route: 'v1/query', verdict: 'inconclusive', reason, requests: 3 },
    { route: 'v1/body', verdict: 'unanswered', reason: 'no answer within 10000 ms (timeout)', requests: 1 },
    { route: 'v1.1/split', verdict: 'fail', requests: 2 },
  ];

  it('wrap between routes and words, at most 100 columns, no word cut short', () => {
    const lines = cellsLines(cells, '      ');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    for (const l of lines) expect(l.startsWith('      ')).toBe(true);
    const words = lines
      .join(' ')
      .split(/\s+/)
      .filter((w) => w !== '');
    const whole = new Set(cellsLine(cells).split(/\s+/));
    for (const w of words) expect(whole.has(w), w).toBe(true);
    // the long reason is cut at a word, and says it was cut
    expect(cellsLine(cells)).toMatch(/\(no positive control: [^)]*\b\w+…\)/);
    expect(cellsLine(cells)).toContain('v1/body … (no answer within 10000 ms (timeout))');
  });
});

describe('console lines of a check', () => {
  const base = {
    ruleId: 'ORDER-SIDE-ENUM',
    family: 'ORDER',
    level: 'INFO',
    section: '2.1',
    requirement: 'side is BUY or SELL',
    durationMs: 1,
  } as const;
  const answer = (n: number) =>
    `{"code":0,"accountId":"1000000001","symbol":"BTCUSDT","clientOrderId":"sc-${n}","orderId":"17959325179651${n}","transactTime"…`;
  const items = Array.from(
    { length: 40 },
    (_, i) =>
      `v1/query: side.form-${i} (a form explained at length (with a nested aside), as the catalogue does) [D-PARAM-NAMES]: ${i % 2 === 0 ? `accepted (HTTP 200 ${answer(i)})` : `rejected (HTTP 400 {"code":-1102,"msg":"side: expected BUY or SELL, got missing (ORDER-SIDE-ENUM)"})`}`,
  );

  it('an INFO line says what the server did and where, in one short line, the answers left to the reports', () => {
    const observed = items.join('; ');
    expect(observed.length).toBeGreaterThan(8000);
    const line = checkLine(
      { ...base, id: 'ORDER-SIDE-ENUM.domain-open', status: 'info', title: 'forms of side', observed },
      false,
    );
    expect(line).not.toContain('\n');
    expect(line.length).toBeLessThanOrEqual(CHECK_LINE_MAX);
    expect(line).toMatch(/^ {2}i ORDER-SIDE-ENUM\.domain-open \[INFO, §2\.1\] v1\/query: side\.form-0 /);
    expect(line).toContain('accepted (HTTP 200)');
    expect(line).not.toContain('"accountId"');
    const shown = [...line.matchAll(/side\.form-\d+/g)].length;
    expect(shown).toBeGreaterThan(0);
    expect(line).toContain(`… ${items.length - shown} more in the reports`);
  });

  it('a short observation is kept whole but for the answer bodies', () => {
    const text = `v1.1 LIMIT without quantity: rejected (HTTP 400 {"code":-1102,"msg":"quantity: missing (ORDER-QUANTITY-V11)"})`;
    expect(shortObservation(text, 200)).toBe('v1.1 LIMIT without quantity: rejected (HTTP 400)');
    expect(shortObservation('clock offset 5 ms ± 7 ms (date-header)', 200)).toBe(
      'clock offset 5 ms ± 7 ms (date-header)',
    );
  });

  it('the asides go before whole items do, and a single long item is cut at a word', () => {
    const two = items.slice(0, 2).join('; ');
    const short = shortObservation(two, 200);
    expect(short).toBe(
      'v1/query: side.form-0 [D-PARAM-NAMES]: accepted (HTTP 200); v1/query: side.form-1 [D-PARAM-NAMES]: rejected (HTTP 400)',
    );
    const one = shortObservation(`x ${'word '.repeat(100)}`, 60);
    expect(one.length).toBeLessThanOrEqual(60);
    expect(one.endsWith('…')).toBe(true);
  });

  it('a pass is its ID, level and section; a skip keeps its title and reason, both cut to fit', () => {
    expect(checkLine({ ...base, id: 'ORDER-SIDE-ENUM', level: 'MUST', status: 'pass', title: 't' }, false)).toBe(
      '  ✔ ORDER-SIDE-ENUM [MUST, §2.1]',
    );
    const skip = checkLine(
      {
        ...base,
        id: 'ORDER-SIDE-ENUM',
        status: 'skip',
        title: 'a long title '.repeat(20),
        reason: 'a long reason '.repeat(40),
      },
      false,
    );
    expect(skip.length).toBeLessThanOrEqual(CHECK_LINE_MAX);
    expect(skip).toMatch(/^ {2}- ORDER-SIDE-ENUM \[INFO, §2\.1\] a long title .*… \(skipped: a long reason .*…\)$/);
  });
});
