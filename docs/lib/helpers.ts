/**
 * The placeholder helpers of the guide templates, bound to the kit's data: golden
 * vectors, rule catalog, decisions record, code constants and CLI help texts.
 */
import type { Rule } from '../../src/rules.js';
import type {
  DoctorVectorFile,
  OrderVectorFile,
  SigningVectorFile,
  TimeWindowVectorFile,
} from '../../vectors/types.js';
import { clientHelpers, type ClientMatrix } from './clients-page.js';
import { doctorHelpers } from './doctor-page.js';
import { code, codeBlock, table } from './markdown.js';
import { operations, type OpenApiDocument } from './openapi-pages.js';
import { ruleLink } from './rules-page.js';
import type { Helpers } from './template.js';
import {
  isSigningField,
  orderCaseTable,
  pickVector,
  pickVectors,
  queryFromOptions,
  signingExample,
  timeTable,
  type SigningField,
} from './vector-views.js';

/** Everything the helpers read. */
export interface DocsData {
  /** `vectors/signing.json`, loaded and checked. */
  signing: SigningVectorFile;
  /** `vectors/time-window.json`, loaded and checked. */
  timeWindow: TimeWindowVectorFile;
  /** `vectors/orders.json`, loaded and checked. */
  orders: OrderVectorFile;
  /** `vectors/doctor.json`, loaded and checked. */
  doctor: DoctorVectorFile;
  /** `docs/data/client-libraries.json` (the interop matrix of a real `npm run interop` run), loaded and checked. */
  clients: ClientMatrix;
  /** The rule catalog by ID. */
  rules: ReadonlyMap<string, Rule>;
  /** The decisions table of `spec/decisions.md`: ID to its cells (ID, open point, reference choice, core profile). */
  decisions: ReadonlyMap<string, readonly string[]>;
  /** The dereferenced OpenAPI document. */
  openapi: OpenApiDocument;
  /** Named constants of the code the guides may quote (limits, defaults, header names). */
  constants: Readonly<Record<string, string | number>>;
  /** `spotcheck <command> --help` output by command (`''` for the top-level help). */
  cliHelp: ReadonlyMap<string, string>;
  /** TypeDoc's name of the library's main module (`src/index.ts`): its `@module` tag, else `index`. */
  apiModule: string;
}

/** The name TypeDoc gives the module of an entry point's source: its `@module` tag, or `index` for an `index.ts`. */
export function moduleName(source: string): string {
  return /@module\s+(\S+)/.exec(source)?.[1] ?? 'index';
}

/** The rows of the decisions record's table, by decision ID (`D-...`), as their Markdown cells. */
export function decisionRows(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of markdown.matchAll(/^\|\s*(D-[A-Z0-9-]+)\s*\|(.*)\|\s*$/gm)) {
    const id = m[1] ?? '';
    out.set(id, [id, ...(m[2] ?? '').split(/(?<!\\)\|/).map((c) => c.trim())]);
  }
  return out;
}

function one(args: readonly string[], what: string): string {
  const [a] = args;
  if (a === undefined || args.length !== 1) throw new Error(`expects exactly one ${what}`);
  return a;
}

