#!/usr/bin/env node
/**
 * `npm run bench:load`: `spotcheck load`'s engine beside autocannon (pinned devDependency),
 * both signing every request at send time with the kit's builder, against the reference
 * server running in a child process, same routes, connections and duration, alternating
 * rounds. Prints the median req/s, p99 and client CPU per request of each and the ratio
 * (target: the engine at least 0.9x autocannon). The engine also judges every answer (reads its
 * JSON, the verdict); autocannon only counts status codes, which the bench checks are all 2xx; a
 * third run, autocannon JSON.parse-ing each answer, shows what reading the answers costs alone.
 * Each tool's req/s is its answered requests over the run's own wall time: autocannon ends a
 * run at the first 1 s tick after its duration, so a 3 s run sometimes lasts 4 s.
 * On a shared machine req/s drifts with the load of others (the load average is printed):
 * the median of the per-round ratios (each round's runs back to back) is the figure that
 * drift disturbs least; client CPU per request is the figure it disturbs least of all.
 *
 *   node harness/load/bench.mjs [--rounds 9] [--seconds 3] [--connections 16] [--routes batch,v1/query]
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const autocannonVersion = `${createRequire(import.meta.url)('autocannon/package.json').version}`;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (...p) => import(join(root, 'dist', ...p));
const { runLoad, quantile } = await dist('conformance', 'load', 'engine.js');
const { buildLoadRequest, clientIdSource, runPrefix, DEFAULT_ORDER } = await dist('conformance', 'load', 'build.js');
const { parseMix } = await dist('conformance', 'load', 'mix.js');
const { engineReport } = await dist('conformance', 'load', 'report.js');
const { REFERENCE_FINGERPRINTS } = await dist('conformance', 'load', 'verdict.js');
const { sign } = await dist('src', 'signing', 'hmac.js');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    routes: { type: 'string', default: 'batch,v1/query' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const build = {
  hmac: sign,
  apiKey: 'spotcheck-demo-key',
  secret: 'spotcheck-demo-secret',
  order: DEFAULT_ORDER,
  batchSize: 20,
  recvWindow: 5000,
};

/** The reference server in a child process (its own core), demo credentials. */
function startReference() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'dist', 'conformance', 'cli', 'bin.js'), 'serve', '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, SPOTCHECK_API_KEY: '', SPOTCHECK_SECRET: '' },
      },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
  });
}

async function engine(url, route, secs = seconds) {
  const cpu0 = process.cpuUsage();
  const r = await runLoad({
    baseUrl: url,
    build,
    mix: parseMix(`${route}=1`),
    durationMs: secs * 1000,
    connections,
    maxOrders: Infinity,
    timeoutMs: 10000,
    fingerprints: REFERENCE_FINGERPRINTS,
    idPrefix: runPrefix(),
  });
  const cpu = process.cpuUsage(cpu0);
  const rep = engineReport(r);
  const all = Object.values(r.latencies)
    .flat()
    .sort((a, b) => a - b);
  return {
    rps: rep.requests / (r.durationMs / 1000),
    p99: quantile(all, 0.99),
    bad: rep.failures.length + rep.transportErrors + (rep.passed ? 0 : 1),
    cpuUs: (cpu.user + cpu.system) / rep.requests,
  };
}

/** autocannon; with `parse`, each answer is also read as JSON (what judging costs at the least). */
async function cannon(url, route, parse = false, secs = seconds) {
  const nextId = clientIdSource(`${runPrefix()}a`);
  let unreadable = 0;
  const cpu0 = process.cpuUsage();
  const res = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration: secs,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const lr = buildLoadRequest(build, route, Date.now(), nextId);
          const w = lr.request;
          return { ...req, method: w.method, path: `${w.path}?${w.query}`, body: w.body, headers: { ...w.headers } };
        },
        ...(parse
          ? {
              onResponse: (_status, body) => {
                if (JSON.parse(body).code !== 0) unreadable++;
              },
            }
          : {}),
      },
    ],
  });
  const cpu = process.cpuUsage(cpu0);
  return {
    // autocannon's own duration: its run ends at the first 1 s tick after `secs`.
    rps: res.requests.total / res.duration,
    p99: res.latency.p99,
    bad: res.non2xx + res.errors + res.timeouts + unreadable,
    cpuUs: (cpu.user + cpu.system) / res.requests.total,
  };
}

