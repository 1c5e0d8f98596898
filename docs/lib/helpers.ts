/**
 * The placeholder helpers of the guide templates, bound to the kit's data: golden
 * vectors, rule catalog, decisions record, code constants and CLI help texts.
 */
import type { Rule } from '../../src/rules.js';
import type { OrderVectorFile, SigningVectorFile, TimeWindowVectorFile } from '../../vectors/types.js';
import { code, codeBlock } from './markdown.js';
import { ruleLink } from './rules-page.js';
import type { Helpers } from './template.js';
import { isSigningField, orderCaseTable, pickVector, queryFromOptions, signingExample, timeTable, type SigningField } from './vector-views.js';

/** Everything the helpers read. */
export interface DocsData {
  /** `vectors/signing.json`, loaded and checked. */
  signing: SigningVectorFile;
  /** `vectors/time-window.json`, loaded and checked. */
  timeWindow: TimeWindowVectorFile;
  /** `vectors/orders.json`, loaded and checked. */
  orders: OrderVectorFile;
  /** The rule catalog by ID. */
  rules: ReadonlyMap<string, Rule>;
  /** The decision IDs of `spec/decisions.md`. */
  decisions: ReadonlySet<string>;
  /** Named constants of the code the guides may quote (limits, defaults, header names). */
  constants: Readonly<Record<string, string | number>>;
  /** `spotcheck <command> --help` output by command (`''` for the top-level help). */
  cliHelp: ReadonlyMap<string, string>;
}

/** The decision IDs (`D-...`) of the decisions record's table rows. */
export function decisionIds(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^\|\s*(D-[A-Z0-9-]+)\s*\|/gm)].map((m) => m[1] ?? ''));
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
  const signingVector = (opts: Readonly<Record<string, string>>) => pickVector(data.signing.tests, queryFromOptions(opts), 'vectors/signing.json');
  return {
    /** `{{rule SIG-REQUIRED}}`: link to the rule in the catalog. */
    rule: (args) => linkRule(one(args, 'rule ID')),
    /** `{{decision D-EMPTY-BATCH}}`: the decision ID, linked to the decisions record. */
    decision: (args) => {
      const id = one(args, 'decision ID');
      if (!data.decisions.has(id)) throw new Error(`spec/decisions.md has no decision ${id}`);
      return `[${id}](./decisions.md)`;
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
      if (opts['fields'] !== undefined) {
        fields = opts['fields'].split(',').map((f) => {
          if (!isSigningField(f)) throw new Error(`unknown signing field ${f}`);
          return f;
        });
      }
      return signingExample(v, fields);
    },
    /** `{{value field=totalParams flags=...}}`: one value of a signing vector, as a code span. */
    value: (_args, opts) => {
      const field = opts['field'] ?? '';
      if (!isSigningField(field)) throw new Error(`unknown signing field ${field}`);
      return code(signingVector(opts)[field]);
    },
    /** `{{tc flags=...}}`: the tcId of the vector a query picks, as `#N`. */
    tc: (_args, opts) => `#${signingVector(opts).tcId}`,
    /** `{{count signing|time-window|orders}}`: number of vectors in a file. */
    count: (args) => {
      const file = one(args, 'vector file');
      const n = file === 'signing' ? data.signing.tests.length : file === 'time-window' ? data.timeWindow.tests.length : file === 'orders' ? data.orders.tests.length : undefined;
      if (n === undefined) throw new Error(`unknown vector file ${file}`);
      return String(n);
    },
    /** `{{time-table [flag=Boundary]}}`: the time-window table. */
    'time-table': (_args, opts) => timeTable(data.timeWindow.tests, linkRule, opts['flag']),
    /** `{{order-cases kind=batch [flag=...]}}`: validation cases as a table. */
    'order-cases': (_args, opts) => {
      const kind = opts['kind'];
      if (kind !== 'batch' && kind !== 'order') throw new Error('kind must be batch or order');
      return orderCaseTable(data.orders.tests, kind, linkRule, opts['flag']);
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
