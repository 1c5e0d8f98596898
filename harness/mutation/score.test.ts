/**
 * The mutation score: detected over the mutants not listed equivalent; a survivor the unmutated run
 * never reached is "not covered", still a survivor; a listed key no survivor has is stale.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { mutantRows, scoreOf, unjudged, type EquivalentList, type StrykerReport } from './score-lib.mjs';

const source = ['const a = 1;', "const msg = 'bad side';", 'if (x < y) go();'].join('\n');
const mutant = (id: string, line: number, mutatorName: string, replacement: string, status: string, column = 1) => ({
  id,
  mutatorName,
  replacement,
  status,
  location: { start: { line, column }, end: { line, column: column + 4 } },
});
const report: StrykerReport = {
  files: {
    'src/x.ts': {
      source,
      mutants: [
        mutant('1', 1, 'NumericLiteral', '0', 'Killed'),
        mutant('2', 2, 'StringLiteral', '""', 'Survived'),
        // listed before the same change at an earlier column: numbered in source order all the same
        mutant('3', 3, 'EqualityOperator', 'x <= y', 'Survived', 9),
        mutant('4', 3, 'EqualityOperator', 'x <= y', 'Survived'),
        mutant('5', 3, 'ConditionalExpression', 'true', 'Timeout'),
        mutant('6', 1, 'NumericLiteral', '2', 'CompileError'),
        mutant('7', 1, 'NumericLiteral', '3', 'Survived'),
      ],
    },
  },
};

describe('mutation score', () => {
  const rows = mutantRows(
    report,
    unjudged(
      '{"mutant":"4","code":0,"covered":false}\n{"mutant":"3","code":0}\n{"mutant":"7","code":0,"inServer":false}\n',
    ),
  );

  it('keys a mutant by file, mutator, source line and replacement; a repeat later in the line gets #2, whatever order the report lists them in; compile errors are left out', () => {
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['src/x.ts | NumericLiteral | const a = 1; | 0', 'Killed'],
      ['src/x.ts | NumericLiteral | const a = 1; | 3', 'NotServer'],
      ['src/x.ts | StringLiteral | const msg = \'bad side\'; | ""', 'Survived'],
      ['src/x.ts | EqualityOperator | if (x < y) go(); | x <= y', 'NoCoverage'],
      ['src/x.ts | ConditionalExpression | if (x < y) go(); | true', 'Timeout'],
      ['src/x.ts | EqualityOperator | if (x < y) go(); | x <= y #2', 'Survived'],
    ]);
  });

  it('scores killed and timed out over the server mutants not listed equivalent (those outside the server apart); the rest are unexplained', () => {
    const none: EquivalentList = { classes: {}, mutants: [] };
    expect(scoreOf(rows, none)).toMatchObject({
      mutants: 5,
      killed: 1,
      timedOut: 1,
      survived: 3,
      notCovered: 1,
      score: 40,
    });
    const listed: EquivalentList = {
      classes: { msg: 'message text' },
      mutants: [
        { key: 'src/x.ts | StringLiteral | const msg = \'bad side\'; | ""', class: 'msg' },
        { key: 'src/x.ts | Gone | nothing | x', class: 'msg' },
      ],
    };
    const s = scoreOf(rows, listed);
    expect(s).toMatchObject({ equivalent: 1, score: 50, scoreAll: 40, stale: ['src/x.ts | Gone | nothing | x'] });
    expect(s.unexplained.map((r) => r.id)).toEqual(['4', '3']);
  });

  it('the committed equivalent list names a known class for every mutant, with its reason', () => {
    const list = JSON.parse(readFileSync(kitPath('harness', 'mutation', 'equivalent.json'), 'utf8')) as EquivalentList;
    for (const m of list.mutants) expect(list.classes[m.class], m.key).toMatch(/\S{10}/);
    expect(new Set(list.mutants.map((m) => m.key)).size).toBe(list.mutants.length);
  });
});
