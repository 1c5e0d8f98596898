import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { rules } from '../../src/rules.js';
import { sign } from '../../src/signing/hmac.js';
import { loadDoctorVectors, loadOrderVectors, loadSigningVectors, loadTimeWindowVectors } from '../../vectors/load.js';
import SwaggerParser from '@apidevtools/swagger-parser';
import { checkMatrix } from './clients-page.js';
import { decisionRows, makeHelpers, moduleName, type DocsData } from './helpers.js';
import type { OpenApiDocument } from './openapi-pages.js';
import { renderTemplate } from './template.js';
import { ageText, pickVector } from './vector-views.js';

const data: DocsData = {
  signing: loadSigningVectors(),
  timeWindow: loadTimeWindowVectors(),
  orders: loadOrderVectors(),
  doctor: loadDoctorVectors(),
  clients: checkMatrix(JSON.parse(readFileSync(kitPath('docs', 'data', 'client-libraries.json'), 'utf8'))),
  rules: rules(),
  decisions: decisionRows(readFileSync(kitPath('spec', 'decisions.md'), 'utf8')),
  openapi: (await SwaggerParser.dereference(kitPath('spec', 'openapi.yaml'))) as unknown as OpenApiDocument,
  constants: { MAX_BATCH_ORDERS: 20 },
  cliHelp: new Map([['sign', 'Usage: spotcheck sign\n']]),
  apiModule: 'index',
};
const render = (t: string) => renderTemplate('t.md', t, makeHelpers(data));

describe('guide helpers over the real data', () => {
  it('shows a worked example whose values are those of the vector, the join without "&" included', () => {
    const out = render('{{example flags=Published,Split result=valid}}');
    const v = pickVector(data.signing.tests, { flags: ['Published', 'Split'], result: 'valid' }, 'signing');
    expect(out).toContain(`Golden vector #${v.tcId} of \`vectors/signing.json\` (valid)`);
    expect(out).toContain(`\n\ntotalParams:\n${v.totalParams}\n\n`);
    expect(out).toContain(`\n\nsignature:\n${v.signature}\n`);
    expect(out).toContain(`\n\nbody as sent (${v.bodyKind}):\n${v.body}\n`);
    expect(v.totalParams).toBe(v.queryWithoutSignature + v.signedBody);
    expect(sign(v.secret, v.totalParams)).toBe(v.signature);
  });

  it('shows the presented signature only when it differs, and only the fields asked for', () => {
    const flipped = render('{{example flags=FlippedBit,DerivedFromPublished}}');
    expect(flipped).toContain('\n\nsignature of totalParams (correct):\n');
    expect(flipped).toContain('\n\nsignature the request carries:\n');
    expect(render('{{example flags=Published,QueryOnly}}')).not.toContain('carries');
    const some = render('{{example flags=Published,QueryOnly fields=totalParams,signature}}');
    expect(some).not.toContain('secret');
    expect(some).toMatch(/```text\ntotalParams:\n\S+\n\nsignature:\n[0-9a-f]{64}\n```/);
  });

  it('inserts single values, vector numbers, counts, constants, rule and decision links', () => {
    const v = pickVector(data.signing.tests, { flags: ['JsonBody', 'Batch'], result: 'valid' }, 'signing');
    expect(render('{{value field=signature flags=JsonBody,Batch result=valid}}')).toBe(`\`${v.signature}\``);
    expect(render('{{tc flags=JsonBody,Batch result=valid}}')).toBe(`#${v.tcId}`);
    const upper = pickVector(data.signing.tests, { flags: ['WrongSecret'], about: 'upper case' }, 'signing');
    expect(upper.comment).toMatch(/upper case/);
    expect(render('{{tc flags=WrongSecret about=UPPER_case}}')).toBe(`#${upper.tcId}`);
    const reserialised = data.signing.tests
      .filter((t) => t.flags.includes('JsonReserialised'))
      .map((t) => `#${t.tcId}`);
    expect(reserialised.length).toBeGreaterThan(1);
    expect(render('{{tcs flags=JsonReserialised}}')).toBe(reserialised.join(', '));
    expect(() => render('{{tcs flags=NoSuchFlag}}')).toThrow(/no vector/);
    expect(render('{{count signing}}')).toBe(String(data.signing.tests.length));
    expect(render('{{const MAX_BATCH_ORDERS}}')).toBe('20');
    expect(render('{{rule-count}}')).toBe(String(data.rules.size));
    expect(Number(render('{{rule-count MUST}}'))).toBe(
      [...data.rules.values()].filter((r) => r.level === 'MUST').length,
    );
    expect(render('{{rule SIG-REQUIRED}}')).toBe('[`SIG-REQUIRED`](./rules.md#sig-required)');
    expect(render('{{decision D-EMPTY-BATCH}}')).toBe('[D-EMPTY-BATCH](./decisions.md)');
    expect(render('{{cli-help sign}}')).toBe('```text\nUsage: spotcheck sign\n```');
  });

  it('tabulates every boundary time vector with its verdict and rule', () => {
    const out = render('{{time-table}}');
    const boundary = data.timeWindow.tests.filter((t) => t.flags.includes('Boundary'));
    expect(out.split('\n')).toHaveLength(boundary.length + 2);
    for (const t of boundary) {
      expect(out).toContain(
        `| #${t.tcId} | ${t.recvWindow ?? 'absent (5000)'} | \`${t.serverTime - t.timestamp}\` (${ageText(t)}) | **${t.result === 'valid' ? 'processed' : 'rejected'}** |`,
      );
    }
    expect(out).toContain('[`TIME-WINDOW-LEAD`](./rules.md#time-window-lead)');
  });

  it('tabulates the batch validation cases', () => {
    const out = render('{{order-cases kind=batch}}');
    expect(out.split('\n')).toHaveLength(data.orders.tests.filter((t) => t.kind === 'batch').length + 2);
    expect(out).toContain('[`BATCH-MAX-ORDERS`](./rules.md#batch-max-orders)');
  });

  it('fails on anything it cannot resolve', () => {
    expect(() => render('{{example flags=NoSuchFlag}}')).toThrow(
      /no vector in vectors\/signing.json with flags \[NoSuchFlag\]/,
    );
    expect(() => render('{{example flags=Published tc=9999}}')).toThrow(/tcId 9999/);
    expect(() => render('{{value field=nope flags=Published}}')).toThrow(/unknown signing field nope/);
    expect(() => render('{{rule SIG-NOPE}}')).toThrow(/unknown rule ID SIG-NOPE/);
    expect(() => render('{{decision D-NOPE}}')).toThrow(/no decision D-NOPE/);
    expect(() => render('{{const NOPE}}')).toThrow(/unknown constant NOPE/);
    expect(() => render('{{cli-help serve-nope}}')).toThrow(/no help text/);
    expect(() => render('{{order-cases kind=batch flag=NoSuchFlag}}')).toThrow(/no batch vector/);
  });
});

