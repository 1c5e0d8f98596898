/**
 * The Artillery processor of a `spotcheck load init` project, bundled at build time into
 * one CommonJS file with no npm import (node:crypto only), so Artillery's cloud workers
 * ship it as is. Each `sign_<route>` hook builds the request of its route itself (final
 * URL, string body), signs exactly those bytes with a fresh timestamp (§5.3, §5.4) and
 * hands them to Artillery unchanged; `check` counts the answer by the load verdict and
 * emits `spotcheck.*` counters and a latency histogram per route. Credentials come from
 * SPOTCHECK_API_KEY / SPOTCHECK_SECRET only, and are never printed.
 */
import { createHmac } from 'node:crypto';
import { SEED_WIRE, wireWith, type WireProfile } from '../../../src/core/wire.js';
import { buildLoadRequest, clientIdSource, ordersPerRequest, runPrefix, type LoadBuildOptions } from '../build.js';
import { FAIL_COUNTERS, hookName, latencyName, tallyCounters } from '../counters.js';
import { LOAD_ROUTES, type LoadRoute } from '../mix.js';
import { countExchange, emptyTally, REFERENCE_FINGERPRINTS, type Fingerprints } from '../verdict.js';

/** The subset of Artillery's hook arguments used here. */
interface RequestParams {
  url?: string;
  body?: string;
  headers?: Record<string, string>;
  json?: unknown;
  qs?: unknown;
  form?: unknown;
  spotcheck?: Sent;
}
interface Context {
  vars: Record<string, unknown>;
}
interface Emitter {
  emit(event: 'counter' | 'histogram', name: string, value: number): void;
}
interface Response {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: unknown;
  timings?: { upload?: number; end?: number; phases?: { total?: number } };
}
type Next = (err?: Error) => void;

interface Sent {
  route: LoadRoute;
  timestamp: number;
  recvWindow: number;
  clientIds: string[];
}

const hmac = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message, 'utf8').digest('hex');
const nextId = clientIdSource(runPrefix());
let zeroed = false;
/** Orders this process has sent, against `spotcheckMaxOrders`. */
let sentOrders = 0;

/** The build options from the script's `config.variables` (spotcheck*) and the environment. */
function options(vars: Record<string, unknown>): LoadBuildOptions | Error {
  const apiKey = process.env.SPOTCHECK_API_KEY;
  const secret = process.env.SPOTCHECK_SECRET;
  if (apiKey === undefined || apiKey === '' || secret === undefined || secret === '')
    return new Error('set SPOTCHECK_API_KEY and SPOTCHECK_SECRET in the environment');
  const str = (k: string, d: string): string =>
    typeof vars[k] === 'string' || typeof vars[k] === 'number' ? String(vars[k]) : d;
  const wire: WireProfile = wireWith(str('spotcheckApiKeyHeader', SEED_WIRE.apiKeyHeader), {
    batch: str('spotcheckBatchPath', SEED_WIRE.endpoints.batch.path),
    v1: str('spotcheckV1Path', SEED_WIRE.endpoints.v1.path),
    'v1.1': str('spotcheckV11Path', SEED_WIRE.endpoints['v1.1'].path),
  });
  return {
    hmac,
    apiKey,
    secret,
    wire,
    order: {
      symbol: str('spotcheckSymbol', 'BTCUSDT'),
      price: str('spotcheckPrice', '42000.00'),
      quantity: str('spotcheckQuantity', '0.01'),
    },
    batchSize: Number(str('spotcheckBatchSize', '20')),
    recvWindow: Number(str('spotcheckRecvWindow', '5000')),
    ...(str('spotcheckBatchSignature', 'query+body') === 'query-only' ? { batchQueryOnly: true } : {}),
  };
}

function fingerprints(vars: Record<string, unknown>): Fingerprints {
  const raw = vars.spotcheckFingerprints;
  if (typeof raw !== 'string') return REFERENCE_FINGERPRINTS;
  try {
    return JSON.parse(raw) as Fingerprints;
  } catch {
    return REFERENCE_FINGERPRINTS;
  }
}

/** The hook signing one route's request (exported as `sign_<route>`). */
function signHook(route: LoadRoute) {
  return (req: RequestParams, context: Context, ee: Emitter, next: Next): void => {
    if (!zeroed) {
      // Every correctness total exists (0) so the script's `ensure` conditions can read it.
      zeroed = true;
      for (const c of FAIL_COUNTERS) ee.emit('counter', c, 0);
    }
    const o = options(context.vars);
    if (o instanceof Error) return next(o);
    const n = ordersPerRequest(route, o.batchSize);
    const cap = Number(context.vars.spotcheckMaxOrders ?? Infinity);
    if (sentOrders + n > cap) {
      ee.emit('counter', 'spotcheck.notSent.maxOrders', 1);
      return next(new Error(`spotcheckMaxOrders (${cap}) reached in this worker process: nothing more is sent`));
    }
    sentOrders += n;
    const built = buildLoadRequest(o, route, Date.now(), nextId);
    const r = built.request;
    const target = String(context.vars.target ?? '').replace(/\/+$/, '');
    req.url = `${target}${r.path}${r.query === '' ? '' : `?${r.query}`}`;
    req.body = r.body;
    req.headers = { ...r.headers };
    delete req.json;
    delete req.qs;
    delete req.form;
    req.spotcheck = { route, timestamp: built.timestamp, recvWindow: built.recvWindow, clientIds: built.clientIds };
    return next();
  };
}

/** The hook counting one answer. */
function check(req: RequestParams, res: Response, context: Context, ee: Emitter, next: Next): void {
  const sent = req.spotcheck;
  if (sent === undefined) return next();
  const t = emptyTally();
  const body = typeof res.body === 'string' ? res.body : res.body === undefined ? '' : JSON.stringify(res.body);
  countExchange(
    t,
    {
      timestamp: sent.timestamp,
      recvWindow: sent.recvWindow,
      clientIds: sent.clientIds,
      ...(res.timings?.upload === undefined ? {} : { writtenAt: res.timings.upload }),
      receivedAt: res.timings?.end ?? Date.now(),
      batch: sent.route === 'batch',
      ...(res.statusCode === undefined ? {} : { status: res.statusCode }),
      body,
      retryAfter: res.headers?.['retry-after'] !== undefined,
    },
    fingerprints(context.vars),
  );
  for (const [name, value] of tallyCounters(sent.route, t)) ee.emit('counter', name, value);
  const { upload, end } = res.timings ?? {};
  if (upload !== undefined && end !== undefined) ee.emit('histogram', latencyName(sent.route), end - upload);
  return next();
}

const hooks: Record<string, unknown> = { check };
for (const r of LOAD_ROUTES) hooks[hookName(r)] = signHook(r);

/** Artillery reads the processor's exports (CommonJS once bundled). */
export default hooks;
