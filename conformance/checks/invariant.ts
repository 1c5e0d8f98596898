/**
 * The run-wide invariants (conformance/judgement/invariant.ts) as one check per rule: each judges every
 * accepted answer the run received, from any check, once the other checks have ended (`runLast`:
 * the run's answers are all in), and sends nothing. A broken invariant fails its RESULT rule with
 * the exchange that showed it; a run whose answers echoed nothing the rule compares leaves it
 * undecided (§2.2, §4.1 rule 4).
 */
import type { CheckDefinition } from '../judgement/types.js';
import { INVARIANT_RULES, judgeAnswer, type InvariantRule } from '../judgement/invariant.js';
import { routeKey } from '../engine/requests.js';
import { fail, inconclusive, pass, skip } from './helpers.js';

const WHAT: Record<InvariantRule, string> = {
  'RESULT-ORDER-ECHO':
    'every placed order the run was answered with echoes the symbol (the same pair), side, type, timeInForce, price, origQty and reqAmount sent, decimals by exact value',
  'RESULT-ONE-PER-ORDER': 'every accepted batch of the run was answered with one result entry per element sent',
  'RESULT-ORDER-MATCH': 'in every accepted batch of the run, entry i answers element i',
  'RESULT-CLIENT-ORDER-ID-ECHO':
    'every placed order the run was answered with echoes the newClientOrderId sent, exactly',
  'RESULT-EXECUTED-QTY': 'every placed order the run was answered with has an executedQty from 0 to its origQty',
};

/** Invariants only a batch answer shows (§4.1 rule 4: one entry per order, in order). */
const BATCH_ONLY: ReadonlySet<InvariantRule> = new Set(['RESULT-ONE-PER-ORDER', 'RESULT-ORDER-MATCH']);

function invariantCheck(ruleId: InvariantRule): CheckDefinition {
  return {
    id: `${ruleId}.invariant`,
    ruleId,
    title: `${WHAT[ruleId]}, whichever check sent it (judged on the run's answers, no request of its own)`,
    runLast: true,
    async run(ctx) {
      const answers = ctx.answers?.();
      if (answers === undefined) return skip("the run's answers are not available to this check");
      if (BATCH_ONLY.has(ruleId) && ctx.target.profile?.endpoints.batch.offered === false)
        return skip('the target does not offer the batch endpoint (target description): no batch answer to judge');
      let checked = 0;
      for (const a of answers) {
        const j = judgeAnswer(a.exchange);
        if (j.checked.has(ruleId)) checked++;
        const v = j.violations.find((x) => x.ruleId === ruleId);
        if (v === undefined) continue;
        const where = a.exchange.route === undefined ? '' : `${routeKey(a.exchange.route)}, `;
        return fail(`${where}sent by ${a.check}: ${v.expected}`, v.actual, a.exchange);
      }
      if (checked === 0)
        return inconclusive(`none of the run's ${answers.length} accepted answers showed anything this rule compares`);
      // (no `runs`: how many answers a run got depends on its concurrency, its verdict does not)
      return pass({ observed: `${checked} accepted answers of the run judged` });
    },
  };
}

export const invariantChecks: CheckDefinition[] = INVARIANT_RULES.map(invariantCheck);
