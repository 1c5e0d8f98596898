/**
 * `spotcheck grade`: serve (the reference server, or a recording front before `--upstream`)
 * and grade every signed request a client sends, per rule a client must keep (§2.1, §4.1,
 * §5.2-§5.4, §8), until SIGINT/SIGTERM or `--duration`; then write the reports.
 * Exit 0 when every exercised rule and scenario was kept, 1 otherwise, 2 for a usage error.
 */
import { credential, parse, type Io } from '../../src/cli/args.js';
import { kitVersion } from '../../src/paths.js';
import { LISTEN_OPTIONS, waitForStop } from '../../src/cli/serve.js';
import { SpotcheckError } from '../../src/core/errors.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../../src/server/credentials.js';
import { assertWritable, writeReportFile } from '../report/files.js';
import { startGrade } from './front.js';
import { renderGradeHtml } from './html.js';
import { buildGradeReport, gradeExitCode, renderGradeConsole, renderGradeJunit } from './report.js';
import { SCENARIO_HEADER, scenarioList } from './scenarios.js';
import { API_KEY_HEADER, ENDPOINT_NAMES } from '../../src/core/wire.js';
import { loadDescription, resolveDescription, type TargetDescription } from '../target/description.js';
import { wireOfProfile } from '../load/flags.js';

/** Usage text of `spotcheck grade`. */
export const GRADE_HELP = `Usage: spotcheck grade [--port N] [--api-key K --secret S] [--upstream URL] [--duration S]
                      [--config FILE] [--api-key-header NAME] [--path-prefix PATH]
                      [--report-json F] [--report-html F] [--junit F] [--hold S]
                      [--recv-window-cap MS]
       spotcheck grade --scenarios [--config FILE] [--api-key-header NAME] [--path-prefix PATH]

Grades your client: serves the seed's endpoints (or those of a target description) and grades every signed request that
arrives, per rule a client must keep: the API-key header, the signature over the bytes
as sent (with the doctor's diagnosis when wrong), the placement, percent and form
encoding, Content-Type, the timestamp against the server clock, recvWindow of 5000 or
less, a retry re-signed with a fresh timestamp (a byte-identical replay is a finding),
client order ids unique and within 255 characters, batches of at most 20 orders of one
symbol, decimals in plain notation. Point your client at the printed URL, run it, then
stop grade (Ctrl-C) or let --duration end it.

Options:
  --port N          TCP port (default 0: a free port, printed)
  --host H          interface (default 127.0.0.1, loopback only)
  --api-key K       the API key your client sends (or set SPOTCHECK_API_KEY)
  --secret S        its secret (or set SPOTCHECK_SECRET); held in memory, never written
  --upstream URL    forward every request unchanged to your own server and grade on the
                    way (default: the embedded reference server answers); scenario cues
                    are answered by the grading server, their follow-ups by yours (on
                    its own clock: after clock-jump it refuses a client that followed)
  --config FILE     a target description (spotcheck init): the API-key header name, a
                    path prefix or each endpoint's path are graded and served as it says
  --api-key-header NAME
                    the API-key header name (default ${API_KEY_HEADER}; over --config)
  --path-prefix PATH
                    prepended to every endpoint path (e.g. /gateway; over --config)
  --duration S      stop after S seconds (default: until SIGINT or SIGTERM)
  --report-json F   write the grade as JSON (schema: conformance/grade/grade.schema.json)
  --report-html F   write the grade as one self-contained HTML page
  --junit F         write JUnit XML: one testcase per rule and per scenario run
  --hold S          how long the slow-answer scenario holds its answer (default 30)
  --recv-window-cap MS
                    the largest recvWindow your server accepts: a larger one is a
                    finding too (beside the seed's recommended 5000)
  --scenarios       list the scenarios and how a client selects one, then exit
  -h, --help        this text

Scenarios: send the header ${SCENARIO_HEADER}: <name>, or a newClientOrderId starting
with <name>. (e.g. rate-limit-429.order-1), and the server plays its side on cue (a 429
with Retry-After, a 5xx, a held answer, a time refusal, a clock jump, a failing batch
entry); the report says whether the client retried, re-signed, backed off or gave up.

Credentials come from the flags, else SPOTCHECK_API_KEY and SPOTCHECK_SECRET, else the
documented demo keys (spotcheck-demo-key / spotcheck-demo-secret), as for \`spotcheck serve\`.

Exit: 0 every exercised rule and scenario kept; 1 a rule broken, or no signed request
arrived; 2 usage error.
`;

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0 && n <= 86_400))
    throw new SpotcheckError(
      'ERR_USAGE',
      `grade: --duration must be a number of seconds from 0 to 86400, got ${JSON.stringify(text)}`,
    );
  return n;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535))
    throw new SpotcheckError(
      'ERR_USAGE',
      `grade: --port must be a whole number from 0 to 65535, got ${JSON.stringify(text)}`,
    );
  return port;
}

