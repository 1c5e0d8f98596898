/**
 * The helpers of the guide "Why is my signature rejected?": every code of the signature
 * doctor (§5.3) with its sentence, its fix and a worked example from the doctor's golden
 * vectors, the diagnosis computed by the kit's own doctor when the site is built.
 */
import { diagnose, DOCTOR_CODES, DOCTOR_SENTENCES, type DoctorCode } from '../../src/core/doctor/diagnose.js';
import { sign } from '../../src/signing/hmac.js';
import type { DoctorVector, DoctorVectorFile } from '../../vectors/types.js';
import { code, codeBlock, escapeMd, table } from './markdown.js';
import type { Helpers } from './template.js';

/** What to change in the client, per code (the docs' own words). */
export const DOCTOR_FIXES: Readonly<Record<DoctorCode, string>> = {
  BODY_NOT_SIGNED:
    'Sign the query string directly followed by the body as sent; for the batch endpoint that is the raw JSON text, byte for byte.',
  QUERY_NOT_SIGNED: 'Put the query string (without its `signature` pair) first, then the body.',
  SEPARATOR_INSERTED: 'Join query string and body with nothing between them: no `&`, no `?`, no newline.',
  SIGNATURE_PARAM_SIGNED:
    'Build the string to sign without any `signature` pair (not even an empty one), then append `signature=` with the result.',
  PARAMS_REORDERED:
    'Sign the parameters in exactly the order they are sent: do not sort them, and keep the query string before the body.',
  SIGNED_BEFORE_ENCODING: 'Percent-encode the values first, then sign the encoded text that goes on the wire.',
  ENCODING_MISMATCH:
    'Encode once and use that same text for signing and for sending; do not let the HTTP library re-encode it (pass the finished query string to it, or sign the text it produces).',
  JSON_RESERIALISED:
    'Serialise the JSON body once, sign that text and send that same text (no pretty-printing or re-serialising in between).',
  OTHER_TIMESTAMP: 'Read the time once and use that one value both in the signed text and in the request.',
  SPACE_SIGNED_AS_PLUS:
    'Sign the query string or form body your HTTP library actually sends: encode spaces one way (`%20`) for both, or build the body text yourself, sign it and send it unchanged.',
  LOWERCASE_ESCAPES_SIGNED:
    'Sign the same escapes you send: upper-case them before signing (`%2C`), or send the lower-case text you signed (.NET: `Uri.EscapeDataString` instead of `HttpUtility.UrlEncode`).',
  SIGNED_DOUBLE_ENCODED:
    'Percent-encode each name and value once; sign the text that goes on the wire, not an encoding of it.',
  JSON_SIGNED_WITH_SPACES:
    "Serialise the body once and sign and send that same text: in Python `json.dumps(orders, separators=(',', ':'))` and send it with `data=`, not `json=`.",
  JSON_KEYS_SORTED:
    'Serialise the body once, in the order you send it, and sign that text (no `sort_keys=True`, no re-encoding of a map in between).',
  PATH_SIGNED:
    'Sign only the query string followed by the body: no method, no path, no `?` in front (this API is not signed like venues that sign `method + path`).',
  SIGNATURE_BASE64:
    "Write the HMAC-SHA256 digest as 64 hexadecimal digits (`digest('hex')`, `hexdigest()`), not base64.",
  API_KEY_AS_SECRET:
    "Key the HMAC with the secret key; the API key only goes in the API key header (check the two are not swapped in your client's constructor).",
  UNKNOWN:
    'Check the secret belongs to the API key sent, then compare your signed string with the server string shown, character by character.',
};

/** The first doctor vector naming `c`, throwing when the file has none (a code without an example). */
function vectorOf(file: DoctorVectorFile, c: DoctorCode): DoctorVector {
  const v = file.tests.find((t) => t.code === c);
  if (v === undefined) throw new Error(`vectors/doctor.json has no vector with code ${c}`);
  return v;
}

/** The `spotcheck doctor` command that diagnoses vector `v` (its secret is a documented test value). */
function doctorCommand(v: DoctorVector): string {
  const sigInUrl = v.query.split('&').some((p) => p.startsWith('signature='));
  const parts = [
    `SPOTCHECK_SECRET='${v.secret}' spotcheck doctor`,
    `--method ${v.method}`,
    `--url '${v.path}?${v.query}'`,
  ];
  if (v.code === 'API_KEY_AS_SECRET') parts.push(`--api-key '${v.apiKey}'`);
  if (v.body !== '') parts.push(`--body '${v.body}'`, `--body-kind ${v.bodyKind}`);
  if (!sigInUrl) parts.push(`--signature ${v.signature}`);
  for (const t of v.otherTimestamps ?? []) parts.push(`--timestamp ${t}`);
  return parts.join(' \\\n  ');
}

/** One worked example: the request as sent, the command, and the diagnosis the kit computes. */
function example(v: DoctorVector): string {
  const d = diagnose(
    {
      query: v.query,
      body: v.body,
      bodyKind: v.bodyKind,
      signature: v.signature,
      method: v.method,
      path: v.path,
      apiKey: v.apiKey,
      ...(v.otherTimestamps ? { otherTimestamps: v.otherTimestamps } : {}),
    },
    v.secret,
    sign,
  );
  if ((d?.code ?? 'OK') !== v.code)
    throw new Error(`doctor vector #${v.tcId} is diagnosed ${d?.code ?? 'OK'}, not ${v.code}`);
  return [
    `Doctor vector #${v.tcId} of \`vectors/doctor.json\`: ${escapeMd(v.comment)}. Query string ${code(v.query)}, body ${code(v.body)} (${v.bodyKind}).`,
    codeBlock(doctorCommand(v), 'sh'),
    'The `diagnosis` (printed by `spotcheck doctor --json`, carried by the rejection of `spotcheck serve --explain`):',
    codeBlock(JSON.stringify(d, null, 2), 'json'),
  ].join('\n\n');
}

/** The helpers over the doctor vectors. */
export function doctorHelpers(file: DoctorVectorFile): Helpers {
  return {
    /** `{{doctor-codes}}`: every code with what the client did and the fix, as a table. */
    'doctor-codes': () =>
      table(
        ['Code', 'What the client did', 'Fix'],
        DOCTOR_CODES.map((c) => [code(c), escapeMd(DOCTOR_SENTENCES[c]), escapeMd(DOCTOR_FIXES[c])]),
      ),
    /** `{{doctor-examples}}`: one section per code with a worked example from the vectors. */
    'doctor-examples': () =>
      DOCTOR_CODES.map((c) => `### ${c}\n\n${escapeMd(DOCTOR_FIXES[c])}\n\n${example(vectorOf(file, c))}`).join('\n\n'),
    /** `{{doctor-count}}`: number of doctor vectors. */
    'doctor-count': () => String(file.tests.length),
  };
}
