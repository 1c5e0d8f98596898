/**
 * The grading session: every signed request graded as it arrives (conformance/grade/rules.ts),
 * the scenario episodes it opens or follows, and what was answered. Pure bookkeeping, no
 * I/O: the front (./front.ts) records, asks for a plan, executes it and reports the answer.
 */
import { ApiCode } from '../../src/core/codes.js';
import {
  bytesKey,
  contentKey,
  factsOf,
  gradeRequest,
  orderKey,
  type RecordedRequest,
  type RequestFacts,
  type RuleResult,
  withoutTime,
} from './rules.js';
import { field, selectedScenario, type Scenario } from './scenarios.js';
import { SEED_WIRE, type WireProfile } from '../../src/core/wire.js';

/** What came back to the client for one request. */
export interface Answer {
  /** HTTP status sent; undefined when the client was gone before an answer (a held answer it gave up on). */
  status?: number;
  /** The top-level `code` of the answer, when it had one. */
  code?: number;
  /** Who answered: the server behind the front, or the front playing a scenario. */
  by: 'server' | 'scenario';
  /** Client order ids the answer placed. */
  placed: string[];
  /** How long the answer was held (slow-answer), ms. */
  heldMs?: number;
  /** Set when the client closed the connection before it was answered. */
  clientClosed?: boolean;
}

/** One graded request: the bytes as sent (no secret is part of them), the rule results, the answer. */
export interface GradedRequest {
  request: RecordedRequest;
  endpoint?: string;
  placement: RequestFacts['placement'];
  clientOrderIds: string[];
  /** timestamp minus the server clock at arrival, ms (the skew plot). */
  skewMs?: number;
  recvWindow?: number;
  /** The scenario this request is part of, and its role there. */
  scenario?: { name: string; role: 'cue' | 'follow-up' };
  results: RuleResult[];
  answer?: Answer;
}

/** One run of a scenario: the cue request and those that repeat it. */
export interface Episode {
  scenario: Scenario;
  cueSeq: number;
  content: string;
  ids: Set<string>;
  /** Server clock when the cue's answer was written (the clock the follow-ups arrive on). */
  cueAnsweredAt?: number;
  followUps: number[];
  /** Why the cue request is not the scenario's shape. */
  shapeProblem?: string;
  /** Its follow-ups are still counted (a normal scenario has none). */
  open: boolean;
}

/** What the front does with a request. */
export type Plan =
  | { kind: 'forward' }
  | { kind: 'answer'; status: number; body: unknown; headers?: Record<string, string>; placed?: string[] }
  | { kind: 'hold' };

/** Options of a session. */
export interface SessionOptions {
  apiKey: string;
  secret: string;
  /** The real clock, epoch ms (default Date.now). */
  now?: () => number;
  /** The largest recvWindow the target declares, ms (CLIENT-RECVWINDOW). */
  recvWindowCap?: number;
  /** The wire served: its API-key header and endpoint paths (default the seed's). */
  wire?: WireProfile;
}

/** The grading session (secret held in memory only, never in what it returns). */
export class GradeSession {
  readonly graded: GradedRequest[] = [];
  private readonly bySeq = new Map<number, GradedRequest>();
  readonly episodes: Episode[] = [];
  /** Requests naming a scenario that does not exist. */
  readonly unknownScenarios = new Set<string>();
  readonly startedAt: number;
  private readonly apiKey: string;
  private readonly secret: string;
  private readonly realNow: () => number;
  private jumpMs = 0;
  private readonly seenBytes = new Map<string, number>();
  private readonly seenContent = new Map<string, number>();
  private readonly placedIds = new Set<string>();
  private readonly idFields = new Map<string, string>();
  private retryNotBefore: number | undefined;
  private readonly recvWindowCap: number | undefined;
  /** The wire served (API-key header, paths). */
  readonly wire: WireProfile;

  constructor(opts: SessionOptions) {
    this.recvWindowCap = opts.recvWindowCap;
    this.wire = opts.wire ?? SEED_WIRE;
    this.apiKey = opts.apiKey;
    this.secret = opts.secret;
    this.realNow = opts.now ?? Date.now;
    this.startedAt = this.realNow();
  }

  /** The server clock: the real one, plus every clock-jump scenario's jump so far (§5.4). */
  readonly clock = (): number => this.realNow() + this.jumpMs;

