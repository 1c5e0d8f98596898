/**
 * One check of the catalogue run through the run's own session against a target answering in
 * process (no socket), and decided by conformance/judgement/decide.ts: the smallest real path from a
 * check's expectation, evaluated in its own code (an echo compared by meaning, a form every
 * reading accepts, a differential pair), through its recorded evidence to its decision. For
 * decide()'s table tests of the verdict rules whose comparison lives in check code. Test harness only.
 */
import type { RawRequest } from '../../src/client/http.js';
import { classify } from '../../src/core/response.js';
import { parsePairs, signatureValues } from '../../src/core/signing/query.js';
import { guessBodyKind, signingSteps } from '../../src/core/signing/total-params.js';
import { verify } from '../../src/signing/hmac.js';
import { createOrderBudget } from '../../conformance/engine/budget.js';
import { checks } from '../../conformance/checks/index.js';
import { decide, type Decision } from '../../conformance/judgement/decide.js';
import type { EffectProber } from '../../conformance/judgement/effects.js';
import { clientIdSource } from '../../conformance/engine/generators.js';
import { createRequestFactory, routeKey, type SigningFacts } from '../../conformance/engine/requests.js';
import { createCheckSession, createRunSender, type Learning } from '../../conformance/engine/session.js';
import { resolveDescription, type TargetDescription } from '../../conformance/target/description.js';
import type { Transport } from '../../conformance/engine/transport.js';
import type { CheckContext } from '../../conformance/judgement/types.js';
import type { RouteKnowledge } from '../../conformance/judgement/verdict.js';

export const KEY = 'one-check-key';
export const SECRET = 'one-check-secret';

/** A request as the target reads it: its route (batch/json, v1/query, ...), parameters and orders. */
export interface Received {
  route: string;
  request: RawRequest;
  /** Query and form-body parameters, by name (the last value of a repeated one). */
  params: Record<string, string>;
  /** The batch's orders (its JSON body), or the single order's parameters. */
  orders: Array<Record<string, unknown>>;
  /** The signature verifies with SECRET over the bytes as sent. */
  signed: boolean;
}

/** A target in one function: the HTTP status and JSON body it answers. */
export type Answering = (r: Received) => { status: number; json: unknown };

function received(request: RawRequest, facts: SigningFacts): Received {
  const kind = guessBodyKind(request.body);
  const params = Object.fromEntries([
    ...parsePairs(request.query),
    ...(kind === 'form' ? parsePairs(request.body) : []),
  ]);
  let orders: Array<Record<string, unknown>> = [params];
  if (kind === 'json') {
    try {
      const v = JSON.parse(request.body) as unknown;
      orders = Array.isArray(v) ? (v as Array<Record<string, unknown>>) : [];
    } catch {
      orders = [];
    }
  }
  const signature = [...signatureValues(request.query), ...signatureValues(request.body)][0] ?? '';
  const signed = verify(SECRET, signingSteps(request.query, request.body, kind).totalParams, signature);
  return { route: facts.route === undefined ? 'other' : routeKey(facts.route), request, params, orders, signed };
}

/** Every route of the seed, its control accepted; the auth and missing-parameter answers a discovery would have learnt. */
function knowledge(): Learning {
  const accepted: RouteKnowledge = { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] };
  const keys = ['batch/json', ...['v1', 'v1.1'].flatMap((e) => ['query', 'body', 'split'].map((p) => `${e}/${p}`))];
  return {
    knowledge: {
      routes: Object.fromEntries(keys.map((k) => [k, accepted])),
      signature: 'HTTP 401 code -1022',
      unknownKey: 'HTTP 401 code -2015',
      missing: ['HTTP 400 code -1102'],
    },
    learned: [],
  };
}

/** Run check `id` against `target` through a session of its own, and decide its record with the run's facts. */
export async function decideAgainst(
  id: string,
  target: Answering,
  opts: { runs?: number; seed?: number; description?: TargetDescription } = {},
): Promise<Decision> {
  const def = checks.find((c) => c.id === id);
  if (def === undefined) throw new Error(`no check ${id}`);
  const transport = {
    send: async (request: RawRequest, facts: SigningFacts = {}) => {
      const { status, json } = target(received(request, facts));
      const text = JSON.stringify(json);
      const observation = classify({ status, text, json, headers: {} });
      return { observation, exchange: { request, observation, ...facts }, response: { status, text, json } };
    },
  } as unknown as Transport;
  const profile = resolveDescription(opts.description ?? {});
  const run = createRunSender({
    transport,
    budget: createOrderBudget(Infinity),
    paths: { batch: profile.endpoints.batch.path, single: [profile.endpoints.v1.path, profile.endpoints['v1.1'].path] },
  });
  const learning = knowledge();
  const session = createCheckSession(def, undefined, {
    run,
    learning,
    discovery: { controls: [], fingerprints: {}, requests: 0 },
    confirm: async () => undefined,
    // (a follow-up by effect needs a route's control from discovery: none here)
    effects: {} as EffectProber,
    followedUp: new Set(),
    offsetMs: () => 0,
    shared: new Map(),
    unanswered: { count: 0, probes: [] },
    answers: [],
  });
  const seed = opts.seed ?? 7;
  const ctx: CheckContext = {
    target: {
      baseUrl: 'http://in-process.test',
      apiKey: KEY,
      secret: SECRET,
      symbol: profile.symbol,
      otherSymbol: profile.otherSymbol,
      profile,
    },
    profile: 'core',
    seed,
    runs: opts.runs ?? 10,
    send: session.send,
    shared: session.shared,
    ordersPlaced: session.ordersPlaced,
    requests: createRequestFactory({ apiKey: KEY, secret: SECRET, serverNow: Date.now }),
    clock: { method: 'date-header', offsetMs: 0, uncertaintyMs: 5, serverNow: Date.now },
    clientId: clientIdSource(seed),
    maxRttMs: 5,
    requestSpacingMs: 0,
    parallel: 1,
    timeouts: () => ({ count: 0 }),
    answered: () => [],
  };
  const outcome = await def.run(ctx);
  return decide(session.record(outcome, 0), {
    knowledge: learning.knowledge,
    profile: 'core',
    absent: new Set(),
    controlFailed: new Set(),
    lastAnswered: run.lastAnswered,
    budgetLabel: '--max-orders Infinity',
    deadlineLabel: '--max-time 0 ms',
  });
}
