/**
 * The helpers of the guide "Client libraries": the interop matrix of real client libraries
 * against the reference server (`npm run interop -- --out docs/data/client-libraries.json`,
 * committed from a real run), and what each mistake found means for a user of that library.
 * The matrix is read and checked here, so a malformed or hand-edited file fails the build.
 */
import { DOCTOR_CODES, DOCTOR_FIXES, DOCTOR_SENTENCES, type DoctorCode } from '../../src/core/doctor/diagnose.js';
import { code, escapeMd, table } from './markdown.js';
import type { Helpers } from './template.js';

/** The placements and client-id kinds of the harness (harness/interop/scenarios.ts), in column order. */
export const PLACEMENT_TITLES = {
  'batch-json': 'Batch, JSON body',
  query: 'Single order, query string',
  form: 'Single order, form body',
} as const;
export const ID_TITLES = {
  plain: 'plain id',
  space: 'id with spaces',
  quote: "id with '",
  tilde: 'id with ~',
  star: 'id with *',
  'non-ascii': 'non-ASCII id',
} as const;
type Placement = keyof typeof PLACEMENT_TITLES;
type IdKind = keyof typeof ID_TITLES;

export interface Evidence {
  query: string;
  body: string;
  msg: string;
  signature: string;
}

/** A client's grade card: its `spotcheck grade` session, per client rule (conformance/grade/rules.ts). */
export interface GradeCard {
  verdict: string;
  requests: number;
  rules: Array<{ id: string; status: string; broken: number; exercised: number; example?: string }>;
}

export interface ClientRow {
  name: string;
  package: string;
  version: string;
  scenarios: Record<string, string>;
  evidence: Record<string, Evidence>;
  /** Present when the run drove the client through `spotcheck grade`. */
  grade?: GradeCard;
}

export interface ClientMatrix {
  generated: string;
  node: string;
  server: string;
  clients: ClientRow[];
}

const SCENARIOS = (Object.keys(PLACEMENT_TITLES) as Placement[]).flatMap((p) =>
  (Object.keys(ID_TITLES) as IdKind[]).map((k) => `${p}/${k}`),
);

/** A cell's doctor codes (`A+B` for two mistakes), or [] when it is not a diagnosis. */
function codesOf(outcome: string): DoctorCode[] {
  const parts = outcome.split('+');
  return parts.every((p) => (DOCTOR_CODES as readonly string[]).includes(p)) ? (parts as DoctorCode[]) : [];
}

const OUTCOME = /^(accepted|unsupported|not sent|refused -?\d+|[A-Z_]+(\+[A-Z_]+)*)$/;

/** The matrix, checked: every client has every scenario, every outcome is one the harness writes. */
export function checkMatrix(value: unknown): ClientMatrix {
  const m = value as Partial<ClientMatrix>;
  if (
    typeof m !== 'object' ||
    m === null ||
    typeof m.generated !== 'string' ||
    !Array.isArray(m.clients) ||
    m.clients.length === 0
  ) {
    throw new Error(
      'docs/data/client-libraries.json: expected { generated, node, server, clients: [...] } from npm run interop',
    );
  }
  for (const c of m.clients) {
    for (const s of SCENARIOS) {
      const o = c.scenarios?.[s];
      if (typeof o !== 'string' || !OUTCOME.test(o))
        throw new Error(`docs/data/client-libraries.json: ${c.name} has no valid outcome for ${s}`);
      if (/^[A-Z_]/.test(o) && codesOf(o).length === 0)
        throw new Error(`docs/data/client-libraries.json: ${c.name} ${s}: unknown doctor code ${o}`);
    }
    const g = c.grade;
    if (
      g !== undefined &&
      (!['kept', 'broken', 'nothing-graded'].includes(g.verdict) ||
        !Array.isArray(g.rules) ||
        g.rules.some(
          (r) =>
            !/^CLIENT-[A-Z-]+$/.test(r.id) ||
            !['kept', 'broken', 'not-exercised'].includes(r.status) ||
            (r.status === 'broken') !== r.broken > 0 ||
            r.broken > r.exercised,
        ))
    )
      throw new Error(`docs/data/client-libraries.json: ${c.name} has a malformed grade card`);
  }
  return m as ClientMatrix;
}

