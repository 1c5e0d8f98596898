/**
 * Discovery before any check: one valid order per endpoint x placement as a
 * positive control, and the target's answers to a bad signature, an unknown key and a
 * stale timestamp as rejection fingerprints. A negative verdict is conclusive only
 * through a route whose control was accepted, and only when the rejection is not the
 * signature/key fingerprint (design notes, "How a verdict is earned").
 */
import { TARGET_DOWN_REASON, type Silence } from './transport.js';
import { describe, showsPlaced } from '../../src/core/response.js';
import { refusalMark } from '../judgement/exhaustion.js';
import { flipFirstDigit } from './sig-edits.js';
import { routeKey, type Built, type RequestFactory, type Route } from './requests.js';
import { offersRoute, SINGLE_PLACEMENTS, type TargetProfile } from '../target/description.js';
import type { Exchange, SendResult } from './transport.js';

import { fingerprintOf } from '../judgement/verdict.js';
import type { ControlState, Knowledge, RouteKnowledge } from '../judgement/verdict.js';

/** The positive control of one route. */
export interface Control {
  route: Route;
  state: ControlState;
  /** What the server answered, in words. */
  observed: string;
  /** The answer's fingerprint when it was a rejection (or a failed batch entry's code). */
  fingerprint?: string;
  /** Refused, while the opposite order sent next was placed: the refusal is the account's, the route accepts valid orders. */
  business?: boolean;
  exchange?: Exchange;
}

/** An order's values without its client id. */
function withoutId(o: Record<string, unknown>): Record<string, unknown> {
  const { newClientOrderId: _id, ...rest } = o;
  return rest;
}

/** A rejection fingerprint: what a server answers to one kind of bad request. */
export interface FingerprintProbe {
  fingerprint?: string;
  observed: string;
}

/** What discovery found. */
export interface Discovery {
  controls: Control[];
  /**
   * Answers to a flipped-bit signature, an unknown key and a timestamp an hour old, on the
   * first usable route; and to the same valid request without its signature, its API key
   * or its timestamp (a "missing parameter" answer proves nothing about a signature).
   */
  fingerprints: {
    signature?: FingerprintProbe;
    unknownKey?: FingerprintProbe;
    stale?: FingerprintProbe;
    missing?: FingerprintProbe[];
  };
  /** Requests discovery sent. */
  requests: number;
}

/** The control of a route, by key. */
export function controlOf(d: Discovery, route: Route): Control | undefined {
  const k = routeKey(route);
  return d.controls.find((c) => routeKey(c.route) === k);
}

/** Every route the seed defines (§4, §5.3). */
export function allRoutes(): Route[] {
  return [
    { endpoint: 'batch', placement: 'json' },
    ...(['v1', 'v1.1'] as const).flatMap((endpoint) => SINGLE_PLACEMENTS.map((placement) => ({ endpoint, placement }))),
  ];
}

/** What discovery needs: the run's sender, the factory, the target and valid orders. */
export interface DiscoveryInput {
  send: (b: Built) => Promise<SendResult>;
  requests: RequestFactory;
  profile: TargetProfile;
  /** A valid batch element for the target (fresh client id each call). */
  batchOrder: () => Record<string, unknown>;
  /** Valid LIMIT single-order parameters for the target (fresh client id each call). */
  limitParams: () => Record<string, unknown>;
}

/** A valid order on a route: its positive control (sent again by the runner to tell a business refusal from the rule's). */
export function controlRequest(
  input: Pick<DiscoveryInput, 'requests' | 'batchOrder' | 'limitParams'>,
  route: Route,
  opts: Parameters<RequestFactory['batch']>[1] = {},
): Built {
  return buildFor(input, route, opts);
}

function buildFor(
  input: Pick<DiscoveryInput, 'requests' | 'batchOrder' | 'limitParams'>,
  route: Route,
  opts: Parameters<RequestFactory['batch']>[1] = {},
  order: Record<string, unknown> = route.placement === 'json' ? input.batchOrder() : input.limitParams(),
): Built {
  return input.requests.onRoute(route, order, opts);
}

/**
 * Send the controls and, beside them, the fingerprint probes on the first offered route; when
 * that route's control is not the first accepted one, the probes go again on the route that is.
 */
