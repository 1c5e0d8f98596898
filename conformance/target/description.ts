/**
 * The target description: how one deployment differs from the seed — header
 * name, paths, endpoints and placements offered, what a batch signature covers, the
 * order values its venue accepts, the largest recvWindow, a time endpoint. Read from a JSON-with-comments
 * file (`--config`), overridden by flags; whatever is left out is the seed's value.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { SpotcheckError } from '../../src/core/errors.js';
import { API_KEY_HEADER, ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from '../../src/core/wire.js';
import type { Placement } from '../../src/core/signing/build.js';
import { MAX_RECV_WINDOW } from '../../src/core/validation/time-params.js';
import { kitPath } from '../../src/paths.js';
import { credentialKey, parseJsonc, unknownKeyMessage } from './jsonc.js';
import { cheapest, gridValue, ordersAffordable, toGrid, type DecimalSpec, type Grid } from './decimal-grid.js';

/** Placements of the single-order endpoints (§5.3). */
export const SINGLE_PLACEMENTS: readonly Placement[] = ['query', 'body', 'split'];

/** Whether the target offers a route: its endpoint, and for a single order the placement (the batch carries JSON only). */
export function offersRoute(p: TargetProfile, r: { endpoint: EndpointName; placement: Placement | 'json' }): boolean {
  const e = p.endpoints[r.endpoint];
  return e.offered && (r.placement === 'json' || e.placements.includes(r.placement));
}

/** The file as written (every field optional). */
export interface TargetDescription {
  baseUrl?: string;
  /** PEM file of a private CA, relative to the description file. */
  ca?: string;
  apiKeyHeader?: string;
  pathPrefix?: string;
  endpoints?: Partial<Record<EndpointName, { path?: string; offered?: boolean; placements?: Placement[] }>>;
  batchSignature?: 'query+body' | 'query-only';
  order?: { symbol?: string; otherSymbol?: string; price?: DecimalSpec; quantity?: DecimalSpec; amount?: DecimalSpec };
  maxRecvWindow?: number;
  timePath?: string;
  testOrderPath?: string;
  orderLookup?: { path: string; method?: 'GET' | 'POST'; param?: string };
  account?: { quote: string; base: string };
}

/** An order-lookup path: a signed request asking whether a client id names an order (conformance/judgement/effects.ts). */
export interface OrderLookup {
  /** Path, prefix included (e.g. `/api/v1/spot/order`). */
  path: string;
  /** HTTP method (default GET). */
  method: 'GET' | 'POST';
  /** Parameter carrying the client id (default `origClientOrderId`). */
  param: string;
}

/** One endpoint as the runner uses it. */
export interface ResolvedEndpoint {
  name: EndpointName;
  /** Full path, prefix included. */
  path: string;
  offered: boolean;
  /** Where signed parameters may travel; the batch has its JSON body only. */
  placements: readonly Placement[];
}

/** Everything the checks need to know of the target, defaults filled in. */
export interface TargetProfile {
  apiKeyHeader: string;
  endpoints: Readonly<Record<EndpointName, ResolvedEndpoint>>;
  batchSignature: 'query+body' | 'query-only';
  symbol: string;
  otherSymbol: string;
  /** Accepted order values; absent = the kit's own random decimals. */
  price?: Grid;
  quantity?: Grid;
  amount?: Grid;
  maxRecvWindow: number;
  timePath?: string;
  /** Where v1 requests go instead of the v1 endpoint (places nothing), prefix included. */
  testOrderPath?: string;
  /** The declared account budget and the orders it pays for (cheapest valid orders, any mix of sides). */
  account?: { quote: string; base: string; orders: number };
  /** A signed request asking whether a client id names an order (prefix included): shows place-nothing by effect. */
  orderLookup?: OrderLookup;
  /** Every field that differs from the seed, in words, for the report's opening. */
  deviations: string[];
}

let validator: ReturnType<Ajv2020['compile']> | undefined;

/** Where credentials go instead of a file that is read, shared and committed. */
export const CREDENTIALS_ELSEWHERE =
  'credentials never go in the target file (it is shared and committed): pass them with --api-key / --secret or SPOTCHECK_API_KEY / SPOTCHECK_SECRET';

/** One problem of a description: where (a JSON Pointer, and the key for an unknown key) and what. */
interface Issue {
  pointer: string;
  key?: string;
  message: string;
  credential: boolean;
}

/** A schema error's message, naming the values allowed where the schema lists them (`enum`, `const`). */
function withAllowed(e: ErrorObject): string {
  const message = e.message ?? 'is invalid';
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `${message}: ${allowed.map((v) => JSON.stringify(v)).join(', ')} (got ${JSON.stringify(e.data)})`;
  }
  if (e.keyword === 'const')
    return `${message}: ${JSON.stringify((e.params as { allowedValue?: unknown }).allowedValue)} (got ${JSON.stringify(e.data)})`;
  return message;
}

function issuesOf(value: unknown): Issue[] {
  validator ??= new Ajv2020({ allErrors: true, strict: true, verbose: true }).compile(
    JSON.parse(readFileSync(kitPath('conformance', 'target', 'target.schema.json'), 'utf8')) as object,
  );
  if (validator(value)) return [];
  return (validator.errors ?? []).map((e): Issue => {
    const pointer = e.instancePath;
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      if (credentialKey(key, known))
        return {
          pointer,
          key,
          credential: true,
          message: `"${key}" looks like a credential: ${CREDENTIALS_ELSEWHERE}`,
        };
      return { pointer, key, credential: false, message: unknownKeyMessage(key, known) };
    }
    return { pointer, credential: false, message: withAllowed(e) };
  });
}

