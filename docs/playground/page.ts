/**
 * The signing playground page: wires the form of `docs/guides/playground.md` to
 * `signer.ts`. Loaded by the site's `custom.js` only on the page holding
 * `#sc-playground`; everything runs in the page, nothing is sent anywhere.
 */
import type { SigningVector, SigningVectorFile } from '../../vectors/types.js';
import { checkGoldenVectors, computeSignature, type BodyKindChoice, type PlaygroundResult } from './signer.js';
import { startDoctor } from './doctor.js';

/** The element with this id inside `root`, of the given type; throws when the page lacks it. */
function el<T extends HTMLElement>(root: HTMLElement, id: string, type: new () => T): T {
  const found = root.querySelector(`#${id}`);
  if (!(found instanceof type)) throw new Error(`signing playground: #${id} is missing from the page`);
  return found;
}

/** Fill one output with text, showing an empty value as such. */
function show(out: HTMLElement, text: string): void {
  out.classList.toggle('sc-empty', text === '');
  out.textContent = text === '' ? '(empty)' : text;
}

/** The totalParams output with the query part and the body part told apart, so the join is visible. */
function showTotal(out: HTMLElement, r: PlaygroundResult): void {
  out.replaceChildren();
  const part = (cls: string, text: string, title: string) => {
    const span = out.ownerDocument.createElement('span');
    span.className = cls;
    span.title = title;
    span.textContent = text;
    out.append(span);
  };
  if (r.totalParams === '') {
    show(out, '');
    return;
  }
  out.classList.remove('sc-empty');
  part('sc-part-query', r.queryWithoutSignature, 'from the query string');
  part('sc-part-body', r.body, 'from the body');
}

/**
 * Start the playground inside `root` with the embedded golden vectors: fill the vector
 * picker, run every vector once and report N/N, and compute on every change.
 */
export async function start(root: HTMLElement, golden: SigningVectorFile): Promise<void> {
  const query = el(root, 'sc-query', HTMLTextAreaElement);
  const body = el(root, 'sc-body', HTMLTextAreaElement);
  const secret = el(root, 'sc-secret', HTMLInputElement);
  const kind = el(root, 'sc-body-kind', HTMLSelectElement);
  const picker = el(root, 'sc-vector', HTMLSelectElement);
  const compute = el(root, 'sc-compute', HTMLButtonElement);
  const error = el(root, 'sc-error', HTMLElement);
  const outs = {
    kind: el(root, 'sc-out-kind', HTMLElement),
    query: el(root, 'sc-out-query', HTMLElement),
    body: el(root, 'sc-out-body', HTMLElement),
    total: el(root, 'sc-out-total', HTMLElement),
    signature: el(root, 'sc-out-signature', HTMLElement),
    presented: el(root, 'sc-out-presented', HTMLElement),
  };
  const goldenResult = el(root, 'sc-golden-result', HTMLElement);
  const goldenList = el(root, 'sc-golden-mismatches', HTMLElement);
  const checkAll = el(root, 'sc-check-golden', HTMLButtonElement);

  if (globalThis.crypto?.subtle === undefined) {
    error.textContent =
      'Web Crypto is not available here: open this page over https or from http://127.0.0.1 / localhost.';
    return;
  }

  let seq = 0;
  const run = async (): Promise<void> => {
    const mine = ++seq;
    root.dataset.seq = String(mine);
    try {
      const r = await computeSignature({
        query: query.value,
        body: body.value,
        secret: secret.value,
        bodyKind: kind.value as BodyKindChoice,
      });
      if (mine !== seq) return;
      error.textContent = '';
      show(outs.kind, r.bodyKind);
      show(outs.query, r.queryWithoutSignature);
      show(outs.body, r.body);
      showTotal(outs.total, r);
      show(outs.signature, r.signature);
      show(
        outs.presented,
        r.presentedMatches === undefined
          ? 'no signature parameter in the pasted request'
          : r.presentedMatches
            ? 'the signature in the pasted request matches (case ignored)'
            : `the signature in the pasted request (${r.presented.join(', ')}) does not match`,
      );
      outs.presented.dataset.match = String(r.presentedMatches ?? 'none');
    } catch (err) {
      if (mine === seq) error.textContent = `Could not compute: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      if (mine === seq) root.dataset.done = String(mine);
    }
  };

  const byId = new Map<string, SigningVector>();
  for (const v of golden.tests) {
    byId.set(String(v.tcId), v);
    const opt = root.ownerDocument.createElement('option');
    opt.value = String(v.tcId);
    opt.textContent = `#${v.tcId} (${v.result}): ${v.comment}`;
    picker.append(opt);
  }
  picker.addEventListener('change', () => {
    const v = byId.get(picker.value);
    if (v === undefined) return;
    query.value = v.query;
    body.value = v.body;
    secret.value = v.secret;
    kind.value = v.bodyKind;
    void run();
  });
  for (const input of [query, body, secret]) input.addEventListener('input', () => void run());
  kind.addEventListener('change', () => void run());
  compute.addEventListener('click', () => void run());
  startDoctor(root, () => ({
    query: query.value,
    body: body.value,
    secret: secret.value,
    bodyKind: kind.value as BodyKindChoice,
  }));

  const verify = async (): Promise<void> => {
    goldenResult.textContent = 'Checking the golden vectors…';
    const check = await checkGoldenVectors(golden.tests);
    goldenResult.dataset.passed = String(check.passed);
    goldenResult.dataset.total = String(check.total);
    goldenResult.textContent = `${check.passed}/${check.total} golden signing vectors reproduced in this browser${check.passed === check.total ? '.' : ': see below.'}`;
    goldenResult.classList.toggle('sc-bad', check.passed !== check.total);
    goldenList.replaceChildren(
      ...check.mismatches.map((m) => {
        const li = root.ownerDocument.createElement('li');
        li.textContent = `#${m.tcId} ${m.comment}: ${m.step} expected ${m.expected}, got ${m.actual}`;
        return li;
      }),
    );
  };
  checkAll.addEventListener('click', () => void verify());
  await verify();
  await run();
}
