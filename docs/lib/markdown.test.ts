import { describe, expect, it } from 'vitest';
import { code, codeBlock, escapeMd, headingSlug, table } from './markdown.js';

describe('escapeMd', () => {
  it('escapes Markdown and HTML in prose but leaves code spans as written', () => {
    expect(escapeMd('a *b* <c> [d] e_f | g')).toBe('a \\*b\\* &lt;c&gt; \\[d\\] e\\_f \\| g');
    expect(escapeMd('key `<SECRET_KEY>` is *used*')).toBe('key `<SECRET_KEY>` is \\*used\\*');
    expect(escapeMd('a `x|y` b')).toBe('a `x\\|y` b');
    expect(escapeMd('one\ntwo')).toBe('one two');
    expect(escapeMd('a lone ` tick')).toBe('a lone \\` tick');
  });
});

describe('code and codeBlock', () => {
  it('fence the text so backticks inside cannot end it', () => {
    expect(code('a')).toBe('`a`');
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`a')).toBe('`` `a ``');
    expect(code('')).toBe('*(empty)*');
    expect(codeBlock('x\n```\ny', 'sh')).toBe('````sh\nx\n```\ny\n````');
  });
});

describe('table and headingSlug', () => {
  it('writes a header, a rule and the rows', () => {
    expect(table(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });
  it('slugs like TypeDoc: lower case, punctuation dropped, spaces to dashes', () => {
    expect(headingSlug('SIG-REQUIRED')).toBe('sig-required');
    expect(headingSlug('Step 5: the JSON body')).toBe('step-5-the-json-body');
  });
});