/** Issues of a parsed description against conformance/target/target.schema.json, as lines. */
export function descriptionIssues(value: unknown): string[] {
  return issuesOf(value).map((i) => `${i.pointer || '(top level)'}: ${i.message}`);
}

/**
 * Read and check a description file (comments and trailing commas allowed); a usage error
 * names the file, and each problem with its line and column.
 */
export function loadDescription(file: string): TargetDescription {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `--config: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const { doc, errors } = parseJsonc(text);
  if (errors.length > 0)
    throw new SpotcheckError(
      'ERR_USAGE',
      `--config: ${file} is not JSON (comments and trailing commas allowed):\n  ${errors.map((e) => `${file}:${e}`).join('\n  ')}`,
    );
  const issues = issuesOf(doc.value).sort((a, b) => Number(b.credential) - Number(a.credential));
  if (issues.length > 0)
    throw new SpotcheckError(
      'ERR_USAGE',
      `--config: ${file} does not match the target schema:\n  ${issues
        .map((i) => `${file}:${doc.where(i.pointer, i.key)}: ${i.pointer === '' ? '' : `${i.pointer}: `}${i.message}`)
        .join('\n  ')}`,
    );
  return doc.value as TargetDescription;
}

/** Fill in the seed's defaults; a decimal spec that is no grid is a usage error. */
export function resolveDescription(d: TargetDescription): TargetProfile {
  const prefix = (d.pathPrefix ?? '').replace(/\/+$/, '');
  const deviations: string[] = [];
  const endpoints = {} as Record<EndpointName, ResolvedEndpoint>;
  for (const name of ENDPOINT_NAMES) {
    const e = d.endpoints?.[name] ?? {};
    const path = prefix + (e.path ?? ENDPOINTS[name].path);
    const placements = name === 'batch' ? [] : (e.placements ?? SINGLE_PLACEMENTS);
    const offered = e.offered ?? true;
    endpoints[name] = { name, path, offered, placements };
    if (path !== ENDPOINTS[name].path) deviations.push(`${name} endpoint at ${path}`);
    if (!offered) deviations.push(`${name} endpoint not offered`);
    if (name !== 'batch' && placements.length < SINGLE_PLACEMENTS.length)
      deviations.push(`${name} accepts only the ${placements.join(', ')} placement(s)`);
  }
  const apiKeyHeader = d.apiKeyHeader ?? API_KEY_HEADER;
  if (apiKeyHeader.toLowerCase() !== API_KEY_HEADER.toLowerCase()) deviations.push(`API-key header ${apiKeyHeader}`);
  const batchSignature = d.batchSignature ?? 'query+body';
  if (batchSignature === 'query-only')
    deviations.push('batch signature covers the query string only (declared deviation from §5.3 item 4)');
  const grid = (field: 'price' | 'quantity' | 'amount'): Grid | undefined => {
    const spec = d.order?.[field];
    if (spec === undefined) return undefined;
    const g = toGrid(spec);
    if ('error' in g) throw new SpotcheckError('ERR_USAGE', `--config: order.${field}: ${g.error}`);
    return g;
  };
  const out: TargetProfile = {
    apiKeyHeader,
    endpoints,
    batchSignature,
    symbol: d.order?.symbol ?? 'BTCUSDT',
    otherSymbol: d.order?.otherSymbol ?? 'ETHUSDT',
    maxRecvWindow: d.maxRecvWindow ?? MAX_RECV_WINDOW,
    deviations,
  };
  for (const f of ['price', 'quantity', 'amount'] as const) {
    const g = grid(f);
    if (g !== undefined) out[f] = g;
  }
  if (d.maxRecvWindow !== undefined && d.maxRecvWindow !== MAX_RECV_WINDOW)
    deviations.push(`largest recvWindow ${d.maxRecvWindow} ms`);
  if (d.timePath !== undefined) out.timePath = d.timePath;
  if (d.testOrderPath !== undefined) {
    out.testOrderPath = prefix + d.testOrderPath;
    deviations.push(
      `v1 requests go to the test-order path ${out.testOrderPath} (places nothing), except ORDER-V1-ENDPOINT's`,
    );
  }
  if (d.account !== undefined) {
    // The cheapest valid orders: each grid held at its minimum; the kit's own values where none is declared.
    for (const f of ['price', 'quantity', 'amount'] as const) {
      const g = out[f];
      if (g !== undefined) out[f] = cheapest(g);
    }
    const price = out.price === undefined ? '0.1' : gridValue(out.price, 0n);
    const quantity = out.quantity === undefined ? '1' : gridValue(out.quantity, 0n);
    const orders = ordersAffordable(d.account, price, quantity);
    out.account = { ...d.account, orders };
    deviations.push(
      `account budget ${d.account.quote} quote and ${d.account.base} base: the cheapest orders (price ${price}, quantity ${quantity}), at most ${orders} of them`,
    );
  }
  if (d.orderLookup !== undefined) {
    out.orderLookup = {
      path: prefix + d.orderLookup.path,
      method: d.orderLookup.method ?? 'GET',
      param: d.orderLookup.param ?? 'origClientOrderId',
    };
  }
  return out;
}