/** The load average (1, 5, 15 min): how much others used the machine during the runs. */
const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const server = await startReference();
console.log(
  `node ${process.version}; reference server in a child process (pid ${server.child.pid}) at ${server.url}; the load tools run in this process (pid ${process.pid}), one at a time; ${connections} connections, ${seconds} s per run, ${rounds} alternating rounds after a 1 s warm-up of each; load average ${la()}`,
);
console.log(
  `  spotcheck load   undici, one connection per client, pipelining 1; each request built and signed with the kit's builder when its connection is free; every answer judged (status and code, each batch entry's code and echoed client id at its position, time window), its latency kept`,
);
console.log(
  `  autocannon       version ${autocannonVersion}, pipelining 1; each request built and signed with the same builder in setupRequest; counts status codes and latency only`,
);
console.log(
  `  autocannon+JSON  the same, and each answer JSON.parse'd in onResponse (reading the answers, no verdict)`,
);
try {
  for (const route of values.routes.split(',')) {
    const e = [];
    const a = [];
    const ap = [];
    // One unrecorded second of each first, so no recorded run pays for compiling its code.
    await engine(server.url, route, 1);
    await cannon(server.url, route, false, 1);
    await cannon(server.url, route, true, 1);
    for (let i = 0; i < rounds; i++) {
      // Rotate who goes first, so a drift in the machine's load hits all alike.
      const runs = [
        async () => e.push(await engine(server.url, route)),
        async () => a.push(await cannon(server.url, route)),
        async () => ap.push(await cannon(server.url, route, true)),
      ];
      for (let k = 0; k < runs.length; k++) await runs[(i + k) % runs.length]();
    }
    const er = median(e.map((x) => x.rps));
    const ar = median(a.map((x) => x.rps));
    const apr = median(ap.map((x) => x.rps));
    const paired = (xs, ys) => xs.map((x, i) => x.rps / (ys[i]?.rps ?? NaN));
    const f = (x) => x.toFixed(0).padStart(6);
    console.log(`\n== route ${route}${route === 'batch' ? ' (20 orders)' : ''}`);
    console.log(
      `spotcheck load  req/s median ${f(er)}  (all: ${e.map((x) => x.rps.toFixed(0)).join(', ')})  p99 median ${median(e.map((x) => x.p99)).toFixed(1)} ms  client CPU ${median(e.map((x) => x.cpuUs)).toFixed(0)} µs/request  failures ${e.reduce((s, x) => s + x.bad, 0)}`,
    );
    console.log(
      `autocannon      req/s median ${f(ar)}  (all: ${a.map((x) => x.rps.toFixed(0)).join(', ')})  p99 median ${median(a.map((x) => x.p99)).toFixed(1)} ms  client CPU ${median(a.map((x) => x.cpuUs)).toFixed(0)} µs/request  non-2xx/errors ${a.reduce((s, x) => s + x.bad, 0)}`,
    );
    console.log(
      `autocannon+JSON req/s median ${f(apr)}  (all: ${ap.map((x) => x.rps.toFixed(0)).join(', ')}; each answer JSON.parse'd in onResponse)  p99 median ${median(ap.map((x) => x.p99)).toFixed(1)} ms  client CPU ${median(ap.map((x) => x.cpuUs)).toFixed(0)} µs/request`,
    );
    const pa = paired(e, a);
    const pj = paired(e, ap);
    console.log(
      `ratio           spotcheck load / autocannon: of medians ${(er / ar).toFixed(2)}x, median per round ${median(pa).toFixed(2)}x req/s (target >= 0.90x); per-round ratios ${pa.map((x) => x.toFixed(2)).join(', ')}`,
    );
    console.log(
      `ratio           spotcheck load / autocannon+JSON: of medians ${(er / apr).toFixed(2)}x, median per round ${median(pj).toFixed(2)}x req/s; client CPU ${(median(e.map((x) => x.cpuUs)) / median(a.map((x) => x.cpuUs))).toFixed(2)}x autocannon's, ${(median(e.map((x) => x.cpuUs)) / median(ap.map((x) => x.cpuUs))).toFixed(2)}x autocannon+JSON's`,
    );
    console.log(`load average    ${la()} (1, 5, 15 min) on ${availableParallelism()} cores`);
  }
} finally {
  server.child.kill();
}
