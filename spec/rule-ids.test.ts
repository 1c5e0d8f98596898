/**
 * The `RuleId` type (src/core/rule-id.ts) is generated from spec/rules.json: no drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULE_ID_FILE, RULES_FILE, RULES_SCHEMA_FILE, generateRuleIds } from './generate-rule-ids.mjs';
import { RULE_FAMILIES, RULE_IDS } from '../src/core/rule-id.js';

describe('src/core/rule-id.ts', () => {
  it('regenerating from spec/rules.json gives the committed file byte for byte (run `npm run rule-ids` after editing the catalog)', () => {
    expect(readFileSync(RULE_ID_FILE, 'utf8')).toBe(generateRuleIds());
  });

  it('lists every catalog ID once, in catalog order', () => {
    const ids = (JSON.parse(readFileSync(RULES_FILE, 'utf8')) as { rules: { id: string }[] }).rules.map((r) => r.id);
    expect(RULE_IDS).toEqual(ids);
    expect(new Set(RULE_IDS).size).toBe(ids.length);
  });

  it('RuleFamily is the family enum of spec/rules.schema.json, which the ID pattern repeats, and every ID starts with its family', () => {
    const schema = JSON.parse(readFileSync(RULES_SCHEMA_FILE, 'utf8')) as {
      $defs: { rule: { properties: { family: { enum: string[] }; id: { pattern: string } } } };
    };
    const { family, id } = schema.$defs.rule.properties;
    expect(RULE_FAMILIES).toEqual(family.enum);
    expect(id.pattern).toBe(`^(${family.enum.join('|')})-[A-Z0-9-]+$`);
    const rules = (JSON.parse(readFileSync(RULES_FILE, 'utf8')) as { rules: { id: string; family: string }[] }).rules;
    expect(rules.filter((r) => !r.id.startsWith(`${r.family}-`))).toEqual([]);
    expect(new Set(rules.map((r) => r.family))).toEqual(new Set(RULE_FAMILIES));
  });
});
