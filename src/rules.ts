/**
 * The rule catalog (`spec/rules.json`): every normative sentence of the seed with a
 * stable named ID, a level and its seed section.
 */
import { readKitJson } from './paths.js';
import type { RuleFamily, RuleId } from './core/rule-id.js';

/** MUST: a failure sets exit code 1; SHOULD: reported, sets the exit code only with --strict; INFO: observed and reported, never a failure. */
export type RuleLevel = 'MUST' | 'SHOULD' | 'INFO';

/** One catalog entry. */
export interface Rule {
  id: RuleId;
  family: RuleFamily;
  level: RuleLevel;
  /** Seed section, e.g. `5.3`. */
  section: string;
  /** Other seed sections stating the same requirement (e.g. the limits of §8). */
  alsoSections?: string[];
  /** The seed sentence the rule enforces (quoted). */
  sentence: string;
  /** How the kit reads the sentence where it needs reading. */
  note?: string;
  /** The routes (`batch/json`, `v1.1/query`, ...) and order types the sentence covers, when fewer than all. */
  covers?: { routes?: string[]; types?: string[] };
}

/** Every route key of §4 and §5.3. */
export const ALL_ROUTE_KEYS = [
  'batch/json',
  'v1/query',
  'v1/body',
  'v1/split',
  'v1.1/query',
  'v1.1/body',
  'v1.1/split',
];
/** Every order type of §2.1. */
export const ALL_ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'];

/** The routes and order types a rule's sentence covers (all, unless the catalog narrows them). */
export function coverage(id: RuleId): { routes: readonly string[]; types: readonly string[] } {
  const c = rule(id).covers;
  return { routes: c?.routes ?? ALL_ROUTE_KEYS, types: c?.types ?? ALL_ORDER_TYPES };
}

interface Catalog {
  rules: Rule[];
}

let cache: ReadonlyMap<string, Rule> | undefined;

/** All rules by ID, in catalog order. */
export function rules(): ReadonlyMap<string, Rule> {
  if (cache === undefined) {
    const catalog = readKitJson<Catalog>('spec', 'rules.json');
    cache = new Map(catalog.rules.map((r) => [r.id, r]));
  }
  return cache;
}

/** The rule with this ID; throws for an ID the catalog does not have (a programming error). */
export function rule(id: RuleId): Rule {
  const r = rules().get(id);
  if (r === undefined) throw new Error(`unknown rule ID ${id}`);
  return r;
}