export async function discover(input: DiscoveryInput): Promise<Discovery> {
  let requests = 0;
  const send = (b: Built) => {
    requests++;
    return input.send(b);
  };
  const first = allRoutes().find((r) => offersRoute(input.profile, r));
  // the common case (the first offered route accepts its control) costs no round trip of its own
  const early = first === undefined ? undefined : fingerprintsOn(first);
  // (awaited below; a run interrupted while the controls go must not leave its rejection unhandled)
  early?.catch(() => undefined);
  // The routes are independent: their controls go out together (the run's gate paces them).
  const controls: Control[] = await Promise.all(
    allRoutes().map(async (route): Promise<Control> => {
      if (!offersRoute(input.profile, route))
        return { route, state: 'not-offered', observed: 'not offered (target description); nothing sent' };
      const order = route.placement === 'json' ? input.batchOrder() : input.limitParams();
      const r = await send(buildFor(input, route, {}, order));
      const o = r.observation;
      // An accepted control is an accepted order: a batch answered 200 whose every entry failed placed nothing (design notes, "A refusal is recognised by a control, not its code").
      const fingerprint = fingerprintOf(o) ?? refusalMark(o);
      const c: Control = {
        route,
        state: showsPlaced(o) ? 'accepted' : 'refused',
        observed: describe(o),
        exchange: r.exchange,
      };
      if (fingerprint !== undefined) c.fingerprint = fingerprint;
      if (c.state === 'refused' && fingerprint !== undefined && o.status !== 404 && o.status !== 405) {
        // Refused for a reason other than the signature? The same request with a bad signature tells.
        const bad = await send(buildFor(input, route, { signature: flipFirstDigit }));
        if (fingerprintOf(bad.observation) !== fingerprint) c.state = 'signature-ok';
      }
      if (c.state === 'signature-ok') {
        // A business refusal is shown, never assumed: the opposite order, sent now, placed means the
        // route accepts valid orders and this refusal is the account's (its balance, a position).
        const opposite = order.side === 'SELL' ? 'BUY' : 'SELL';
        const fresh = route.placement === 'json' ? input.batchOrder() : input.limitParams();
        const twin = { ...withoutId(order), side: opposite, newClientOrderId: fresh.newClientOrderId };
        const other = await send(buildFor(input, route, {}, twin));
        if (showsPlaced(other.observation)) {
          c.state = 'accepted';
          c.business = true;
          c.observed = `${describe(o)}; the same order as ${opposite}, sent next, was placed (${describe(other.observation)})`;
        }
      }
      return c;
    }),
  );
  const probeRoute = (
    controls.find((c) => c.state === 'accepted') ??
    controls.find((c) => c.state === 'signature-ok') ??
    controls.find((c) => c.state === 'refused')
  )?.route;
  const sentEarly = await early;
  const fingerprints: Discovery['fingerprints'] =
    probeRoute === undefined
      ? {}
      : first !== undefined && routeKey(probeRoute) === routeKey(first) && sentEarly !== undefined
        ? sentEarly
        : await fingerprintsOn(probeRoute);
  return { controls, fingerprints, requests };

  /** The rejection fingerprints on `route`: independent of each other, sent together. */
  async function fingerprintsOn(route: Route): Promise<Discovery['fingerprints']> {
    const probe = async (opts: Parameters<RequestFactory['batch']>[1]): Promise<FingerprintProbe> => {
      const o = (await send(buildFor(input, route, opts))).observation;
      const f = fingerprintOf(o);
      return f === undefined ? { observed: describe(o) } : { fingerprint: f, observed: describe(o) };
    };
    const [signature, unknownKey, stale, ...missing] = await Promise.all([
      probe({ signature: flipFirstDigit }),
      probe({ apiKey: `spotcheck-unknown-key-${Date.now().toString(36)}` }),
      probe({ timestamp: Date.now() - 3_600_000 }),
      probe({ omitSignature: true }),
      probe({ apiKey: null }),
      probe({ omitTimestamp: true }),
    ]);
    return { signature, unknownKey, stale, missing };
  }
}

/** Whether any route can carry checks at all. */
export function anyUsable(d: Discovery): boolean {
  return d.controls.some((c) => c.state === 'accepted' || c.state === 'signature-ok');
}

