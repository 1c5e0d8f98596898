/**
 * The run's record book (conformance/report/run-report.ts createRecordBook): one record per selected
 * check until the one decision of each, the account's refusal shown later excusing a failure
 * that met it, and checks the deadline kept from running.
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import { createRecordBook } from './run-report.js';
import { excusableMarks } from '../judgement/exhaustion.js';
import type { CheckRecord, RunFacts } from '../judgement/decide.js';
import { expect as want } from '../judgement/verdict.js';
import type { CheckDefinition } from '../judgement/types.js';

const def = (id: string): CheckDefinition => ({
  id,
  ruleId: 'ORDER-SIDE-ENUM',
  title: id,
  covers: ['v1/query'],
  run: () => Promise.resolve({ status: 'pass' }),
});
const refused: Observation = { verdict: 'rejected', status: 400, code: -2010, json: { code: -2010 } };
const failing = (d: CheckDefinition): CheckRecord => ({
  def: d,
  outcome: { status: 'fail', expected: 'accepted', actual: 'refused' },
  evidence: [{ route: 'v1/query', expectation: want.refuse(), observation: refused }],
  withheld: 0,
  cut: 0,
  effects: { shown: 0, methods: [] },
  durationMs: 3,
});
const facts: RunFacts = {
  knowledge: {
    routes: { 'v1/query': { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] } },
    missing: [],
  },
  profile: 'core',
  absent: new Set(),
  controlFailed: new Set(),
  lastAnswered: new Map(),
  budgetLabel: '--max-orders 7',
  deadlineLabel: '--max-time 5000 ms',
};

describe('the record book', () => {
  const selected = [def('A'), def('B'), def('C'), def('D')];

  it('decides each recorded check once, in selection order; a failure whose refusals meet the account refusal shown later is undecided, cause business', () => {
    const book = createRecordBook(selected, { baseUrl: 'http://x', seed: 1 });
    book.record(2, failing(def('C')), { marks: [], timeProbes: [] });
    book.record(0, failing(def('A')), { marks: ['HTTP 400 code -2010'], timeProbes: [] });
    book.notRun(3, 'not run: --max-time 5000 ms was reached before this check');
    book.excuse({ mark: 'HTTP 400 code -2010', reason: "the account's balance is spent" });
    const streamed: string[] = [];
    const reports = book.decideAll(facts, (r) => streamed.push(r.id));
    expect(reports.map((r) => [r.id, r.status, r.cause])).toEqual([
      ['A', 'inconclusive', 'business'],
      ['C', 'fail', undefined],
      ['D', 'skip', 'deadline'],
    ]);
    expect(streamed).toEqual(['A', 'C', 'D']);
    expect(reports[0]?.durationMs).toBe(3);
  });

  it('with no account refusal shown, nothing is excused; a decision asked early (--fail-fast) is the same', () => {
    const book = createRecordBook(selected, { baseUrl: 'http://x', seed: 1 });
    book.record(0, failing(def('A')), { marks: ['HTTP 400 code -2010'], timeProbes: [] });
    book.excuse(undefined);
    expect(book.decided(0, facts).status).toBe('fail');
    expect(book.decideAll(facts).map((r) => r.status)).toEqual(['fail']);
  });

  it('a failure resting on its own refusal of a valid order, when the controls sent at once were placed: excused once the account is shown, whether a single order, a whole batch or batch entries were refused; an acceptance of what must be refused never', () => {
    const batchRefused: Observation = {
      verdict: 'accepted',
      status: 200,
      json: { code: 0, result: [{ code: -2010 }] },
    };
    const placed: Observation = { verdict: 'accepted', status: 200, json: { code: 0, result: [{ code: 0 }] } };
    const resting = (
      d: CheckDefinition,
      route: string,
      observation: Observation,
      alsoAccepted = false,
    ): CheckRecord => ({
      ...failing(d),
      outcome: {
        status: 'fail',
        expected: 'accepted',
        actual: 'refused',
        exchange: { observation },
      },
      evidence: [
        { route, expectation: want.accept, observation },
        ...(alsoAccepted ? [{ route, expectation: want.refuse(), observation: placed }] : []),
      ],
    });
    const records = [
      resting(def('A'), 'v1/query', refused),
      resting(def('B'), 'batch/json', refused),
      resting(def('C'), 'batch/json', batchRefused),
      resting(def('D'), 'batch/json', batchRefused, true),
    ];
    const book = createRecordBook(selected, { baseUrl: 'http://x', seed: 1 });
    for (const [i, rec] of records.entries())
      book.record(i, rec, { marks: excusableMarks(rec.outcome, false, () => []), timeProbes: [] });
    book.excuse({ mark: 'HTTP 400 code -2010', reason: "the account's balance is spent" });
    book.excuse({ mark: 'entry code -2010', reason: "the account's balance is spent" });
    const withBatch: RunFacts = {
      ...facts,
      knowledge: {
        ...facts.knowledge,
        routes: {
          ...facts.knowledge.routes,
          'batch/json': { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] },
        },
      },
    };
    expect(book.decideAll(withBatch).map((r) => [r.id, r.status])).toEqual([
      ['A', 'inconclusive'],
      ['B', 'inconclusive'],
      ['C', 'inconclusive'],
      ['D', 'fail'],
    ]);
    // shown at once by the controls: the check's record carries it already, nothing more to keep
    expect(excusableMarks(records[0]?.outcome, true, () => ['x'])).toEqual([]);
    expect(excusableMarks({ status: 'fail' }, false, () => ['met'])).toEqual(['met']);
    expect(excusableMarks({ status: 'pass' }, false, () => ['met'])).toEqual([]);
  });
});
