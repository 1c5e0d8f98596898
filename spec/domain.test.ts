/**
 * The input domain catalogue (spec/domain.json) against its schema, the rule catalog, the
 * decisions record, and its oracle: the reference validator (src/core/validation) agrees with
 * every form's class on the reading the reference takes (design notes, "The input domain is data").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/paths.js';
import { validateOrder } from '../src/core/validation/order.js';
import { validateBatch } from '../src/core/validation/batch.js';
import { checkTimeParams } from '../src/core/validation/time-params.js';
import {
  domainCatalogue,
  elementWithForm,
  fillTemplate,
  inputOf,
  largestBatch,
  largestBatchEscaped,
  orderText,
  paramsWithForm,
  type DomainForm,
  type Fill,
} from '../conformance/judgement/domain.js';

const ROOT = packageRoot();
const schema = JSON.parse(readFileSync(join(ROOT, 'spec', 'domain.schema.json'), 'utf8')) as object;
const raw = JSON.parse(readFileSync(join(ROOT, 'spec', 'domain.json'), 'utf8')) as unknown;
const rules = JSON.parse(readFileSync(join(ROOT, 'spec', 'rules.json'), 'utf8')) as { rules: Array<{ id: string }> };
const decisions = readFileSync(join(ROOT, 'spec', 'decisions.md'), 'utf8');
const cat = domainCatalogue();

const NOW = 1_750_000_000_000;
let n = 0;
const fill: Fill = {
  now: NOW,
  symbol: 'BTCUSDT',
  clientId: () => `sc-test-${n++}`,
  sig: 'ab'.repeat(32),
  key: 'spotcheck-demo-key',
  order: (v) => orderText(LIMIT, v),
  largest: () => largestBatch(LIMIT, () => `sc-test-${n++}`),
  largestEscaped: () => largestBatchEscaped(LIMIT, () => `sc-test-${n++}`),
};
const LIMIT = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '1',
  price: '0.1',
  timeInForce: 'GTC',
  newClientOrderId: 'sc-test',
};
const MARKET_AMOUNT = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', newClientOrderId: 'sc-test' };

/** Rule IDs the reference validator finds in a JSON text, or BATCH-JSON-BODY when it is no JSON. */
function jsonRules(text: string, validate: (v: unknown) => Array<{ ruleId: string }>): string[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return ['BATCH-JSON-BODY'];
  }
  return validate(v).map((i) => i.ruleId);
}

/** A LONG by the seed's type (§2.1: 64 bits, plain digits), whatever its size: undefined for any other text. */
const long64 = (v: string | undefined): bigint | undefined =>
  v !== undefined && /^(0|[1-9][0-9]*)$/.test(v) && BigInt(v) < 2n ** 63n ? BigInt(v) : undefined;

/**
 * The §5.4 window over LONGs of any size (the reference reads only 16-digit ones: past them it
 * refuses the format): a timestamp far outside it breaks TIME-WINDOW-PAST or -LEAD, and a sent
 * recvWindow it fails by is TIME-RECVWINDOW-HONOURED's; a window above 60000 is D-RECVWINDOW-MAX's.
 */
function seedWindow(ts: string | undefined, rw: string | undefined): string[] {
  const t = long64(ts);
  const w = rw === undefined ? 5000n : long64(rw);
  const out: string[] = [];
  if (w !== undefined && w > 60000n) out.push('TIME-RECVWINDOW-RECOMMENDED');
  if (t === undefined || w === undefined) return out;
  if (!(t < BigInt(NOW) + 1000n)) out.push('TIME-WINDOW-LEAD');
  else if (BigInt(NOW) - t > w) out.push('TIME-WINDOW-PAST', ...(rw === undefined ? [] : ['TIME-RECVWINDOW-HONOURED']));
  return out;
}

/** What the reference validator says of a form: the rules it breaks (empty: valid). */
function referenceRules(form: DomainForm): string[] {
  const input = inputOf(form);
  switch (input.kind) {
    case 'order': {
      const version = form.input === 'amount' ? 'v1.1' : 'v1';
      const base = form.input === 'amount' ? MARKET_AMOUNT : LIMIT;
      const asJson = jsonRules(`[${elementWithForm(base, form.input, form, fill)}]`, (v) =>
        (v as unknown[]).flatMap((o) => validateOrder(o, { version })),
      );
      if (form.json === undefined && form.duplicate === undefined) {
        // the same form as single-order parameters (strings) is judged alike
        const params = paramsWithForm(base, form.input, form, fill);
        const asParams = validateOrder(params, { version }).map((i) => i.ruleId);
        expect(asParams.length > 0, `${form.id} as parameters`).toBe(asJson.length > 0);
      }
      return asJson;
    }
    case 'time': {
      const value = form.absent ? undefined : fillTemplate(form.text ?? '', fill);
      const other = (k: 'timestamp' | 'recvWindow', d: string) =>
        form.with?.[k] === undefined ? d : fillTemplate(form.with[k], fill);
      const [ts, rw] =
        form.input === 'timestamp' ? [value, other('recvWindow', '5000')] : [other('timestamp', String(NOW)), value];
      return [...checkTimeParams(ts, rw).issues.map((i) => i.ruleId), ...seedWindow(ts, rw)];
    }
    case 'body':
      return jsonRules(fillTemplate(form.body ?? '', fill), validateBatch);
    case 'element': {
      const el = fillTemplate(form.element ?? '', fill);
      const orders = Array.from({ length: 19 }, () => orderText(LIMIT, 'plain'));
      orders.splice(3, 0, el);
      return jsonRules(`[${orders.join(',')}]`, (v) =>
        validateBatch(v).map((i) => ({ ruleId: i.path[0] === 3 ? 'BATCH-PER-ORDER-RULES' : i.ruleId })),
      );
    }
    default:
      return [];
  }
}