  /** Grade a request that has arrived, and say how to answer it. */
  receive(r: RecordedRequest): { graded: GradedRequest; plan: Plan } {
    const f = factsOf(r, this.wire);
    const content = contentKey(r, f);
    const episode = this.episodes.find(
      (e) => e.open && (e.content === content || f.clientOrderIds.some((id) => e.ids.has(id))),
    );
    const sel = episode === undefined ? selectedScenario(r.headers, f.clientOrderIds) : {};
    if (sel.unknown !== undefined) this.unknownScenarios.add(sel.unknown);
    const results = gradeRequest(r, f, {
      apiKey: this.apiKey,
      secret: this.secret,
      seenBytes: this.seenBytes,
      seenContent: this.seenContent,
      placedIds: this.placedIds,
      idFields: this.idFields,
      ...(this.retryNotBefore !== undefined ? { retryNotBefore: this.retryNotBefore } : {}),
      ...(this.recvWindowCap !== undefined ? { recvWindowCap: this.recvWindowCap } : {}),
      wire: this.wire,
    });
    this.retryNotBefore = undefined;
    if (!this.seenBytes.has(bytesKey(r))) this.seenBytes.set(bytesKey(r), r.seq);
    if (!this.seenContent.has(content)) this.seenContent.set(content, r.seq);
    for (const o of f.orders) {
      const id = field(o, 'newClientOrderId');
      if (typeof id === 'string' && !this.idFields.has(id)) this.idFields.set(id, orderKey(withoutTime(o)));
    }
    const ts = f.timestamp !== undefined && /^\d{1,16}$/.test(f.timestamp) ? Number(f.timestamp) : undefined;
    const rw = f.recvWindow !== undefined && /^\d{1,9}$/.test(f.recvWindow) ? Number(f.recvWindow) : undefined;
    const g: GradedRequest = {
      request: r,
      placement: f.placement,
      clientOrderIds: f.clientOrderIds,
      results,
      ...(f.endpoint !== undefined ? { endpoint: f.endpoint.name } : {}),
      ...(ts !== undefined ? { skewMs: ts - r.receivedAt } : {}),
      ...(rw !== undefined ? { recvWindow: rw } : {}),
    };
    this.graded.push(g);
    this.bySeq.set(r.seq, g);
    let plan: Plan = { kind: 'forward' };
    if (episode !== undefined) {
      episode.followUps.push(r.seq);
      g.scenario = { name: episode.scenario.name, role: 'follow-up' };
    } else if (sel.scenario !== undefined) {
      const s = sel.scenario;
      const e: Episode = {
        scenario: s,
        cueSeq: r.seq,
        content,
        ids: new Set(f.clientOrderIds),
        followUps: [],
        open: true,
      };
      const problem = s.shape?.(f.endpoint, f.orders);
      if (problem !== undefined) e.shapeProblem = problem;
      this.episodes.push(e);
      g.scenario = { name: s.name, role: 'cue' };
      plan = this.cuePlan(e, f);
    }
    return { graded: g, plan };
  }

  /** The server's side of a scenario's cue. */
  private cuePlan(e: Episode, f: RequestFacts): Plan {
    const cue = e.scenario.cue;
    switch (cue.kind) {
      case 'normal':
        e.open = false;
        return { kind: 'forward' };
      case 'hold':
        return { kind: 'hold' };
      case 'status':
        return {
          kind: 'answer',
          status: cue.status,
          body: { code: cue.code, msg: cue.msg },
          ...(cue.retryAfterS !== undefined ? { headers: { 'retry-after': String(cue.retryAfterS) } } : {}),
        };
      case 'clock-jump':
        this.jumpMs += cue.jumpMs;
        return {
          kind: 'answer',
          status: 400,
          body: {
            code: ApiCode.TIMESTAMP,
            msg: `Timestamp for this request is outside the recvWindow: the server clock is now ${cue.jumpMs} ms later (scenario clock-jump)`,
          },
        };
      case 'failing-entry': {
        const orders = f.orders;
        const now = this.clock();
        const placed: string[] = [];
        const result = orders.map((o, i) => {
          const id = field(o, 'newClientOrderId');
          if (i === orders.length - 1)
            return { code: ApiCode.INVALID_VALUE, msg: 'This order failed (scenario batch-failing-entry)' };
          if (typeof id === 'string') placed.push(id);
          return {
            code: 0,
            msg: 'success',
            order: {
              accountId: '1000000001',
              symbol: field(o, 'symbol'),
              symbolName: field(o, 'symbol'),
              clientOrderId: typeof id === 'string' ? id : `grade-${e.cueSeq}-${i}`,
              orderId: String(9_000_000_000 + e.cueSeq * 100 + i),
              transactTime: now,
              price: field(o, 'price') ?? '0',
              origQty: field(o, 'quantity') ?? '0',
              executedQty: '0',
              status: 'NEW',
              timeInForce: field(o, 'timeInForce') ?? 'GTC',
              type: field(o, 'type'),
              side: field(o, 'side'),
            },
          };
        });
        return { kind: 'answer', status: 200, body: { code: 0, result }, placed };
      }
    }
  }

  /** Record what the client got for request `seq`. */
  answered(seq: number, answer: Answer): void {
    const g = this.bySeq.get(seq);
    if (g === undefined) return;
    g.answer = answer;
    for (const id of answer.placed) this.placedIds.add(id);
    const e = this.episodes.find((x) => x.cueSeq === seq);
    if (e !== undefined) {
      e.cueAnsweredAt = this.clock();
      const cue = e.scenario.cue;
      if (cue.kind === 'status' && cue.retryAfterS !== undefined)
        this.retryNotBefore = this.clock() + cue.retryAfterS * 1000;
    }
  }
}

/** The client ids an answer placed: a single order's `clientOrderId`, each accepted batch entry's (§2.2). */
export function placedBy(status: number, json: unknown): string[] {
  if (status !== 200 || typeof json !== 'object' || json === null) return [];
  const top = json as { code?: unknown; clientOrderId?: unknown; result?: unknown };
  if (top.code !== 0 && top.code !== '0') return [];
  if (Array.isArray(top.result))
    return top.result.flatMap((e) => {
      const id = field(field(e, 'order'), 'clientOrderId');
      return field(e, 'code') === 0 && typeof id === 'string' ? [id] : [];
    });
  return typeof top.clientOrderId === 'string' ? [top.clientOrderId] : [];
}
