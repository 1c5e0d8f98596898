import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipWords, packItems, wrapWords } from './words.js';

const words = fc.array(fc.stringMatching(/^[a-z0-9/().,-]{1,14}$/), { minLength: 1, maxLength: 40 });

describe('word-boundary clipping and wrapping', () => {
  it('clips at a space, marks the cut, and keeps what fits whole', () => {
    expect(clipWords('no positive control on this route', 80)).toBe('no positive control on this route');
    expect(clipWords('no positive control on this route', 20)).toBe('no positive control…');
    expect(clipWords('HTTP 404 {"error":"not found"}', 16)).toBe('HTTP 404…');
  });

  it('a clipped text is whole words of the original, never a word cut short', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 16, max: 120 }), (ws, max) => {
        const text = ws.join(' ');
        const c = clipWords(text, max);
        expect(c.length).toBeLessThanOrEqual(max);
        if (c === text) return;
        const kept = c.slice(0, -1).split(' ');
        // every kept word is the original word at its position
        kept.forEach((w, i) => expect(ws[i]?.startsWith(w.replace(/[,;:]+$/, ''))).toBe(true));
        expect(kept.slice(0, -1)).toEqual(ws.slice(0, kept.length - 1));
      }),
    );
  });

  it('wraps at spaces only: the words read back in order, no line past the width unless one word is', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 20, max: 100 }), (ws, width) => {
        const lines = wrapWords(`    ${ws.join(' ')}`, width, '      ');
        expect(
          lines
            .join(' ')
            .split(/\s+/)
            .filter((w) => w !== ''),
        ).toEqual(ws);
        for (const l of lines) if (l.length > width) expect(l.trim()).not.toContain(' ');
        expect(lines[0]?.startsWith('    ')).toBe(true);
      }),
    );
  });

  it('packs items between items, each line indented', () => {
    const items = ['batch/json ✔', 'v1/query ? (no positive control on this route in this run)', 'v1/body ✔'];
    const lines = packItems(items, 80, '      ');
    expect(lines).toEqual([
      '      batch/json ✔  v1/query ? (no positive control on this route in this run)',
      '      v1/body ✔',
    ]);
    expect(packItems(['a ✔', 'b ✔'], 60, '  ')).toEqual(['  a ✔  b ✔']);
    // an item longer than a line: wrapped at its words, continued two spaces in
    expect(packItems(['v1/query ? (no positive control on this route)'], 30, '  ')).toEqual([
      '  v1/query ? (no positive',
      '    control on this route)',
    ]);
  });
});
