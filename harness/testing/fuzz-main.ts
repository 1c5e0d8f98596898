/**
 * `npm run fuzz`: a longer wire fuzz run against a fresh reference server,
 * printing requests, the statuses histogram, faults, time and RSS before and after.
 * Usage: npm run fuzz -- [connections per seed, default 2000] [seeds, default 5] [first seed, default random]
 */
import { runFuzz } from './fuzz.js';
import { DEMO_CREDENTIALS } from '../../src/server/credentials.js';
import { startServer } from '../../src/server/server.js';

const [connArg, seedsArg, firstArg] = process.argv.slice(2);
const connections = Number(connArg ?? 2000);
const seeds = Number(seedsArg ?? 5);
const first = Number(firstArg ?? Math.floor(Math.random() * 2 ** 31));
if (!(connections > 0 && seeds > 0 && Number.isSafeInteger(first))) {
  process.stderr.write('usage: npm run fuzz -- [connections per seed] [seeds] [first seed]\n');
  process.exit(2);
}
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
const server = await startServer({ storeCapacity: 10_000 });
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
let requests = 0;
let faults = 0;
const statuses: Record<string, number> = {};
for (let s = 0; s < seeds; s++) {
  const seed = first + s;
  const placedBefore = server.orders.count();
  const st = await runFuzz({
    port: server.port,
    seed,
    connections,
    perConnection: 60,
    concurrency: 16,
    credential: DEMO_CREDENTIALS[0]!,
    now: Date.now,
  });
  requests += st.requests;
  for (const [k, v] of Object.entries(st.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const placed = server.orders.count() - placedBefore;
  // an order placed but not shown in an answer is lost data
  if (placed !== st.ordersAnswered)
    st.faults.push(`seed ${seed}: ${placed} orders placed but ${st.ordersAnswered} answered`);
  faults += st.faults.length;
  for (const f of st.faults.slice(0, 5)) process.stdout.write(`FAULT ${f}\n`);
  process.stdout.write(
    `seed ${seed}: ${st.requests} requests, ${st.connections} connections, lost ${st.lost}, hung ${st.hung}, orders placed ${placed}, answered ${st.ordersAnswered}\n`,
  );
}
const secs = (performance.now() - t0) / 1000;
global.gc?.();
const rss1 = process.memoryUsage().rss;
process.stdout.write(
  `\nrequests ${requests} in ${secs.toFixed(1)} s (${Math.round(requests / secs)}/s), seeds ${first}..${first + seeds - 1}\n` +
    `statuses ${JSON.stringify(statuses)}\n` +
    `5xx ${Object.entries(statuses)
      .filter(([k]) => Number(k) >= 500)
      .reduce((n, [, v]) => n + v, 0)}, faults ${faults}\n` +
    `RSS before ${mb(rss0)}, after ${mb(rss1)} (server and fuzzer in one process)\n`,
);
await server.close();
process.exit(faults === 0 ? 0 : 1);