describe('spec/domain.json: the input domain catalogue', () => {
  it('validates against spec/domain.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const ok = ajv.validate(schema, raw);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('has at least 150 forms with unique IDs, each input with a canonical, an unusual and an invalid form', () => {
    expect(cat.forms.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cat.forms.map((f) => f.id)).size).toBe(cat.forms.length);
    for (const input of cat.inputs)
      for (const cls of ['canonical', 'unusual', 'invalid'])
        expect(
          cat.forms.some((f) => f.input === input.id && f.class === cls),
          `${input.id} ${cls}`,
        ).toBe(true);
    for (const f of cat.forms)
      expect(
        cat.inputs.map((i) => i.id),
        f.id,
      ).toContain(f.input);
  });

  it('names only catalog rules, recorded decisions and cited parsers; every parser is used and cites a public source', () => {
    const ruleIds = new Set(rules.rules.map((r) => r.id));
    const parserIds = new Set(cat.parsers.map((p) => p.id));
    const used = new Set<string>();
    for (const i of cat.inputs) expect(ruleIds.has(i.ruleId), i.id).toBe(true);
    for (const f of cat.forms) {
      if (f.ruleId !== undefined) expect(ruleIds.has(f.ruleId), f.id).toBe(true);
      if (f.decision !== undefined) expect(decisions, f.id).toContain(`| ${f.decision} |`);
      for (const p of f.acceptedBy ?? []) {
        expect(parserIds.has(p), `${f.id}: ${p}`).toBe(true);
        used.add(p);
      }
    }
    expect([...parserIds].filter((p) => !used.has(p))).toEqual([]);
    for (const p of cat.parsers) expect(p.source, p.id).toMatch(/^https:\/\/[^ ]+$/);
  });

  it('the reference validator agrees with every order, time, body and element form: an invalid form breaks its rule, a valid one none', () => {
    const checked: string[] = [];
    for (const form of cat.forms) {
      const kind = inputOf(form).kind;
      if (!['order', 'time', 'body', 'element'].includes(kind)) continue;
      const found = referenceRules(form);
      if (form.class === 'invalid') expect(found, form.id).toContain(form.ruleId);
      else expect(found, form.id).toEqual([]);
      checked.push(form.id);
    }
    expect(checked.length).toBeGreaterThan(150);
  });

  it('fills templates: LONG notations, lengths in code points, signature and key variants', () => {
    expect(fillTemplate('{now:underscore}', fill)).toBe('1_750_000_000_000');
    expect(fillTemplate('{w:arabic}', fill)).toBe('٥٠٠٠');
    expect(fillTemplate('{now+2^64}', fill)).toBe((BigInt(NOW) + 2n ** 64n).toString());
    expect(fillTemplate('{now-2^15+1}', fill)).toBe(String(NOW - 32768 + 1));
    expect(fillTemplate('{0+2^64-1}', fill)).toBe('18446744073709551615');
    expect(fillTemplate('{now-2^64}', fill)).toBe((BigInt(NOW) - 2n ** 64n).toString());
    expect(fillTemplate('{now:s}|{now:sf}|{now:us}', fill)).toBe(`1750000000|1750000000.000|${NOW * 1000}`);
    expect([...fillTemplate('{cid255:e\u0301}', fill)]).toHaveLength(255);
    expect([...fillTemplate('{cid255:😀}', fill)]).toHaveLength(255);
    expect([...fillTemplate('{cid256:é}', fill)]).toHaveLength(256);
    expect(fillTemplate('{sig:32}', fill)).toHaveLength(32);
    expect(fillTemplate('{SIG}', fill)).toBe('AB'.repeat(32));
    expect(fillTemplate('{key:prefix}', fill)).toBe('spotcheck-demo-ke');
    expect(JSON.parse(fillTemplate('"{symbol:escaped}"', fill))).toBe('BTCUSDT');
  });
});
