/**
 * The runner reads answers with the core's one classifier (src/core/response.ts).
 */
export { classify, describe, entriesOf, entryPlaced, isRecord, resultEntries, codeValue, type Observation, type Verdict } from '../src/core/response.js';