/** The helpers of the guide templates over `data`. */
export function makeHelpers(data: DocsData): Helpers {
  const linkRule = (id: string): string => {
    if (!data.rules.has(id)) throw new Error(`unknown rule ID ${id}`);
    return ruleLink(id);
  };
  const signingVector = (opts: Readonly<Record<string, string>>) =>
    pickVector(data.signing.tests, queryFromOptions(opts), 'vectors/signing.json');
  return {
    ...doctorHelpers(data.doctor),
    ...clientHelpers(data.clients),
    /** `{{rule SIG-REQUIRED}}`: link to the rule in the catalog. */
    rule: (args) => linkRule(one(args, 'rule ID')),
    /** `{{decision D-EMPTY-BATCH}}`: the decision ID, linked to the decisions record. */
    decision: (args) => {
      const id = one(args, 'decision ID');
      if (!data.decisions.has(id)) throw new Error(`spec/decisions.md has no decision ${id}`);
      return `[${id}](./decisions.md)`;
    },
    /** `{{decision-rows D-A,D-B}}`: those rows of the decisions table, as a table. */
    'decision-rows': (args) => {
      const ids = one(args, 'comma-separated list of decision IDs').split(',');
      const rows = ids.map((id) => {
        const row = data.decisions.get(id);
        if (row === undefined) throw new Error(`spec/decisions.md has no decision ${id}`);
        return [`[${id}](./decisions.md)`, ...row.slice(1)];
      });
      return table(['Decision', 'Open point (seed)', 'Reference choice', 'Core profile'], rows);
    },
    /** `{{openapi-example createBatchOrders 200 partialFailure}}`: an example of the OpenAPI document, as a JSON block. */
    'openapi-example': (args) => {
      const [opId, status, name] = args;
      const found = operations(data.openapi).find(({ op }) => op.operationId === opId);
      if (found === undefined) throw new Error(`no operation ${String(opId)} in spec/openapi.yaml`);
      const content =
        status === 'request' ? found.op.requestBody?.content : found.op.responses?.[status ?? '']?.content;
      const ex = Object.values(content ?? {}).find((m) => m.examples?.[name ?? ''] !== undefined)?.examples?.[
        name ?? ''
      ];
      if (ex?.value === undefined)
        throw new Error(`operation ${String(opId)} has no example ${String(name)} for ${String(status)}`);
      return codeBlock(JSON.stringify(ex.value, null, 2), 'json');
    },
    /** `{{const MAX_BATCH_ORDERS}}`: a constant of the code, as plain text. */
    const: (args) => {
      const name = one(args, 'constant name');
      const v = data.constants[name];
      if (v === undefined) throw new Error(`unknown constant ${name}`);
      return String(v);
    },
    /** `{{example flags=Published,Split [result=valid] [tc=3] [fields=totalParams,signature]}}`: a worked signing example. */
    example: (_args, opts) => {
      const v = signingVector(opts);
      let fields: SigningField[] | undefined;
      if (opts.fields !== undefined) {
        fields = opts.fields.split(',').map((f) => {
          if (!isSigningField(f)) throw new Error(`unknown signing field ${f}`);
          return f;
        });
      }
      return signingExample(v, fields);
    },
    /** `{{value field=totalParams flags=...}}`: one value of a signing vector, as a code span. */
    value: (_args, opts) => {
      const field = opts.field ?? '';
      if (!isSigningField(field)) throw new Error(`unknown signing field ${field}`);
      return code(signingVector(opts)[field]);
    },
    /** `{{tc flags=...}}`: the tcId of the vector a query picks, as `#N`. */
    tc: (_args, opts) => `#${signingVector(opts).tcId}`,
    /** `{{tcs flags=...}}`: the tcIds of every signing vector matching, as `#N, #M`. */
    tcs: (_args, opts) =>
      pickVectors(data.signing.tests, queryFromOptions(opts), 'vectors/signing.json')
        .map((t) => `#${t.tcId}`)
        .join(', '),
    /** `{{count signing|time-window|orders}}`: number of vectors in a file. */
    count: (args) => {
      const file = one(args, 'vector file');
      const n =
        file === 'signing'
          ? data.signing.tests.length
          : file === 'time-window'
            ? data.timeWindow.tests.length
            : file === 'orders'
              ? data.orders.tests.length
              : undefined;
      if (n === undefined) throw new Error(`unknown vector file ${file}`);
      return String(n);
    },
    /** `{{rule-count [MUST|SHOULD|INFO]}}`: number of rules in the catalog, of one level or all. */
    'rule-count': (args) => {
      const [level] = args;
      return String([...data.rules.values()].filter((r) => level === undefined || r.level === level).length);
    },
    /** `{{api signingSteps}}`: a TypeDoc link to an export of the library's main module. */
    api: (args) => {
      const name = one(args, 'export name');
      return `{@link ${data.apiModule}.${name} | ${name}}`;
    },
    /** `{{time-table [flag=Boundary]}}`: the time-window table. */
    'time-table': (_args, opts) => timeTable(data.timeWindow.tests, linkRule, opts.flag),
    /** `{{order-cases kind=batch [flag=...]}}`: validation cases as a table. */
    'order-cases': (_args, opts) => {
      const kind = opts.kind;
      if (kind !== 'batch' && kind !== 'order') throw new Error('kind must be batch or order');
      return orderCaseTable(data.orders.tests, kind, linkRule, opts.flag);
    },
    /** `{{cli-help [command]}}`: the real `--help` text of the CLI, as a code block. */
    'cli-help': (args) => {
      const cmd = args[0] ?? '';
      const text = data.cliHelp.get(cmd);
      if (text === undefined) throw new Error(`no help text for \`spotcheck ${cmd}\` (is the command implemented?)`);
      return codeBlock(text.trimEnd());
    },
  };
}
