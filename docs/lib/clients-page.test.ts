import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { checkMatrix, clientHelpers, CLIENT_NOTES, ID_TITLES, PLACEMENT_TITLES } from './clients-page.js';

const raw = JSON.parse(readFileSync(kitPath('docs', 'data', 'client-libraries.json'), 'utf8')) as unknown;
const matrix = checkMatrix(raw);
const helpers = clientHelpers(matrix);
const call = (name: string): string => {
  const h = helpers[name];
  if (h === undefined) throw new Error(`no helper ${name}`);
  return h([], {});
};

describe('the "Client libraries" page over the committed interop matrix', () => {
  it('renders the grade card of every client: a column per client, its verdict, each rule it exercised', () => {
    const graded = matrix.clients.filter((c) => c.grade !== undefined);
    expect(graded.length).toBe(matrix.clients.length);
    const out = call('client-grades');
    for (const c of graded) expect(out).toContain(c.name);
    expect(out).toContain('`CLIENT-SIGNATURE`');
    for (const c of graded)
      for (const r of c.grade?.rules ?? [])
        if (r.status === 'broken') expect(out).toContain(`**broken on ${r.broken} of ${r.exercised}**`);
    const bad = {
      ...matrix,
      clients: [
        {
          ...graded[0],
          grade: {
            verdict: 'kept',
            requests: 1,
            rules: [{ id: 'CLIENT-SIGNATURE', status: 'kept', broken: 2, exercised: 2 }],
          },
        },
      ],
    };
    expect(() => checkMatrix(bad)).toThrow(/malformed grade card/);
  });

  it('holds a real run of at least four clients, each with a version and every scenario', () => {
    expect(matrix.clients.length).toBeGreaterThanOrEqual(4);
    expect(Number.isNaN(Date.parse(matrix.generated))).toBe(false);
    for (const c of matrix.clients) {
      expect(c.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(Object.keys(c.scenarios)).toHaveLength(
        Object.keys(PLACEMENT_TITLES).length * Object.keys(ID_TITLES).length,
      );
    }
    // the @binance/connector case: a client id holding ' is re-encoded after signing (ENCODING_MISMATCH, not SIGNED_BEFORE_ENCODING)
    expect(matrix.clients.find((c) => c.package === '@binance/connector')?.scenarios['query/quote']).toBe(
      'ENCODING_MISMATCH',
    );
  });

  it('renders the run, the summary, one table per placement and every mistake found with its note', () => {
    expect(call('client-run')).toContain(matrix.generated.slice(0, 10));
    const summary = call('client-summary');
    for (const c of matrix.clients) expect(summary).toContain(c.version);
    const tables = call('client-matrix');
    for (const t of Object.values(PLACEMENT_TITLES)) expect(tables).toContain(`### ${t}`);
    const mistakes = call('client-mistakes');
    for (const c of matrix.clients) {
      for (const o of Object.values(c.scenarios))
        if (/^[A-Z]/.test(o)) expect(mistakes).toContain(`### ${c.name}: \`${o}\``);
    }
  });

  it('has a note written for every (client, mistake) the committed run found', () => {
    for (const c of matrix.clients) {
      for (const [s, o] of Object.entries(c.scenarios)) {
        if (o === 'accepted' || o === 'unsupported') continue;
        const key = /^[A-Z]/.test(o) ? o : (c.evidence[s]?.signature ?? o);
        expect(CLIENT_NOTES[`${c.name}|${key}`], `${c.name}|${key}`).toBeDefined();
      }
    }
  });

  it('refuses a matrix with a missing scenario or an unknown outcome', () => {
    const first = matrix.clients[0];
    expect(first).toBeDefined();
    const without = {
      ...matrix,
      clients: [{ ...first, scenarios: { ...first?.scenarios, 'query/plain': undefined } }],
    };
    expect(() => checkMatrix(without)).toThrow(/query\/plain/);
    const unknown = {
      ...matrix,
      clients: [{ ...first, scenarios: { ...first?.scenarios, 'query/plain': 'NOT_A_CODE' } }],
    };
    expect(() => checkMatrix(unknown)).toThrow(/unknown doctor code/);
    expect(() => checkMatrix({})).toThrow(/npm run interop/);
  });
});
