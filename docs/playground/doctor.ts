/**
 * The playground's "diagnose this request": the core's signature doctor (§5.3) run on
 * the pasted request with the Web Crypto HMAC, in the page; nothing is sent anywhere and
 * the secret is never shown. Hooked into the playground by one call in `page.ts`.
 */
import { diagnoseAsync, firstDifferenceLines, type Diagnosis } from '../../src/core/doctor/diagnose.js';
import { webCryptoHmac } from '../../src/core/signing/webcrypto.js';
import { resolveBodyKind, type PlaygroundInput } from './signer.js';

/** What the pasted request gets: a diagnosis, `correct`, or `no-signature` when it carries none to judge. */
export type PastedVerdict =
  | { kind: 'diagnosis'; diagnosis: Diagnosis }
  | { kind: 'correct' }
  | { kind: 'no-signature' };

/** What the doctor may also be told: the signature when not inside the query or form body, the API key, the method. */
export interface PastedExtras {
  signature?: string;
  /** The API key sent (API_KEY_AS_SECRET); never shown. */
  apiKey?: string;
  method?: string;
}

/**
 * Diagnose a pasted request. The query field may hold the request target (`/path?query`):
 * the path then lets the doctor see a client that signed it (PATH_SIGNED).
 */
export async function diagnosePasted(
  input: PlaygroundInput & PastedExtras,
  subtle?: SubtleCrypto,
): Promise<PastedVerdict> {
  const target = input.query.startsWith('/') ? input.query : undefined;
  const q = target?.indexOf('?') ?? -1;
  const path = target === undefined ? undefined : q === -1 ? target : target.slice(0, q);
  const query =
    target !== undefined
      ? q === -1
        ? ''
        : target.slice(q + 1)
      : input.query.startsWith('?')
        ? input.query.slice(1)
        : input.query;
  const bodyKind = resolveBodyKind(input.body, input.bodyKind);
  const hasPair = (s: string): boolean => s.split('&').some((p) => p.startsWith('signature='));
  if (input.signature === undefined && !hasPair(query) && !(bodyKind === 'form' && hasPair(input.body)))
    return { kind: 'no-signature' };
  const d = await diagnoseAsync(
    {
      query,
      body: input.body,
      bodyKind,
      ...(input.signature !== undefined ? { signature: input.signature } : {}),
      ...(path !== undefined && path !== '' ? { path } : {}),
      ...(input.method !== undefined ? { method: input.method } : {}),
      ...(input.apiKey !== undefined && input.apiKey !== '' ? { apiKey: input.apiKey } : {}),
    },
    input.secret,
    (secret, message) => webCryptoHmac(secret, message, subtle),
  );
  return d === null ? { kind: 'correct' } : { kind: 'diagnosis', diagnosis: d };
}

/** The lines the page shows for a verdict (code and sentence first). */
export function verdictLines(v: PastedVerdict): string[] {
  if (v.kind === 'no-signature') return ['The pasted request carries no signature parameter: nothing to diagnose.'];
  if (v.kind === 'correct') return ['The signature is correct for this request: nothing to diagnose.'];
  const d = v.diagnosis;
  const lines = [
    `${d.code}${d.also === undefined ? '' : ` + ${d.also.join(' + ')}`}: ${d.sentence}`,
    `server signed: ${d.serverSigned}`,
  ];
  if (d.clientSigned !== undefined) lines.push(`client signed: ${d.clientSigned}`);
  if (d.firstDifference !== undefined) lines.push(...firstDifferenceLines(d.firstDifference));
  return lines;
}

/**
 * Wire `#sc-diagnose` (button) and `#sc-diagnosis` (output) inside `root`; `read` gives
 * the form's current request. The output's `data-code` holds the code (`OK`, `NONE`).
 * Does nothing on a page without them.
 */
export function startDoctor(root: HTMLElement, read: () => PlaygroundInput): void {
  const button = root.querySelector('#sc-diagnose');
  const out = root.querySelector('#sc-diagnosis');
  if (!(button instanceof HTMLButtonElement) || !(out instanceof HTMLElement)) return;
  let seq = 0;
  button.addEventListener('click', () => {
    const mine = ++seq;
    out.dataset.seq = String(mine);
    diagnosePasted(read())
      .then((v) => {
        if (mine !== seq) return;
        out.textContent = verdictLines(v).join('\n');
        out.dataset.code = v.kind === 'diagnosis' ? v.diagnosis.code : v.kind === 'correct' ? 'OK' : 'NONE';
      })
      .catch((err: unknown) => {
        if (mine === seq) out.textContent = `Could not diagnose: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => {
        if (mine === seq) out.dataset.done = String(mine);
      });
  });
}
