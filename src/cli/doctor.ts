/**
 * `spotcheck doctor`: say why a request's signature is rejected (§5.3) by trying the
 * known client mistakes. The secret is never printed.
 */
import { SpotcheckError } from '../core/errors.js';
import { guessBodyKind, type BodyKind } from '../core/signing/total-params.js';
import { sign } from '../signing/hmac.js';
import { diagnose, firstDifferenceLines } from '../core/doctor/diagnose.js';
import { credential, parse, type Io } from './args.js';

export const DOCTOR_HELP = `Usage: spotcheck doctor --secret S --url URL [--body B] [--body-kind K] [--signature SIG] [--api-key K] [--json]

Names the signing mistake that explains a rejected signature (seed §5.3).

Options:
  --secret S        the secret key (or set SPOTCHECK_SECRET); never printed
  --api-key K       the API key sent (or set SPOTCHECK_API_KEY); optional, lets the doctor
                    see an HMAC keyed with the API key (API_KEY_AS_SECRET); never printed
  --method M        HTTP method as sent (default POST); with the path, lets the doctor see
                    a client that signed method and path (PATH_SIGNED)
  --url URL         path with query string as sent, e.g. /api/v1/order?symbol=...&signature=...
  --body B          raw body text as sent
  --body-kind K     form | json | none (default: guessed from the body)
  --signature SIG   the signature sent, when not inside the URL or form body
  --timestamp T     another timestamp value the client may have signed (repeatable)
  --json            print the diagnosis as JSON
  -h, --help        this text
`;

const KINDS: readonly BodyKind[] = ['form', 'json', 'none'];

/** Path and raw query of `--url`: a path with `?query`, a whole URL, or a bare query string. */
export function splitUrl(url: string): { path: string; query: string } {
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '');
  const q = target.indexOf('?');
  if (q !== -1) return { path: target.slice(0, q), query: target.slice(q + 1) };
  return target.startsWith('/') ? { path: target, query: '' } : { path: '', query: target.includes('=') ? target : '' };
}

export function doctorCommand(argv: string[], io: Io): number {
  const { values } = parse(
    {
      args: argv,
      strict: true,
      options: {
        secret: { type: 'string' },
        'api-key': { type: 'string' },
        method: { type: 'string' },
        url: { type: 'string' },
        body: { type: 'string', default: '' },
        'body-kind': { type: 'string' },
        signature: { type: 'string' },
        timestamp: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'doctor',
  );
  if (values.help) {
    io.out(DOCTOR_HELP);
    return 0;
  }
  const secret = credential(values.secret, 'SPOTCHECK_SECRET', io.env);
  if (secret === undefined)
    throw new SpotcheckError('ERR_USAGE', 'doctor: a secret is needed: pass --secret S or set SPOTCHECK_SECRET');
  if (values.url === undefined)
    throw new SpotcheckError(
      'ERR_USAGE',
      "doctor: --url is needed: the path and query string exactly as sent, e.g. --url '/api/v1/order?symbol=BTCUSDT&timestamp=1&signature=...' (parameters sent in a form body: --url /api/v1/order --body '...')\nRun `spotcheck doctor --help` for usage.",
    );
  const kindFlag = values['body-kind'];
  if (kindFlag !== undefined && !KINDS.includes(kindFlag as BodyKind)) {
    throw new SpotcheckError('ERR_USAGE', `doctor: --body-kind must be one of ${KINDS.join(', ')}`);
  }
  const kind = (kindFlag as BodyKind | undefined) ?? guessBodyKind(values.body);
  const { path, query } = splitUrl(values.url);
  const apiKey = credential(values['api-key'], 'SPOTCHECK_API_KEY', io.env);
  const d = diagnose(
    {
      query,
      body: values.body,
      bodyKind: kind,
      ...(values.signature !== undefined ? { signature: values.signature } : {}),
      ...(values.timestamp !== undefined ? { otherTimestamps: values.timestamp } : {}),
      ...(path !== '' ? { path } : {}),
      ...(values.method !== undefined ? { method: values.method } : {}),
      ...(apiKey !== undefined ? { apiKey } : {}),
    },
    secret,
    sign,
  );
  if (values.json) {
    io.out(`${JSON.stringify(d ?? { code: 'OK' }, null, 2)}\n`);
    return d === null ? 0 : 1;
  }
  if (d === null) {
    io.out('The signature is correct for this request.\n');
    return 0;
  }
  const lines = [
    `${d.code}${d.also === undefined ? '' : ` + ${d.also.join(' + ')}`}: ${d.sentence}`,
    `server signed: ${d.serverSigned}`,
  ];
  if (d.clientSigned !== undefined) lines.push(`client signed: ${d.clientSigned}`);
  if (d.firstDifference !== undefined) lines.push(...firstDifferenceLines(d.firstDifference));
  io.out(`${lines.join('\n')}\n`);
  return 1;
}
