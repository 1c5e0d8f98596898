/**
 * The check model of the conformance runner: every check names its rule (catalog
 * ID), level and the seed sentence it enforces.
 */
import type { RuleLevel } from '../../src/rules.js';
import type { RuleFamily } from '../../src/core/rule-id.js';
import type { RuleId } from '../../src/core/rule-id.js';
import type { Answered, Exchange, RateLimitStats, SendResult, Silence } from '../engine/transport.js';
import type { ControlState } from './verdict.js';
import type { TargetProfile } from '../target/description.js';
import type { CoverageMatrix } from './coverage.js';

import type { ClockEstimate } from '../engine/clock.js';
import type { Cause } from './verdict.js';
import type { CheckOutcome, ExchangeVerdict, Expectation, FormFailure, RouteCell } from './verdict.js';
import type { RawRequest } from '../../src/client/http.js';
import type { SigningFacts } from '../engine/requests.js';
import type { TimeProbe, TrafficReport } from '../engine/traffic.js';
import type { Built, RequestFactory, RouteKey } from '../engine/requests.js';

/** The discovery section of the report. */
export interface DiscoveryReport {
  controls: Array<{ route: string; state: ControlState; observed: string }>;
  fingerprints: { signature?: string; unknownKey?: string; stale?: string; missing?: string[] };
  /** Refusals valid orders met during the run, by route, each said to be the account's (a control pair showed it) or not shown to be. */
  learned?: Array<{ route: string; refusal: string }>;
}

/** How strictly a run judges (`--profile`): `core` is lenient (fails a server only where every reading of the seed agrees); `reference` also pins spec/decisions.md. Not the target's profile (target/description.ts TargetProfile) nor its wire (WireProfile). */
export type Strictness = 'core' | 'reference';

/** The server under test. */
export interface Target {
  baseUrl: string;
  apiKey: string;
  secret: string;
  /** Symbol orders are placed on (default BTCUSDT). */
  symbol: string;
  /** A second symbol for the mixed-symbol check. */
  otherSymbol: string;
  /** Optional key without the TRADE permission (§5.1), for AUTH-PERMISSION. */
  noTradeKey?: { apiKey: string; secret: string };
  /** Optional path of a server-time endpoint (`--time-path`), answering `{"serverTime": ms}`. */
  timePath?: string;
  /** The target description with the seed's defaults filled in (header, paths, placements, order values). */
  profile?: TargetProfile;
}

/** `inconclusive`: no request of the check demonstrably reached the rule; never counted as passed or failed. */
export type CheckStatus = 'pass' | 'fail' | 'info' | 'skip' | 'inconclusive';

/** An answer as a check sees it: `expect` states what the probe expects (recorded as evidence by the run's session) and gives the verdict with what the run knows now. */
export interface Probed extends SendResult {
  expect?: (expectation: Expectation) => ExchangeVerdict;
}

/** A check's sender (conformance/engine/session.ts): like the transport's, its answers carry `expect`. */
export type CheckSender = (request: RawRequest, facts?: SigningFacts, rebuild?: () => Built) => Promise<Probed>;

/** An accepted answer of the run, with the check that sent it. */
export interface AcceptedAnswer {
  check: string;
  exchange: Exchange;
}

/** Everything a check may use. */
export interface CheckContext {
  target: Target;
  profile: Strictness;
  /** Seed of this run (fast-check and every random choice). */
  seed: number;
  /** Generated cases per property. */
  runs: number;
  /** The run's sender: the session records each answer as this check's evidence (conformance/engine/session.ts). */
  send: CheckSender;
  requests: RequestFactory;
  /** The measured server clock (offset and uncertainty), or why it could not be measured. */
  clock: ClockEstimate;
  /** A fresh newClientOrderId, unique within the run. */
  clientId: () => string;
  /** Round-trip time of the slowest clock probe, ms (sizes time-window probe margins). */
  maxRttMs: number;
  /** Minimum spacing between requests, ms (the --rate limit; 0 when unlimited). */
  requestSpacingMs: number;
  /**
   * Send a probe once for the whole run (no duplicate probes across checks): the
   * first check asking for `key` sends what `make` builds, every other one judges the same
   * answer (counted toward its own verdict) and gets the same `carry` (e.g. the orders sent).
   */
  shared?: <T>(key: string, make: () => { built: Built; carry: T }) => Promise<{ result: SendResult; carry: T }>;
  /** Requests this check may keep in flight at once across independent probes (1: one at a time). */
  parallel?: number;
  /** Orders this check has placed so far (its share of --max-orders is enforced per request). */
  ordersPlaced?: () => number;
  /** Requests of the run so far that timed out, and the first of them. */
  timeouts(): { count: number; first?: Exchange };
  /** Every accepted answer the checks of the run got so far (the run-wide invariants read them after the other checks). */
  answers?: () => readonly AcceptedAnswer[];
  /** Every answered exchange of the run so far, with when it was sent and answered. */
  answered(): readonly Answered[];
  /** Set once the target stopped answering (liveness, conformance/engine/transport.ts): nothing more is sent. */
  silence?(): Silence | undefined;
}

