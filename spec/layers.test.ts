/**
 * The layer catalogue (spec/layers.json, design notes "Layers, not only fields"): every layer a
 * request crosses has at least five failure modes from cited public sources, and each mode is
 * seen by probes a default run sends (forms of spec/domain.json planned every run, checks of the
 * default check list) or says why a black box cannot see it.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../src/paths.js';
import { acceptedPlan, domainCatalogue, invalidPlan, lenientPlan, openPlan } from '../conformance/judgement/domain.js';
import { checks } from '../conformance/checks/index.js';
import type { LayersData } from '../docs/lib/layers-page.js';

type FailureMode = LayersData['failureModes'][number];
const read = (f: string) => JSON.parse(readFileSync(kitPath('spec', f), 'utf8')) as unknown;
const catalogue = read('layers.json') as { layers: Array<{ id: string }>; failureModes: FailureMode[] };
const LAYERS = [
  'front',
  'http-parser',
  'body-decoder',
  'parameter-parser',
  'type-coercion',
  'validator',
  'store',
  'serializer',
];

describe('spec/layers.json: the layers a request crosses and how each fails', () => {
  it('validates against its schema', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(
      read('layers.schema.json') as object,
    );
    expect(validate(catalogue), JSON.stringify(validate.errors)).toBe(true);
  });

  it('names every layer of a real deployment, each with at least five failure modes from cited sources', () => {
    expect(catalogue.layers.map((l) => l.id)).toEqual(LAYERS);
    for (const layer of LAYERS) {
      const modes = catalogue.failureModes.filter((m) => m.layer === layer);
      expect(modes.length, layer).toBeGreaterThanOrEqual(5);
      for (const m of modes) expect(m.sources.length, m.id).toBeGreaterThan(0);
    }
    expect(new Set(catalogue.failureModes.map((m) => m.id)).size).toBe(catalogue.failureModes.length);
    expect(catalogue.failureModes.every((m) => LAYERS.includes(m.layer))).toBe(true);
  });

  it('every failure mode is seen by a default run (a form planned every run, a check of the list) or says why a black box cannot', () => {
    const sentEveryRun = new Set(
      [1, 2, 3].flatMap((seed) => [
        ...invalidPlan(seed).map((p) => p.form.id),
        ...openPlan(seed).map((p) => p.form.id),
        ...lenientPlan(seed).map((p) => p.form.id),
        ...acceptedPlan(seed).flatMap((a) => a.forms.map((f) => f.id)),
      ]),
    );
    const forms = new Set(domainCatalogue().forms.map((f) => f.id));
    const checkIds = new Set(checks.map((c) => c.id));
    const unseen: string[] = [];
    for (const m of catalogue.failureModes) {
      if (m.probes === undefined) {
        expect(m.blackBox, m.id).toMatch(/\w/);
        continue;
      }
      for (const f of m.probes.forms ?? []) {
        if (!forms.has(f)) unseen.push(`${m.id}: no form ${f}`);
        else if (!sentEveryRun.has(f)) unseen.push(`${m.id}: form ${f} is not sent every run`);
      }
      for (const c of m.probes.checks ?? []) if (!checkIds.has(c)) unseen.push(`${m.id}: no check ${c}`);
    }
    expect(unseen).toEqual([]);
  });
});
