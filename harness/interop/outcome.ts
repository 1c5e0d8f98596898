/**
 * How the interop harness reads what the wrapper forwarded: where a request carried its
 * parameters (§5.3 placements) and the outcome of a scenario (accepted, the doctor's code
 * of a signature refusal, another refusal, or nothing sent).
 */
import type { Exchange } from './proxy.js';
import type { Placement } from './scenarios.js';

/** `accepted`, a doctor code (`A+B` for two mistakes), `refused <code>`, `not sent`, or `unsupported`. */
export type Outcome = string;

/** Where a forwarded request carried its parameters (§5.3): JSON batch body, query string, form body, or split. */
export function placementOf(e: Exchange): Placement | 'split' {
  if (e.path.endsWith('/batchOrders')) return 'batch-json';
  const inQuery = e.query.split('&').some((p) => p !== '' && !p.startsWith('signature='));
  if (e.body === '') return 'query';
  return inQuery ? 'split' : 'form';
}

/** The outcome of a scenario from the order requests the wrapper forwarded for it. */
export function outcomeOf(exchanges: readonly Exchange[]): Outcome {
  const last = exchanges.at(-1);
  if (last === undefined) return 'not sent';
  const j = (typeof last.json === 'object' && last.json !== null ? last.json : {}) as {
    code?: unknown;
    diagnosis?: { code: string; also?: string[] };
  };
  if (last.status === 200 && j.code === 0) return 'accepted';
  if (j.diagnosis !== undefined) return [j.diagnosis.code, ...(j.diagnosis.also ?? [])].join('+');
  return `refused ${String(j.code)}`;
}
