/**
 * The runner reads answers with the core's one classifier (src/core/response.ts).
 */
export { classify, describe, entriesOf, isRecord, resultEntries, codeValue, type Observation, type Verdict } from '../src/core/response.js';