/** Why nothing was accepted, in words a user can act on (exit 2). */
export function explainNothingAccepted(d: Discovery, silence?: Silence): string {
  const sent = d.controls.filter((c) => c.state !== 'not-offered');
  if (sent.length === 0) return 'the target description offers no endpoint and placement at all';
  const lines = sent.map((c) => `  ${routeKey(c.route)}: ${c.observed}`);
  const statuses = new Set(sent.map((c) => /^HTTP (\d+)/.exec(c.observed)?.[1]));
  const fps = new Set(sent.map((c) => c.fingerprint));
  let why: string;
  // (a request never sent because the target had stopped answering says so: TARGET_DOWN_REASON)
  if (sent.every((c) => c.observed.startsWith('no answer') || c.observed.includes(TARGET_DOWN_REASON)))
    why = `the target did not answer (wrong --base-url, or it is down)${
      silence === undefined
        ? ''
        : `: ${silence.requests[0]?.outcome ?? 'no request answered'}; a liveness probe on a fresh connection: ${silence.probe}`
    }`;
  else if ([...statuses].every((s) => s === '404' || s === '405'))
    why =
      'every order endpoint answered 404/405: wrong --base-url or paths (set --path-prefix, or the endpoint paths with --config)';
  else if ([...statuses].every((s) => s?.startsWith('5')))
    why = 'the target answered every valid request with a 5xx server error';
  else if (sent.every((c) => c.observed.startsWith('rate limited')))
    why = 'the target rate-limited every request, even after waiting as told';
  else if (
    fps.size === 1 &&
    d.fingerprints.unknownKey?.fingerprint !== undefined &&
    fps.has(d.fingerprints.unknownKey.fingerprint)
  ) {
    why =
      'every valid request was refused exactly like one with an unknown API key: the key is wrong, or the server reads it from another header (--api-key-header)';
  } else if (
    fps.size === 1 &&
    d.fingerprints.signature?.fingerprint !== undefined &&
    fps.has(d.fingerprints.signature.fingerprint)
  ) {
    why =
      'every valid request was refused exactly like one with a wrong signature: the secret is wrong (or the server signs something other than §5.3 totalParams; `spotcheck doctor` explains a captured request)';
  } else if (sent.every((c) => /^HTTP 2\d\d with a body that could not be read/.test(c.observed))) {
    why =
      'every valid request was answered HTTP 2xx with a body the kit could not decode (not a refusal; the Content-Encoding is named below)';
  } else if (sent.every((c) => /^HTTP 2\d\d/.test(c.observed) && !c.observed.includes('{')))
    why = 'the answers are not JSON: this does not look like the API of the seed';
  else if (sent.some((c) => /^HTTP 2\d\d/.test(c.observed)))
    why =
      'no valid request was accepted: the HTTP 2xx answers could not be read as an acceptance, the others were refusals';
  else why = 'every valid request was refused';
  return `no valid request was accepted anywhere, so no verdict can be earned: ${why}.\n${lines.join('\n')}`;
}

/** What discovery learnt, as the verdict function reads it (conformance/judgement/verdict.ts). */
export function knowledgeOf(d: Discovery): Knowledge {
  const routes: Record<string, RouteKnowledge> = {};
  for (const c of d.controls) {
    const absent =
      c.state === 'not-offered' || c.exchange?.observation.status === 404 || c.exchange?.observation.status === 405;
    routes[routeKey(c.route)] = {
      state: c.state,
      observed: c.observed,
      ...(c.fingerprint === undefined ? {} : { fingerprint: c.fingerprint }),
      ...(absent ? { absent } : {}),
      // A valid order refused unlike a bad signature: a refusal valid orders meet here (a filter, a balance).
      validRefusals: c.business === true && c.fingerprint !== undefined ? [c.fingerprint] : [],
      // Refused, and the opposite order too: valid orders meet it here, not shown to be the account's.
      ...(c.state === 'signature-ok' && c.fingerprint !== undefined ? { blocking: [c.fingerprint] } : {}),
      ruleRefusals: [],
    };
  }
  const f = d.fingerprints;
  const missing = (f.missing ?? []).map((m) => m.fingerprint).filter((x): x is string => x !== undefined);
  return {
    routes,
    ...(f.signature?.fingerprint === undefined ? {} : { signature: f.signature.fingerprint }),
    ...(f.unknownKey?.fingerprint === undefined ? {} : { unknownKey: f.unknownKey.fingerprint }),
    missing: [...new Set(missing)],
  };
}
