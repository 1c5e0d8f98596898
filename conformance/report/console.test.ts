import { describe, expect, it } from 'vitest';
import type { RouteCell } from '../verdict.js';
import { cellsLine, cellsLines } from './console.js';

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
