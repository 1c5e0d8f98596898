/**
 * `spotcheck init [FILE]`: write a commented target description with the seed's
 * defaults, for a user to adapt to their deployment and pass with `--config FILE`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { kitPath } from '../../src/paths.js';
import { parse, type Io } from '../../src/cli/args.js';
import { SpotcheckError } from '../../src/core/errors.js';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../../src/client/requests.js';
import { MAX_RECV_WINDOW } from '../../src/core/validation/time-params.js';

export const INIT_HELP = `Usage: spotcheck init [FILE] [--force]

Writes a commented target description (default spotcheck.target.jsonc) holding the
seed's defaults. Edit what differs on your deployment, then run
  spotcheck run --config FILE
Every field is optional; flags such as --base-url and --symbol override the file.
`;

/** Default `$schema` of a template: where an installed kit keeps its schema, seen from the project root. */
const INSTALLED_SCHEMA = './node_modules/spotcheck/conformance/target/target.schema.json';

/**
 * The `$schema` reference for a description written at `file`: the kit's own schema file,
 * relative to the description's folder, so it resolves in the kit's clone
 * (`./conformance/target/...`) and in a project that installed it (`./node_modules/spotcheck/...`).
 */
export function schemaRef(file: string): string {
  const rel = relative(dirname(resolve(file)), kitPath('conformance', 'target', 'target.schema.json'))
    .split(sep)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The commented template; every value is the seed's default. */
export function targetTemplate(schema = INSTALLED_SCHEMA): string {
  return `// spotcheck target description: how your deployment differs from the seed.
// Every field is optional; delete what you do not need. Values shown are the seed's.
// Lines starting with // "name" are optional settings: remove the // to use one.
// Credentials never go here: use SPOTCHECK_API_KEY / SPOTCHECK_SECRET.
{
  "$schema": "${schema}",

  // Server to check (the --base-url flag wins over this).
  // "baseUrl": "https://api.example.test",

  // PEM file of a private certificate authority the server's certificate chains to,
  // relative to this file (the --ca flag wins over this).
  // "ca": "ca.pem",

  // Name of the API-key header (seed §5.2).
  "apiKeyHeader": "${API_KEY_HEADER}",

  // Prepended to every path below, e.g. "/gateway".
  "pathPrefix": "",

  // Which endpoints your server offers, at which paths, and for single orders where the
  // signed parameters may travel (§5.3): "query", "body" (form), "split".
  // An endpoint with "offered": false is reported once, not failed check by check.
  "endpoints": {
    "batch": { "path": "${BATCH_ORDERS_PATH}", "offered": true },
    "v1": { "path": "${ORDER_PATHS.v1}", "offered": true, "placements": ["query", "body", "split"] },
    "v1.1": { "path": "${ORDER_PATHS['v1.1']}", "offered": true, "placements": ["query", "body", "split"] },
  },

  // What a batch signature covers: "query+body" (seed §5.3 item 4) or "query-only"
  // (what some client libraries do; reported once as a SIG-BODY-COVERED failure, and
  // every other check then signs batches that way).
  "batchSignature": "query+body",

  // The orders spotcheck places. Your venue may refuse arbitrary values (tick size,
  // lot size, minimum notional, balance): give a fixed decimal or a grid
  // { "min": "...", "max": "...", "step": "..." } it accepts.
  "order": {
    "symbol": "BTCUSDT",
    "otherSymbol": "ETHUSDT",
    // "price": { "min": "20000", "max": "20100", "step": "0.5" },
    // "quantity": { "min": "0.001", "max": "0.01", "step": "0.001" },
    // "amount": "10",
  },

  // Largest recvWindow your server accepts, ms (the seed names none).
  "maxRecvWindow": ${MAX_RECV_WINDOW},

  // Optional server-time endpoint answering {"serverTime": ms}; without it the clock
  // is measured from the HTTP Date header.
  // "timePath": "/api/v1/time",

  // Optional endpoint that validates a v1 order but places nothing (like a venue's
  // order/test endpoint). Every v1 request is sent there, except the ones proving the
  // real v1 endpoint accepts orders.
  // "testOrderPath": "${ORDER_PATHS.v1}/test",

  // Optional signed request asking whether a client order id names an order. Without it a
  // refused call is shown to have placed nothing by reusing one of its client ids in a
  // valid order (where the server refuses a repeated id); with it the kit asks directly.
  // "orderLookup": { "path": "${ORDER_PATHS.v1}", "method": "GET", "param": "origClientOrderId" },

  // Optional account budget: what the test account holds of the quote currency (e.g. USDT)
  // and of the base currency (e.g. BTC). The kit then sends the cheapest valid orders (the
  // minimum of each order grid above) and no more of them than the smaller side pays for.
  // "account": { "quote": "10000", "base": "0.5" },
}
`;
}

/** Write the template; refuses to overwrite without --force. */
export function initCommand(argv: string[], io: Io): number {
  const { values, positionals } = parse(
    {
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    },
    'init',
  );
  if (values.help) {
    io.out(INIT_HELP);
    return 0;
  }
  if (positionals.length > 1)
    throw new SpotcheckError('ERR_USAGE', `init: one file name at most, got ${positionals.length}`);
  const file = positionals[0] ?? 'spotcheck.target.jsonc';
  if (existsSync(file) && !values.force)
    throw new SpotcheckError('ERR_USAGE', `init: ${file} exists; pass --force to overwrite it`);
  try {
    writeFileSync(file, targetTemplate(schemaRef(file)));
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `init: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  io.out(`wrote ${file}: edit what differs on your server, then run\n  spotcheck run --config ${file}\n`);
  return 0;
}