/** What a mistake means for a user of one library, and what they can do; by `client name|code`. */
export const CLIENT_NOTES: Readonly<Record<string, string>> = {
  'ccxt (hashkey)|BODY_NOT_SIGNED':
    "ccxt's hashkey class signs only the query string of a batch (`timestamp`) and sends the orders as an unsigned JSON body, so a server that signs totalParams as the seed says (query string directly followed by the body, §5.3 item 4) refuses every batch. Place orders one by one (its form-body order call is accepted), or build and sign the batch request yourself.",
  'ccxt (toobit)|PARAMS_REORDERED':
    "ccxt's toobit class signs a batch as the JSON body followed by the query string (the reverse of totalParams), and sends it with `Content-Type: application/x-www-form-urlencoded`: the reference server refuses it for the content type first (-1000), and the doctor reads the signature as `PARAMS_REORDERED`. Place orders one by one (its form-body order call is accepted).",
  '@binance/connector|ENCODING_MISMATCH':
    "@binance/connector signs the query string with `'` left as it is, then its HTTP stack sends `%27`: the signed text and the sent text differ, so a client id holding `'` is refused. Nothing to change in the order of signing; avoid `'` in client ids (or other characters your HTTP stack re-encodes), or pass an already encoded query string so that what is signed is what is sent.",
  'binance|ENCODING_MISMATCH':
    "binance (tiagosiebler) signs the query string with `'` left as it is, and `%27` goes on the wire: a client id holding `'` is refused. Avoid `'` in client ids, or sign the exact query string the library sends.",
  'binance-api-node|ENCODING_MISMATCH':
    "binance-api-node signs the query string with `'` left as it is, and `%27` goes on the wire: a client id holding `'` is refused. Avoid `'` in client ids.",
  'node-binance-api|ENCODING_MISMATCH':
    "node-binance-api signs one percent-encoding of the form body and sends another (spaces signed `%20` and sent `+`, `~` signed as is and sent `%7E`, `'` signed as is and sent `%27`): a client id holding a space, `~` or `'` is refused. Keep client ids to letters, digits, `-`, `_` and `.`.",
};

function summary(outcomes: readonly string[]): string {
  const distinct = [...new Set(outcomes)];
  return distinct.length === 1 ? (distinct[0] ?? '') : 'mixed';
}

const cell = (o: string): string =>
  o === 'accepted' ? 'accepted' : o === 'unsupported' ? '–' : codesOf(o).length > 0 ? code(o) : escapeMd(o);

