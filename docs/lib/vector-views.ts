/**
 * Views of the golden vectors for the guides: picking a vector by its flags, a worked
 * signing example with every intermediate value, the time-window boundary table and
 * the table of batch validation cases. The guides show vector values only through
 * these, so they cannot drift from `vectors/`.
 */
import type { OrderVector, SigningVector, TimeWindowVector, VectorBase } from '../../vectors/types.js';
import { code, codeBlock, escapeMd, table } from './markdown.js';

/** How a template names a vector: every listed flag, optionally a result, optionally a tcId. */
export interface VectorQuery {
  /** Flags the vector must all carry. */
  flags?: readonly string[];
  /** Required result. */
  result?: string;
  /** Required tcId (use with flags, so a renumbering is caught). */
  tcId?: number;
  /** Text the vector's comment must contain (case ignored). */
  about?: string;
}

/** True when vector `t` matches the query `q`. */
export function matchesQuery(t: VectorBase, q: VectorQuery): boolean {
  return (
    (q.flags ?? []).every((f) => t.flags.includes(f)) &&
    (q.result === undefined || t.result === q.result) &&
    (q.tcId === undefined || t.tcId === q.tcId) &&
    (q.about === undefined || t.comment.toLowerCase().includes(q.about.toLowerCase()))
  );
}

/** Every vector matching `q`, in file order; throws naming the query when none does. */
export function pickVectors<T extends VectorBase>(tests: readonly T[], q: VectorQuery, file: string): T[] {
  const found = tests.filter((t) => matchesQuery(t, q));
  if (found.length === 0) {
    const more = `${q.result ? `, result ${q.result}` : ''}${q.tcId ? `, tcId ${q.tcId}` : ''}${q.about ? `, comment containing "${q.about}"` : ''}`;
    throw new Error(`no vector in ${file} with flags [${(q.flags ?? []).join(', ')}]${more}`);
  }
  return found;
}

/** The first vector matching `q`; throws naming the query when none does. */
export function pickVector<T extends VectorBase>(tests: readonly T[], q: VectorQuery, file: string): T {
  const [first] = pickVectors(tests, q, file);
  if (first === undefined) throw new Error(`no vector in ${file}`);
  return first;
}

/** Read a `VectorQuery` from template options `flags=A,B result=valid tc=3 about=word` (in `about`, `_` stands for a space). */
export function queryFromOptions(opts: Readonly<Record<string, string>>): VectorQuery {
  const q: VectorQuery = {};
  if (opts.flags !== undefined) q.flags = opts.flags.split(',').filter((f) => f !== '');
  if (opts.result !== undefined) q.result = opts.result;
  if (opts.about !== undefined) q.about = opts.about.replace(/_/g, ' ');
  if (opts.tc !== undefined) {
    const n = Number(opts.tc);
    if (!Number.isInteger(n)) throw new Error(`tc=${opts.tc} is not a tcId`);
    q.tcId = n;
  }
  return q;
}

/** The steps of a signing example, in pipeline order, with their labels. */
export const SIGNING_FIELDS = [
  ['secret', 'secret'],
  ['query', 'query as sent'],
  ['body', 'body as sent'],
  ['queryWithoutSignature', 'queryWithoutSignature'],
  ['signedBody', 'signedBody'],
  ['totalParams', 'totalParams'],
  ['signature', 'signature'],
  ['presentedSignature', 'presented signature'],
] as const;

/** A field of a signing vector that a guide may show. */
export type SigningField = (typeof SIGNING_FIELDS)[number][0];

/** True when `name` is a field a guide may show. */
export function isSigningField(name: string): name is SigningField {
  return SIGNING_FIELDS.some(([f]) => f === name);
}

/** One line saying which vector a worked example is, its verdict and its source. */
export function vectorCaption(v: SigningVector): string {
  const source = v.source === undefined ? '' : ` Source: ${escapeMd(v.source)}.`;
  return `*Golden vector #${v.tcId} of \`vectors/signing.json\` (${v.result}): ${escapeMd(v.comment)}.${source}*`;
}

/**
 * A worked signing example: the request as sent and each intermediate value, each
 * label on its own line above its value (values are long and wrap). `fields` limits the
 * lines shown (default: all but the presented signature, which is shown only when it
 * differs from the correct one).
 */
export function signingExample(v: SigningVector, fields?: readonly SigningField[]): string {
  const chosen =
    fields ??
    SIGNING_FIELDS.map(([f]) => f).filter((f) => f !== 'presentedSignature' || v.presentedSignature !== v.signature);
  const differs = chosen.includes('presentedSignature') && v.presentedSignature !== v.signature;
  const labelOf = (f: SigningField, label: string): string => {
    if (f === 'body') return `${label} (${v.bodyKind})`;
    if (differs && f === 'signature') return 'signature of totalParams (correct)';
    if (differs && f === 'presentedSignature') return 'signature the request carries';
    return label;
  };
  const blocks = SIGNING_FIELDS.filter(([f]) => chosen.includes(f)).map(([f, label]) => {
    const value = v[f];
    return `${labelOf(f, label)}:\n${value === '' ? '(empty)' : value}`;
  });
  return `${vectorCaption(v)}\n\n${codeBlock(blocks.join('\n\n'))}`;
}

/** `serverTime - timestamp` in words: how old (or how far ahead) the request is. */
export function ageText(v: TimeWindowVector): string {
  const age = v.serverTime - v.timestamp;
  if (age === 0) return 'same millisecond';
  return age > 0 ? `${age} ms old` : `${-age} ms ahead`;
}

/**
 * The time-window table of the vectors flagged as given (default `Boundary`): recvWindow,
 * age, verdict and the rule that rejects.
 */
export function timeTable(
  vectors: readonly TimeWindowVector[],
  ruleLink: (id: string) => string,
  flag = 'Boundary',
): string {
  const rows = vectors
    .filter((v) => v.flags.includes(flag))
    .map((v) => [
      `#${v.tcId}`,
      v.recvWindow === undefined ? 'absent (5000)' : String(v.recvWindow),
      `${code(String(v.serverTime - v.timestamp))} (${ageText(v)})`,
      v.result === 'valid' ? '**processed**' : '**rejected**',
      v.ruleId === undefined ? '' : ruleLink(v.ruleId),
    ]);
  if (rows.length === 0) throw new Error(`no time-window vector has the flag ${flag}`);
  return table(['Vector', 'recvWindow', 'serverTime − timestamp', 'Verdict', 'Rejected by'], rows);
}

/** The validation cases of a kind (`batch` or `order`) with a flag, as a table: what, verdict, rules reported. */
export function orderCaseTable(
  vectors: readonly OrderVector[],
  kind: OrderVector['kind'],
  ruleLink: (id: string) => string,
  flag?: string,
): string {
  const rows = vectors
    .filter((v) => v.kind === kind && (flag === undefined || v.flags.includes(flag)))
    .map((v) => [
      `#${v.tcId}`,
      escapeMd(v.comment),
      v.result,
      v.expectedRuleIds.length === 0 ? '' : v.expectedRuleIds.map(ruleLink).join(', '),
    ]);
  if (rows.length === 0) throw new Error(`no ${kind} vector${flag ? ` with the flag ${flag}` : ''}`);
  return table(['Vector', 'Case', 'Result', 'Rules reported'], rows);
}
