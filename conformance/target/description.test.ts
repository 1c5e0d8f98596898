import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { kitPath } from '../../src/paths.js';
import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../../src/core/errors.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../../src/client/requests.js';
import { descriptionIssues, loadDescription, resolveDescription } from './description.js';
import { gridValue, offGrid, ordersAffordable, toGrid } from './decimal-grid.js';
import { initCommand, schemaRef, targetTemplate } from './init.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'spotcheck-target-'));
const captured = () => {
  let out = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (out += s), env: {} }, text: () => out };
};

describe('target description', () => {
  it('an empty description is the seed: paths, header, every placement, query+body batch signature', () => {
    const t = resolveDescription({});
    expect(t.apiKeyHeader).toBe(API_KEY_HEADER);
    expect(t.endpoints.batch.path).toBe(BATCH_ORDERS_PATH);
    expect(t.endpoints.v1.path).toBe(ORDER_PATHS.v1);
    expect(t.endpoints['v1.1'].placements).toEqual(['query', 'body', 'split']);
    expect(t.batchSignature).toBe('query+body');
    expect(t.deviations).toEqual([]);
  });

  it('a prefix, another header, a missing endpoint and one placement are deviations the report names', () => {
    const t = resolveDescription({
      apiKeyHeader: 'X-GW-KEY',
      pathPrefix: '/gw/',
      endpoints: { batch: { offered: false }, v1: { placements: ['body'] } },
      batchSignature: 'query-only',
    });
    expect(t.endpoints.v1.path).toBe(`/gw${ORDER_PATHS.v1}`);
    expect(t.endpoints.v1.placements).toEqual(['body']);
    expect(t.endpoints.batch.offered).toBe(false);
    expect(t.deviations.join('\n')).toMatch(/X-GW-KEY[\s\S]*query string only/);
    expect(t.deviations.some((d) => d.includes('batch endpoint not offered'))).toBe(true);
  });

  it('the schema refuses unknown fields, bad placements and non-decimal values, naming where', () => {
    expect(descriptionIssues({})).toEqual([]);
    expect(descriptionIssues({ apiKeyHeadr: 'x' }).join()).toMatch(
      /unknown key "apiKeyHeadr": did you mean "apiKeyHeader"\?/,
    );
    expect(descriptionIssues({ endpoints: { v1: { placements: ['header'] } } }).join()).toMatch(
      /\/endpoints\/v1\/placements\/0/,
    );
    expect(descriptionIssues({ order: { price: '1e3' } }).join()).toMatch(/\/order\/price/);
  });

  it('a file with comments loads; a broken file is a usage error naming the file and the problem', () => {
    const dir = tmp();
    const good = join(dir, 'good.jsonc');
    writeFileSync(good, '// header\n{ "apiKeyHeader": "X-A", /* inline */ "order": { "price": "0.5" } }\n');
    expect(loadDescription(good)).toEqual({ apiKeyHeader: 'X-A', order: { price: '0.5' } });
    const bad = join(dir, 'bad.jsonc');
    writeFileSync(bad, '{ "pathPrefix": 3 }');
    let err: unknown;
    try {
      loadDescription(bad);
    } catch (e) {
      err = e;
    }
    expect(isSpotcheckError(err, 'ERR_USAGE')).toBe(true);
    expect(String((err as Error).message)).toMatch(/bad\.jsonc[\s\S]*\/pathPrefix/);
    expect(() => loadDescription(join(dir, 'missing.jsonc'))).toThrow(/cannot read/);
  });

  it('an enum or const error lists the values allowed and the one given', () => {
    expect(descriptionIssues({ batchSignature: 'query-plus' })).toEqual([
      '/batchSignature: must be equal to one of the allowed values: "query+body", "query-only" (got "query-plus")',
    ]);
    expect(descriptionIssues({ endpoints: { v1: { placements: ['qery'] } } })).toEqual([
      '/endpoints/v1/placements/0: must be equal to one of the allowed values: "query", "body", "split" (got "qery")',
    ]);
  });

  it('a description file cut short is one usage error, said once, naming the file and where it ends', () => {
    const dir = tmp();
    const whole = targetTemplate();
    const cut = join(dir, 'cut.jsonc');
    writeFileSync(cut, whole.slice(0, Math.floor(whole.length / 2)));
    let message = '';
    try {
      loadDescription(cut);
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe(`--config: ${cut} is not JSON (comments and trailing commas allowed):`);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(
      /^ {2}.*cut\.jsonc:\d+:\d+: the file ends before its JSON value does \(\d+ closing } missing\): is it cut short\?$/,
    );
  });

  it('accepts trailing commas; a syntax error names the file, line and column', () => {
    const dir = tmp();
    const good = join(dir, 'good.jsonc');
    writeFileSync(good, '{\n  "order": { "symbol": "ETHBTC", },\n  "pathPrefix": "/gw",\n}\n');
    expect(loadDescription(good)).toEqual({ order: { symbol: 'ETHBTC' }, pathPrefix: '/gw' });
    const bad = join(dir, 'bad.jsonc');
    writeFileSync(bad, '{\n  "pathPrefix": "/gw"\n  "maxRecvWindow": 5000\n}\n');
    expect(() => loadDescription(bad)).toThrow(/bad\.jsonc:3:3: a comma expected/);
  });

  it('names an unknown key with the closest known one, at its line and column', () => {
    const dir = tmp();
    const file = join(dir, 't.jsonc');
    writeFileSync(file, '{\n  "endpoints": {\n    "v1": { "paht": "/x" }\n  },\n  "colour": 1\n}');
    const message = (() => {
      try {
        loadDescription(file);
      } catch (e) {
        return String((e as Error).message);
      }
      return 'loaded';
    })();
    expect(message).toContain('t.jsonc:3:13: /endpoints/v1: unknown key "paht": did you mean "path"?');
    // nothing close: the known keys are listed instead
    expect(message).toMatch(/t\.jsonc:5:3: unknown key "colour" \(known: "\$schema", "baseUrl", /);
  });

  it('refuses a credential-looking key anywhere, saying where credentials go, and never prints its value', () => {
    const dir = tmp();
    for (const key of ['secret', 'apiKey', 'api_key', 'password', 'token', 'SPOTCHECK_SECRET']) {
      const file = join(dir, `${key}.jsonc`);
      writeFileSync(file, `{ "order": { "symbol": "BTCUSDT" }, "${key}": "hunter2-value" }`);
      let err: unknown;
      try {
        loadDescription(file);
      } catch (e) {
        err = e;
      }
      expect(isSpotcheckError(err, 'ERR_USAGE'), key).toBe(true);
      const text = String((err as Error).message);
      expect(text).toContain(`"${key}" looks like a credential: credentials never go in the target file`);
      expect(text).toMatch(/--api-key \/ --secret or SPOTCHECK_API_KEY \/ SPOTCHECK_SECRET/);
      expect(text).not.toContain('hunter2');
    }
    // the header's name is no credential
    expect(descriptionIssues({ apiKeyHeader: 'X-KEY' })).toEqual([]);
  });

  it('init writes a template that loads, validates and resolves to the seed defaults; it will not overwrite', () => {
    const dir = tmp();
    const file = join(dir, 't.jsonc');
    const c = captured();
    expect(initCommand([file], c.io)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(targetTemplate(schemaRef(file)));
    expect(resolveDescription(loadDescription(file)).deviations).toEqual([]);
    expect(() => initCommand([file], c.io)).toThrow(/exists/);
    expect(initCommand([file, '--force'], c.io)).toBe(0);
    expect(c.text()).toContain(`--config ${file}`);
  });

  it('the init template stays valid with every optional line uncommented', () => {
    const template = targetTemplate();
    const optional = template.match(/^\s*\/\/ "[^"]+":/gm) ?? [];
    expect(optional.length).toBeGreaterThanOrEqual(9);
    const all = template.replace(/^(\s*)\/\/ (")/gm, '$1$2');
    const file = join(tmp(), 'all.jsonc');
    writeFileSync(file, all);
    const d = loadDescription(file);
    for (const key of ['baseUrl', 'ca', 'timePath', 'testOrderPath', 'orderLookup', 'account'])
      expect(d, key).toHaveProperty(key);
    expect(Object.keys(d.order ?? {}).sort()).toEqual(['amount', 'otherSymbol', 'price', 'quantity', 'symbol']);
    const t = resolveDescription(d);
    expect(t.orderLookup?.path).toBe(ORDER_PATHS.v1);
    expect(t.account?.orders).toBeGreaterThan(0);
  });

  it("init's $schema resolves to the kit's schema file from where the description is written (a clone, an install)", () => {
    const dir = tmp();
    for (const file of [join(dir, 't.jsonc'), kitPath('spotcheck.target.jsonc'), join(dir, 'ci', 'target.jsonc')]) {
      const ref = schemaRef(file);
      expect(ref, file).toMatch(/^\.{1,2}\//);
      expect(resolve(dirname(file), ref)).toBe(kitPath('conformance', 'target', 'target.schema.json'));
    }
    // the kit's own clone: the path inside the checkout; the default of the template: the installed package's
    expect(schemaRef(kitPath('spotcheck.target.jsonc'))).toBe('./conformance/target/target.schema.json');
    expect(targetTemplate()).toContain('"$schema": "./node_modules/spotcheck/conformance/target/target.schema.json"');
  });
});

describe('decimal grids', () => {
  it('steps exactly, wraps at the top and trims trailing zeros', () => {
    const g = toGrid({ min: '0.1', max: '0.5', step: '0.1' });
    if ('error' in g) throw new Error(g.error);
    expect(g.count).toBe(5n);
    expect([0n, 1n, 2n, 4n, 5n].map((k) => gridValue(g, k))).toEqual(['0.1', '0.2', '0.3', '0.5', '0.1']);
    const f = toGrid('20000.50');
    if ('error' in f) throw new Error(f.error);
    expect(gridValue(f, 7n)).toBe('20000.5');
  });

  it('refuses a zero minimum or step, an empty range and non-decimal text, with a reason', () => {
    expect(toGrid({ min: '0', max: '1', step: '1' })).toEqual({ error: expect.stringMatching(/above zero/) });
    expect(toGrid({ min: '1', max: '2', step: '0' })).toEqual({ error: expect.stringMatching(/step/) });
    expect(toGrid({ min: '2', max: '1', step: '1' })).toEqual({ error: expect.stringMatching(/below min/) });
    expect(toGrid({ min: '1e2', max: '2', step: '1' })).toEqual({ error: expect.stringMatching(/plain decimal/) });
    expect(() => resolveDescription({ order: { quantity: { min: '1', max: '0.5', step: '0.1' } } })).toThrow(
      /order\.quantity/,
    );
  });
});

describe('account budget and order lookup (target description)', () => {
  it('an account holds every grid at its minimum and caps the orders at what the smaller side pays for', () => {
    const p = resolveDescription({
      order: { price: { min: '100', max: '150', step: '0.5' }, quantity: { min: '0.001', max: '0.01', step: '0.001' } },
      account: { quote: '10000', base: '0.5' },
    });
    expect(p.price && gridValue(p.price, 7n)).toBe('100');
    expect(p.quantity && gridValue(p.quantity, 3n)).toBe('0.001');
    // 10000 / (100 x 0.001) = 100000 buys, 0.5 / 0.001 = 500 sells: 500 orders of any mix
    expect(p.account).toEqual({ quote: '10000', base: '0.5', orders: 500 });
    expect(ordersAffordable({ quote: '10', base: '100' }, '0.1', '1')).toBe(100);
    expect(ordersAffordable({ quote: '0', base: '1' }, '1', '1')).toBe(0);
  });

  it('names an order-lookup path under the prefix, GET and origClientOrderId by default; the schema refuses a relative path', () => {
    expect(resolveDescription({ pathPrefix: '/gw', orderLookup: { path: '/api/v1/spot/order' } }).orderLookup).toEqual({
      path: '/gw/api/v1/spot/order',
      method: 'GET',
      param: 'origClientOrderId',
    });
    expect(descriptionIssues({ orderLookup: { path: 'order' } }).join()).toMatch(/orderLookup\/path/);
    expect(descriptionIssues({ account: { quote: '10k', base: '1' } }).join()).toMatch(/account\/quote/);
  });

  it('values a venue with a grid refuses: halfway between two steps, and under the minimum', () => {
    const g = toGrid({ min: '100', max: '150', step: '0.5' });
    if ('error' in g) throw new Error(g.error);
    expect(offGrid(g)).toEqual({ offTick: '100.25', underMin: '99.5' });
    const tiny = toGrid({ min: '0.1', max: '1', step: '0.1' });
    if ('error' in tiny) throw new Error(tiny.error);
    expect(offGrid(tiny)).toEqual({ offTick: '0.15', underMin: '0.05' });
  });
});
