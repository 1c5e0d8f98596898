/**
 * The helpers of the guide "Why is my signature rejected?": every code of the signature
 * doctor (§5.3) with its sentence, its fix and a worked example from the doctor's golden
 * vectors, the diagnosis computed by the kit's own doctor when the site is built.
 */
import {
  diagnose,
  DOCTOR_CODES,
  DOCTOR_FIXES,
  DOCTOR_SENTENCES,
  type DoctorCode,
} from '../../src/core/doctor/diagnose.js';
import { sign } from '../../src/signing/hmac.js';
import type { DoctorVector, DoctorVectorFile } from '../../vectors/types.js';
import { code, codeBlock, escapeMd, table } from './markdown.js';
import type { Helpers } from './template.js';

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
