/**
 * The interop scenarios: each placement a client may offer (§5.3: batch JSON body,
 * single order in the query string, single order in a form body) times the client ids
 * that test encoding (§2.1 newClientOrderId: spaces, `'`, `~`, `*`, non-ASCII).
 */

/** Where the client puts the signed parameters. */
export type Placement = 'batch-json' | 'query' | 'form';
export const PLACEMENTS: readonly Placement[] = ['batch-json', 'query', 'form'];

/** The client id kinds, each with the text that follows a unique prefix. */
export const ID_KINDS = {
  plain: 'plain',
  space: 'a b c',
  quote: "it's",
  tilde: 'a~b',
  star: 'a*b',
  'non-ascii': 'café-€',
} as const;
export type IdKind = keyof typeof ID_KINDS;
export const ID_KIND_NAMES = Object.keys(ID_KINDS) as IdKind[];

/** A scenario name: `<placement>/<id kind>`. */
export type Scenario = `${Placement}/${IdKind}`;
export const SCENARIOS: readonly Scenario[] = PLACEMENTS.flatMap((p) =>
  ID_KIND_NAMES.map((k): Scenario => `${p}/${k}`),
);

/** One limit order as the harness asks a client to send it (values as strings, the way the seed's examples write decimals). */
export interface OrderParams {
  symbol: string;
  side: 'BUY';
  type: 'LIMIT';
  quantity: string;
  price: string;
  timeInForce: 'GTC';
  newClientOrderId: string;
}

/** The order(s) of a scenario; `prefix` makes every client id of a run unique (the server refuses a reused one). */
export function ordersFor(scenario: Scenario, prefix: string): OrderParams[] {
  const [placement, kind] = scenario.split('/') as [Placement, IdKind];
  const order = (n: number): OrderParams => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.01',
    price: '30000',
    timeInForce: 'GTC',
    newClientOrderId: `${prefix}${n}-${ID_KINDS[kind]}`,
  });
  return placement === 'batch-json' ? [order(1), order(2)] : [order(1)];
}