describe('moduleName and the api helper', () => {
  it('reads the @module tag, else names the module index', () => {
    expect(moduleName('/**\n * The kit.\n * @module spotcheck\n */')).toBe('spotcheck');
    expect(moduleName('/** The kit. @packageDocumentation */')).toBe('index');
    expect(render('{{api sign}}')).toBe('{@link index.sign | sign}');
  });
});

describe('decisionRows', () => {
  it('reads the cells of the table rows whose first cell is a decision ID', () => {
    const rows = decisionRows(
      '| ID | x | y |\n|---|---|---|\n| D-ONE | a `x\\|y` | b |\n| D-TWO-2 | c | d |\ntext D-THREE\n',
    );
    expect([...rows.entries()]).toEqual([
      ['D-ONE', ['D-ONE', 'a `x\\|y`', 'b']],
      ['D-TWO-2', ['D-TWO-2', 'c', 'd']],
    ]);
  });
});

describe('decision rows and OpenAPI examples', () => {
  it('copies the rows of the real decisions record and fails for an unknown ID', () => {
    const out = render('{{decision-rows D-EMPTY-BATCH,D-BATCH-ATOMICITY}}');
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toContain(
      `| [D-EMPTY-BATCH](./decisions.md) | ${(data.decisions.get('D-EMPTY-BATCH') ?? []).slice(1).join(' | ')} |`,
    );
    expect(() => render('{{decision-rows D-EMPTY-BATCH,D-NOPE}}')).toThrow(/no decision D-NOPE/);
  });

  it('quotes an example of the OpenAPI document as JSON, failing for a missing one', () => {
    expect(render('{{openapi-example createBatchOrders 200 partialFailure}}')).toMatch(/^```json\n\{\n {2}"code": 0,/);
    expect(() => render('{{openapi-example createBatchOrders 200 nope}}')).toThrow(/no example nope/);
  });
});
