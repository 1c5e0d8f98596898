/**
 * Before any load: on every route of the mix, one valid request (the positive control: a
 * route that refuses a valid request at rest is reported before any load, exit 2), one with
 * a wrong signature and one with a stale timestamp, whose answers become the target's
 * fingerprints for the load verdict (§5.3, §5.4). Each of the three could place its orders on a
 * server that accepts too much: all three come out of the order budget, checked before the first.
 */
import { SpotcheckError } from '../../src/core/errors.js';
import { codeValue } from '../../src/core/response.js';
import { BUDGET_REASON, type OrderBudget } from '../engine/budget.js';
import { buildLoadRequest, ordersPerRequest, type LoadBuildOptions } from './build.js';
import { budgetObservation, dispatch, type Answer, type Dispatcher } from './engine.js';
import type { LoadRoute, MixEntry } from './mix.js';
import { readAnswer } from './answer.js';
import { countExchange, emptyTally, type Fingerprints, type RefusalShape } from './verdict.js';

/** What discovery learnt. */
export interface Discovery {
  fingerprints: Fingerprints;
  requests: number;
  ordersPlaced: number;
  /** Routes whose wrong signature was accepted: their bad signatures cannot be told apart under load. */
  acceptedWrongSignature: LoadRoute[];
  notes: string[];
}

const flipLast = (sig: string): string => sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');

function shapeOf(a: Answer): RefusalShape | undefined {
  if (a.status === undefined || (a.status >= 200 && a.status < 300 && !a.body?.includes('"code"'))) return undefined;
  let code: number | undefined;
  try {
    code = codeValue((JSON.parse(a.body ?? '') as { code?: unknown }).code);
  } catch {
    code = undefined;
  }
  if (a.status >= 200 && a.status < 300 && (code === undefined || code === 0)) return undefined;
  return code === undefined ? { status: a.status } : { status: a.status, code };
}

const describe = (a: Answer): string =>
  a.status === undefined ? `no answer (${a.error ?? 'unknown'})` : `HTTP ${a.status} ${(a.body ?? '').slice(0, 200)}`;

const add = (list: RefusalShape[], s: RefusalShape): void => {
  if (!list.some((x) => x.status === s.status && x.code === s.code)) list.push(s);
};

/** Orders discovery could place on `mix` (three requests a route). */
export function discoveryOrders(mix: readonly MixEntry[], batchSize: number): number {
  return mix.reduce((n, { route }) => n + 3 * ordersPerRequest(route, batchSize), 0);
}

/**
 * Probe each route of `mix` through `pool`, every request reserving its orders in `budget`.
 * @throws SpotcheckError `ERR_USAGE` when the budget cannot hold discovery (nothing is sent then);
 *   `ERR_TARGET` when a valid request is refused (or unanswered) at rest.
 */
export async function discover(
  pool: Dispatcher,
  prefix: string,
  build: LoadBuildOptions,
  mix: readonly MixEntry[],
  nextId: () => string,
  timeoutMs: number,
  budget: OrderBudget,
): Promise<Discovery> {
  const need = discoveryOrders(mix, build.batchSize);
  if (need > budget.max - budget.placed())
    throw new SpotcheckError(
      'ERR_USAGE',
      `${BUDGET_REASON}${budget.label}) cannot hold discovery: on each route of the mix a valid request, one with a wrong signature and a stale one could place ${need} orders in all; nothing was sent. Raise --max-orders, lower --batch-size or narrow --mix`,
    );
  /** Send one probe, its orders reserved and settled (the check above makes every reservation fit). */
  const send = async (route: LoadRoute, request: Parameters<typeof dispatch>[2]): Promise<Answer> => {
    const n = ordersPerRequest(route, build.batchSize);
    budget.reserve(n);
    const a = await dispatch(pool, prefix, request, timeoutMs);
    budget.settle(n, budgetObservation(a, a.status === 429 || a.status === 503 ? undefined : readAnswer(a.body)));
    return a;
  };
  const fingerprints: Fingerprints = { signature: [], time: [] };
  const out: Discovery = { fingerprints, requests: 0, ordersPlaced: 0, acceptedWrongSignature: [], notes: [] };
  for (const { route } of mix) {
    const valid = buildLoadRequest(build, route, Date.now(), nextId);
    const a = await send(route, valid.request);
    out.requests++;
    const t = emptyTally();
    const outcome = countExchange(
      t,
      {
        timestamp: valid.timestamp,
        recvWindow: valid.recvWindow,
        clientIds: valid.clientIds,
        receivedAt: a.receivedAt,
        batch: route === 'batch',
        status: a.status,
        body: a.body,
        error: a.error,
        retryAfter: a.retryAfter === true,
      },
      { signature: [], time: [] },
    );
    out.ordersPlaced += t.ordersPlaced;
    if (outcome !== 'accepted') {
      throw new SpotcheckError(
        'ERR_TARGET',
        `route ${route} did not accept a valid signed request before any load (${ordersPerRequest(route, build.batchSize)} order(s) of ${build.order.symbol}): ${describe(a)}. ` +
          'Check the credentials, --config (paths, header, order values) and --mix, or run `spotcheck run` against this target first.',
      );
    }
    const bad = buildLoadRequest({ ...build, hmac: (s, m) => flipLast(build.hmac(s, m)) }, route, Date.now(), nextId);
    const b = await send(route, bad.request);
    out.requests++;
    const bs = shapeOf(b);
    if (bs === undefined) {
      out.acceptedWrongSignature.push(route);
      out.notes.push(
        `route ${route} accepted a request with a wrong signature (${describe(b)}): run \`spotcheck run\` for the SIG rules`,
      );
    } else add(fingerprints.signature, bs);
    const stale = buildLoadRequest(build, route, Date.now() - build.recvWindow - 60_000, nextId);
    const s = await send(route, stale.request);
    out.requests++;
    const ss = shapeOf(s);
    if (ss === undefined)
      out.notes.push(
        `route ${route} accepted a timestamp a minute older than recvWindow (${describe(s)}): run \`spotcheck run\` for the TIME rules`,
      );
    else add(fingerprints.time, ss);
  }
  // A time refusal shaped like a bad signature cannot be told apart from one: counted as time (still a failure when in the window).
  return out;
}
