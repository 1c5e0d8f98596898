/**
 * Every conformance check, grouped by rule family (AUTH, SIG, TIME, BATCH, ORDER,
 * RESULT, SCHEMA, ROBUST). IDs are names: the rule ID, or rule ID + `.` + variant.
 */
import type { CheckDefinition } from '../judgement/types.js';
import { authChecks } from './auth.js';
import { sigChecks } from './sig.js';
import { timeChecks } from './time.js';
import { batchChecks } from './batch.js';
import { orderChecks } from './order.js';
import { extremeChecks } from './extremes.js';
import { resultChecks } from './result.js';
import { schemaChecks } from './schema.js';
import { robustChecks } from './robust.js';
import { domainChecks } from './domain.js';
import { credentialChecks } from './credentials.js';
import { invariantChecks } from './invariant.js';
import { referenceChecks } from './reference.js';

/** All checks in run order (checks marked `runLast` are moved to the end by the runner). */
export const checks: readonly CheckDefinition[] = [
  ...authChecks,
  ...credentialChecks,
  ...sigChecks,
  ...timeChecks,
  ...batchChecks,
  ...orderChecks,
  ...extremeChecks,
  ...resultChecks,
  ...schemaChecks,
  ...robustChecks,
  ...domainChecks,
  ...invariantChecks,
  ...referenceChecks,
];
