/**
 * `spotcheck sign`: print each intermediate value of a signature (§5.3) for an
 * integrator checking their own signer. The secret is never printed.
 */
import { SpotcheckError } from '../core/errors.js';
import { guessBodyKind, signingSteps } from '../core/signing/total-params.js';
import { sign } from '../signing/hmac.js';
import { credential, parse, type Io } from './args.js';

export const SIGN_HELP = `Usage: spotcheck sign --secret S [--query Q] [--body B] [--json]

Prints each step of the request signature (seed §5.3):
  query without signature   the query string as sent, minus its signature pair
  body                      the body as sent (a form body minus its signature pair)
  totalParams               query immediately followed by body, nothing between
  signature                 lower-case hex HMAC-SHA256 of totalParams

Options:
  --secret S   the secret key (or set SPOTCHECK_SECRET); never printed
  --query Q    raw query string, without the leading '?'
  --body B     raw body text; a body starting with '[' or '{' is taken as JSON
               (signed as is), anything else as a form body
  --json       print the steps as one JSON object
  -h, --help   this text
`;

export function signCommand(argv: string[], io: Io): number {
  const { values } = parse(
    {
      args: argv,
      strict: true,
      options: {
        secret: { type: 'string' },
        query: { type: 'string', default: '' },
        body: { type: 'string', default: '' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'sign',
  );
  if (values.help) {
    io.out(SIGN_HELP);
    return 0;
  }
  const secret = credential(values.secret, 'SPOTCHECK_SECRET', io.env);
  if (secret === undefined) {
    throw new SpotcheckError('ERR_USAGE', 'sign: a secret is needed: pass --secret S or set SPOTCHECK_SECRET');
  }
  const query = values.query.startsWith('?') ? values.query.slice(1) : values.query;
  const body = values.body;
  const kind = guessBodyKind(body);
  const steps = signingSteps(query, body, kind);
  const signature = sign(secret, steps.totalParams);
  if (values.json) {
    io.out(`${JSON.stringify({ ...steps, bodyKind: kind, signature }, null, 2)}\n`);
  } else {
    io.out(
      [
        `query without signature: ${steps.queryWithoutSignature}`,
        `${`body (${kind}):`.padEnd(25)}${steps.body}`,
        `totalParams:             ${steps.totalParams}`,
        `signature:               ${signature}`,
        '',
      ].join('\n'),
    );
  }
  return 0;
}
