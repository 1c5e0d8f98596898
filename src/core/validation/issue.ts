/**
 * Validation results as data (never thrown except by an explicit assert).
 */
import { SpotcheckError } from '../errors.js';
import type { RuleId } from '../rule-id.js';

/** One reason an input breaks a rule of the catalog. */
export interface Issue {
  /** Rule ID from `spec/rules.json`. */
  ruleId: RuleId;
  /** Where in the input: field names and array indexes. */
  path: ReadonlyArray<string | number>;
  /** What the rule wants, in words. */
  expected: string;
  /** What was found, short and printable. */
  received: string;
  /** True when the value is absent (the typed flag; never match `received` text). */
  missing: boolean;
  /** One sentence for people. */
  message: string;
}

/** Printable short form of any received value (long strings cut). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = lastResortText(v);
  }
  return s.length > 80 ? `${s.slice(0, 60)}… (${s.length} chars)` : s;
}

/**
 * `String(v)` when it works; otherwise the kind of value. Never throws: an object from
 * JSON with a `toString` field that is no function, or an array nested thousands of
 * levels deep, makes `String` itself throw.
 */
function lastResortText(v: unknown): string {
  try {
    return String(v);
  } catch {
    return Array.isArray(v) ? '(array)' : `(${typeof v})`;
  }
}

/** Build an issue; `message` defaults to a sentence made of the others. */
export function issue(
  ruleId: RuleId,
  path: ReadonlyArray<string | number>,
  expected: string,
  received: unknown,
  message?: string,
): Issue {
  const where = path.length === 0 ? 'request' : path.join('.');
  const got = describeValue(received);
  return {
    ruleId,
    path,
    expected,
    received: got,
    missing: received === undefined,
    message: message ?? `${where}: expected ${expected}, got ${got}`,
  };
}

/** Throw `ERR_VALIDATION` listing the issues, when there are any. */
export function assertNoIssues(issues: readonly Issue[], what = 'input'): void {
  if (issues.length === 0) return;
  const list = issues.map((i) => `${i.ruleId}: ${i.message}`).join('; ');
  throw new SpotcheckError('ERR_VALIDATION', `${what} is invalid: ${list}`, { issues });
}
