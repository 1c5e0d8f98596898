import { describe, expect, it } from 'vitest';
import { parsePlaceholder, renderTemplate, TemplateError } from './template.js';

describe('renderTemplate', () => {
  const helpers = {
    upper: (args: string[]) => args.join(' ').toUpperCase(),
    pick: (_a: string[], opts: Readonly<Record<string, string>>) => `${opts.k ?? '?'}`,
    boom: () => {
      throw new Error('no such vector');
    },
  };

  it('replaces each placeholder by its helper output and leaves other text alone', () => {
    expect(renderTemplate('t.md', 'a {{upper x y}} b {{ pick k=v }} c', helpers)).toBe('a X Y b v c');
  });

  it('fails on an unknown helper, naming file and line', () => {
    expect(() => renderTemplate('g.md', 'one\ntwo {{nope 1}}', helpers)).toThrow(
      /^g\.md:2: unknown placeholder \{\{nope 1\}\}/,
    );
  });

  it('fails when a helper throws, keeping its message', () => {
    const run = () => renderTemplate('g.md', '{{boom}}', helpers);
    expect(run).toThrow(TemplateError);
    expect(run).toThrow(/g\.md:1: \{\{boom\}\}: no such vector/);
  });

  it('does not reach helpers through the prototype chain', () => {
    expect(() => renderTemplate('g.md', '{{toString}}', helpers)).toThrow(/unknown placeholder/);
  });
});

describe('parsePlaceholder', () => {
  it('separates name, positional arguments and options', () => {
    expect(parsePlaceholder(' vec signing 3 field=totalParams ')).toEqual({
      name: 'vec',
      args: ['signing', '3'],
      opts: { field: 'totalParams' },
    });
  });
});

describe('escaped braces', () => {
  it('writes \\{{...}} as literal braces without calling a helper', () => {
    expect(
      renderTemplate('t.md', 'key: $\\{{ secrets.KEY }} and {{upper a}}', { upper: (a) => a.join('').toUpperCase() }),
    ).toBe('key: ${{ secrets.KEY }} and A');
  });
});