/** The helpers over the interop matrix. */
export function clientHelpers(matrix: ClientMatrix): Helpers {
  const ids = Object.keys(ID_TITLES) as IdKind[];
  return {
    /** `{{client-run}}`: when and against what the matrix was produced. */
    'client-run': () =>
      `Produced by \`npm run interop\` on ${matrix.generated.slice(0, 10)} (${escapeMd(matrix.generated)}), Node.js ${escapeMd(matrix.node)}, against the ${escapeMd(matrix.server)}; ` +
      `${matrix.clients.length} clients: ${matrix.clients.map((c) => `${escapeMd(c.name)} ${code(c.version)}`).join(', ')}.`,
    /** `{{client-summary}}`: one row per client, one column per placement. */
    'client-summary': () =>
      table(
        ['Client', 'npm package', 'Version', ...Object.values(PLACEMENT_TITLES)],
        matrix.clients.map((c) => [
          escapeMd(c.name),
          code(c.package),
          code(c.version),
          ...(Object.keys(PLACEMENT_TITLES) as Placement[]).map((p) => {
            const s = summary(ids.map((k) => c.scenarios[`${p}/${k}`] ?? ''));
            if (s !== 'mixed') return s === 'unsupported' ? 'not offered' : `${cell(s)} (every id)`;
            const odd = ids.filter((k) => c.scenarios[`${p}/${k}`] !== 'accepted');
            return `accepted, except ${odd.map((k) => `${ID_TITLES[k]}: ${cell(c.scenarios[`${p}/${k}`] ?? '')}`).join('; ')}`;
          }),
        ]),
      ),
    /** `{{client-matrix}}`: the whole matrix, one table per placement, one column per client-id kind. */
    'client-matrix': () =>
      (Object.entries(PLACEMENT_TITLES) as Array<[Placement, string]>)
        .map(([p, title]) => {
          const rows = matrix.clients.filter((c) => ids.some((k) => c.scenarios[`${p}/${k}`] !== 'unsupported'));
          const offered =
            rows.length === 0
              ? 'No client offers this placement.'
              : table(
                  ['Client', ...ids.map((k) => ID_TITLES[k])],
                  rows.map((c) => [escapeMd(c.name), ...ids.map((k) => cell(c.scenarios[`${p}/${k}`] ?? ''))]),
                );
          const not = matrix.clients.filter((c) => !rows.includes(c)).map((c) => escapeMd(c.name));
          return `### ${title}\n\n${offered}${not.length > 0 ? `\n\nNot offered by: ${not.join(', ')}.` : ''}`;
        })
        .join('\n\n'),
    /** `{{client-grades}}`: the grade cards, one column per client, one row per client rule exercised by any of them. */
    'client-grades': () => {
      const graded = matrix.clients.filter((c) => c.grade !== undefined);
      if (graded.length === 0) return 'No grade cards in this run (run `npm run interop` again).';
      const ids = [...new Set(graded.flatMap((c) => c.grade?.rules.map((r) => r.id) ?? []))].filter((id) =>
        graded.some((c) => c.grade?.rules.some((r) => r.id === id && r.status !== 'not-exercised')),
      );
      const mark = (c: ClientRow, id: string): string => {
        const r = c.grade?.rules.find((x) => x.id === id);
        if (r === undefined || r.status === 'not-exercised') return '–';
        return r.status === 'kept' ? `kept (${r.exercised})` : `**broken on ${r.broken} of ${r.exercised}**`;
      };
      const cards = table(
        ['Client rule', ...graded.map((c) => escapeMd(c.name))],
        [
          ['Verdict', ...graded.map((c) => (c.grade?.verdict === 'kept' ? 'every rule kept' : '**rules broken**'))],
          ['Signed requests graded', ...graded.map((c) => String(c.grade?.requests ?? 0))],
          ...ids.map((id) => [code(id), ...graded.map((c) => mark(c, id))]),
        ],
      );
      const examples = graded.flatMap((c) =>
        (c.grade?.rules ?? [])
          .filter((r) => r.status === 'broken' && r.example !== undefined)
          .map((r) => `- ${escapeMd(c.name)}, ${code(r.id)}: ${escapeMd(r.example ?? '')}`),
      );
      return examples.length === 0
        ? cards
        : `${cards}\n\nThe first finding of each broken rule:\n\n${examples.join('\n')}`;
    },
    /** `{{client-mistakes}}`: every mistake the run found, per client: what it means and what to do, with the request as sent. */
    'client-mistakes': () => {
      const found: string[] = [];
      for (const c of matrix.clients) {
        const bad = SCENARIOS.filter((s) => c.scenarios[s] !== 'accepted' && c.scenarios[s] !== 'unsupported');
        const byCode = new Map<string, string[]>();
        for (const s of bad) {
          const o = c.scenarios[s] ?? '';
          const key = codesOf(o).length > 0 ? o : (c.evidence[s]?.signature ?? o);
          byCode.set(key, [...(byCode.get(key) ?? []), s]);
        }
        for (const [key, scenarios] of byCode) {
          const first = scenarios[0] ?? '';
          const ev = c.evidence[first];
          const codes = codesOf(key);
          const note = CLIENT_NOTES[`${c.name}|${key}`];
          const generic = codes.map((k) => `${DOCTOR_SENTENCES[k]} ${DOCTOR_FIXES[k]}`).join(' ');
          const lines = [
            `### ${escapeMd(c.name)}: ${codes.length > 0 ? codes.map((k) => code(k)).join(' + ') : escapeMd(key)}`,
            `Scenarios: ${scenarios.map((s) => code(s)).join(', ')}${c.scenarios[first] !== key ? ` (answered ${cell(c.scenarios[first] ?? '')}: ${escapeMd(ev?.msg ?? '')})` : ''}.`,
            escapeMd(note ?? generic),
          ];
          if (ev !== undefined)
            lines.push(
              `As sent (${code(first)}): query string ${code(ev.query)}, body ${ev.body === '' ? '(none)' : code(ev.body.length > 160 ? `${ev.body.slice(0, 160)}…` : ev.body)}.`,
            );
          found.push(lines.join('\n\n'));
        }
      }
      return found.length === 0 ? 'Every client was accepted in every placement it offers.' : found.join('\n\n');
    },
  };
}