function parseUpstream(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new SpotcheckError(
      'ERR_USAGE',
      `grade: --upstream must be an http:// or https:// URL, got ${JSON.stringify(text)}`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new SpotcheckError(
      'ERR_USAGE',
      `grade: --upstream must be an http:// or https:// URL, got ${JSON.stringify(text)}`,
    );
  return text.replace(/\/+$/, '');
}

/** Run `grade` until `stop` resolves (default: SIGINT, SIGTERM) or --duration passes. */
export async function gradeCommand(argv: string[], io: Io, stop: () => Promise<string> = waitForStop): Promise<number> {
  const { values } = parse(
    {
      args: argv,
      strict: true,
      options: {
        ...LISTEN_OPTIONS,
        upstream: { type: 'string' },
        duration: { type: 'string' },
        'report-json': { type: 'string' },
        'report-html': { type: 'string' },
        junit: { type: 'string' },
        hold: { type: 'string' },
        'recv-window-cap': { type: 'string' },
        config: { type: 'string' },
        'api-key-header': { type: 'string' },
        'path-prefix': { type: 'string' },
        scenarios: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'grade',
  );
  if (values.help) {
    io.out(GRADE_HELP);
    return 0;
  }
  // The wire graded: a target description, then the flags over it; what neither says is the seed's.
  const description: TargetDescription = values.config === undefined ? {} : loadDescription(values.config);
  if (values['api-key-header'] !== undefined) description.apiKeyHeader = values['api-key-header'];
  if (values['path-prefix'] !== undefined) description.pathPrefix = values['path-prefix'];
  const wire = wireOfProfile(resolveDescription(description));
  if (values.scenarios) {
    io.out(scenarioList(wire));
    return 0;
  }
  const port = parsePort(values.port);
  const duration = parseDuration(values.duration);
  const hold = values.hold === undefined ? 30 : parseDuration(values.hold);
  const upstream = parseUpstream(values.upstream);
  const capText = values['recv-window-cap'];
  if (capText !== undefined && !/^[1-9][0-9]{0,8}$/.test(capText))
    throw new SpotcheckError(
      'ERR_USAGE',
      `grade: --recv-window-cap must be a whole number of milliseconds, got ${JSON.stringify(capText)}`,
    );
  const recvWindowCap = capText === undefined ? undefined : Number(capText);
  const flagKey = credential(values['api-key'], 'SPOTCHECK_API_KEY', io.env);
  const flagSecret = credential(values.secret, 'SPOTCHECK_SECRET', io.env);
  if ((flagKey === undefined) !== (flagSecret === undefined))
    throw new SpotcheckError(
      'ERR_USAGE',
      'grade: give both an API key and a secret (--api-key K --secret S, or SPOTCHECK_API_KEY and SPOTCHECK_SECRET), or neither for the demo keys',
    );
  const apiKey = flagKey ?? DEMO_API_KEY;
  const secret = flagSecret ?? DEMO_SECRET;
  for (const [flag, path] of [
    ['report-json', values['report-json']],
    ['report-html', values['report-html']],
    ['junit', values.junit],
  ] as const)
    if (path !== undefined) assertWritable(flag, path);

  const grade = await startGrade({
    port,
    host: values.host,
    apiKey,
    secret,
    ...(upstream !== undefined ? { upstream } : {}),
    holdMs: (hold ?? 30) * 1000,
    wire,
    ...(recvWindowCap !== undefined ? { recvWindowCap } : {}),
    onGraded: (g) => {
      const broken = g.results.filter((x) => !x.kept).map((x) => x.rule);
      const key = g.clientOrderIds[0] ?? `#${g.request.seq}`;
      io.err(
        `#${g.request.seq} ${key} ${g.request.method} ${g.request.path}: ${broken.length === 0 ? 'kept' : `BROKEN ${[...new Set(broken)].join(', ')}`}${g.scenario ? ` [${g.scenario.name} ${g.scenario.role}]` : ''}\n`,
      );
    },
  });
  const answeredBy = upstream ?? 'the embedded reference server';
  io.out(
    `spotcheck grade listening on ${grade.url}\nanswered by ${answeredBy}\ngrading: API-key header ${wire.apiKeyHeader}; ${ENDPOINT_NAMES.map((n) => wire.endpoints[n].path).join(', ')}\napi key: ${apiKey}${flagKey === undefined ? ' (documented demo key, secret spotcheck-demo-secret)' : ''}\n${duration !== undefined ? `stops after ${duration} s` : 'stop with Ctrl-C (SIGINT) or SIGTERM'}; scenarios: spotcheck grade --scenarios\n`,
  );
  if (!['127.0.0.1', '::1', 'localhost'].includes(values.host))
    io.err(`warning: listening on ${values.host}, not only on loopback\n`);
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    stop(),
    ...(duration !== undefined
      ? [
          new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve(`--duration ${duration} s`), duration * 1000);
          }),
        ]
      : []),
  ]);
  if (timer !== undefined) clearTimeout(timer);
  io.err(`${ended}: stopping\n`);
  await grade.close();
  const report = buildGradeReport(
    grade.session,
    { version: kitVersion() ?? 'unknown', url: grade.url, upstream: answeredBy, ungraded: grade.ungraded() },
    secret,
    apiKey,
  );
  if (values['report-json'] !== undefined)
    writeReportFile('report-json', values['report-json'], `${JSON.stringify(report, null, 2)}\n`);
  if (values['report-html'] !== undefined)
    writeReportFile('report-html', values['report-html'], renderGradeHtml(report));
  if (values.junit !== undefined) writeReportFile('junit', values.junit, renderGradeJunit(report));
  io.out(renderGradeConsole(report));
  return gradeExitCode(report);
}