/** One conformance check. */
export interface CheckDefinition {
  /** Stable name: the rule ID, or rule ID + `.` + variant (e.g. `SIG-PLACEMENT-QUERY.v1.1`). */
  id: string;
  ruleId: RuleId;
  /** One line saying what is checked. */
  title: string;
  /** Defaults to the rule's level. */
  level?: RuleLevel;
  /** Places orders on the target when it passes. */
  placesOrders?: boolean;
  /** Run after every other check (it judges the whole run). */
  runLast?: boolean;
  /**
   * Its probes measure the server's clock edges (the time window): timed checks run one at a
   * time, and their requests go through the run's queue before any other so a probe's
   * timestamp ages by one request spacing at most (checks/time.ts probeMargin).
   */
  timed?: boolean;
  /**
   * The routes (`batch/json`, `v1/query`, ...) whose acceptance this check establishes:
   * when a route's positive control was refused, this check fails there once and the checks
   * that merely use the route are inconclusive.
   */
  establishes?: readonly RouteKey[];
  /**
   * The routes this check sends to and can decide its rule on (`batch/json`, `v1/split`, ...):
   * its cells of the coverage matrix (spec/coverage.json). A test checks them against the
   * routes a real run reaches.
   */
  covers?: readonly RouteKey[];
  /** Why `level` differs from the catalog rule's level (required with such a `level`: levels live in data with their reason). */
  levelReason?: string;
  /**
   * Its probes read the server's clock offset or its uncertainty (the time window): the runner spends a
   * second on clock samples and starts it once they end. Without it, `ctx.clock` gives `serverNow`
   * only (the estimate of the moment, for timestamps), never an offset.
   */
  needsClock?: boolean;
  /** Shows place-nothing by effect itself (reusing client ids on purpose): the runner does not follow up its refusals. */
  ownEffects?: boolean;
  /** Sends v1 orders to the real v1 endpoint even when the target names a test-order path (it proves the endpoint itself accepts orders). */
  realEndpoint?: boolean;
  /** Its requests are time-window probes (§5.4): the report lists each one's timestamp against the server clock and the answer. */
  timeProbes?: boolean;
  /** It judges whether the target stayed up (ROBUST-NO-HANG): a request left unanswered by a target that stopped answering is its evidence, no other check's. */
  judgesLiveness?: boolean;
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

/** A check's result in the report. */
export interface CheckReport {
  id: string;
  ruleId: RuleId;
  family: RuleFamily;
  level: RuleLevel;
  status: CheckStatus;
  title: string;
  section: string;
  requirement: string;
  expected?: string;
  actual?: string;
  observed?: string;
  reason?: string;
  counterexample?: string;
  runs?: number;
  reproduce?: string;
  /** Listed in the `--baseline` file: a failure accepted for now (`expected-failure`), or a listed check that passed (`stale`, fails the run). */
  baseline?: { state: 'expected-failure' | 'stale'; reason: string };
  /** For a failure: the `spotcheck replay` command line rerunning this check against the same target (no credentials). */
  replay?: string;
  /** Remarks on how the verdict was earned (requests refused for business reasons, inconclusive cases). */
  notes?: string[];
  /** Routes (`batch/json`, `v1.1/split`, ...) this check reached with an answer that could decide its rule (the coverage matrix). */
  routes?: string[];
  /** The check's verdict per route it covers: its cells of the coverage matrix (spec/coverage.json). */
  cells?: RouteCell[];
  /** Why the check is inconclusive or was not run (conformance/judgement/decide.ts Cause). */
  cause?: Cause;
  /** For a failing per-input check: every failing form, route and answer (the first is `expected`/`actual`). */
  failures?: FormFailure[];
  /** For a time-window check: every probe it sent, its timestamp against the server clock estimate and the answer (§5.4). */
  timeProbes?: TimeProbe[];
  durationMs: number;
}

/** The whole run, as written by `--report-json` (schema: conformance/report/report.schema.json). */
export interface RunReport {
  tool: { name: 'spotcheck'; version: string };
  target: string;
  profile: Strictness;
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  clock: { offsetMs?: number; uncertaintyMs?: number; method: string; note?: string };
  summary: {
    passed: number;
    failed: number;
    info: number;
    skipped: number;
    inconclusive: number;
    /** MUST failures not listed in the baseline. */
    mustFailures: number;
    /** Failures listed in the baseline (with --baseline). */
    baselined?: number;
    /** Baseline entries whose check passed (with --baseline): they fail the run. */
    stale?: number;
    /** The checks' route cells by verdict. */
    cells?: { pass: number; fail: number; inconclusive: number; unanswered: number; notOffered: number };
    /** Inconclusive checks by cause (conformance/judgement/decide.ts Cause). */
    inconclusiveByCause?: Record<string, number>;
    /** MUST checks left inconclusive on a route the target offers: the run is incomplete (exit 3). */
    incompleteMust?: string[];
  };
  /** Requests that got no answer: how many, the probes (check and request), and the wait the runner shortened to after repeated silence. */
  unanswered?: { count: number; probes: string[]; timeoutMs: number; shortenedToMs?: number };
  /** What discovery found before the checks: routes with their positive controls, rejection fingerprints. */
  discovery?: DiscoveryReport;
  /** Round-trip times of the run's requests and the answers by kind. */
  traffic?: TrafficReport;
  /** How the target's rate limiting was met (429 / 503 + Retry-After). */
  rateLimits?: RateLimitStats;
  /** The whole-run deadline (`--max-time`), when one was set, and what it cut. */
  deadline?: { maxTimeMs: number; default?: true; reached: boolean; checksNotRun: string[]; requestsNotSent: number };
  /** The order budget (`--max-orders`) and what it held back (discovery included): checks it left without a request are `skip`. */
  orders?: { maxOrders?: number; placed: number; requestsNotSent: number; checksNotRun: string[]; mustNotRun: number };
  /** Said once when valid orders accepted earlier in the run met a new refusal that a control pair showed to be the account's (the opposite or a much smaller order placed at that moment); the checks failing on it are inconclusive. */
  exhausted?: string;
  /** Where the target differs from the seed (target description). */
  deviations?: string[];
  /** The coverage matrix of the check list (spec/coverage.json). */
  coverage?: CoverageMatrix;
  /** The run's target settings as `spotcheck` arguments (`--base-url URL ...` or `--embedded`, profile, runs; never credentials), for replay lines. */
  replayArgs?: string[];
  /**
   * Set when the run ended early: Ctrl-C (`interrupted`), `--fail-fast`, or before any check: the
   * target did not answer (`unreachable`), discovery found no valid request accepted (`discovery`),
   * an error (`error`); `message` says what, `notRun` checks were not reported.
   */
  stopped?: {
    reason: 'interrupted' | 'fail-fast' | 'discovery' | 'unreachable' | 'error' | 'target-down';
    notRun: number;
    message?: string;
    /** For `interrupted`: the signal that stopped the run (SIGINT, SIGTERM, SIGHUP). */
    signal?: string;
    /** For `target-down`: since when no answer came, and the requests of the silence (the first is the one after which the target never answered). */
    silence?: {
      since: string;
      judgedAt: string;
      probe: string;
      requests: Array<{
        check?: string;
        method: string;
        path: string;
        route?: string;
        sentAt: string;
        outcome: string;
        curl: string;
      }>;
    };
  };
  checks: CheckReport[];
}
