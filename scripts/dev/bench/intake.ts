/**
 * `npm run bench -- intake [--rate 200] [--seconds 10] [--rounds 3]
 *   [--servers 1] [--max] [--server-cpu 0.3]`
 *
 * Signed orders/create webhooks at a fixed rate against the production server
 * (`server.ts` on the build) on loopback, with no worker in it so only intake
 * is measured, and the same load against the floor (authenticate.webhook + one
 * insert, on a database of its own), taking turns. Reports throughput,
 * p50/p99 acknowledgement latency per round, and the median p99s and their
 * ratio. With --servers N, N app servers share the database and requests are
 * spread over them round-robin, as a load balancer would. --max then raises
 * the rate step by step (x1.25, --rounds runs of --seconds each) and reports
 * the highest rate whose median p99 stays under 100 ms. Each run also reports
 * the app servers' CPU per webhook and their share of a core.
 *
 * --server-cpu C confines each app server and the floor to C of one core's
 * time (a cgroup CPU quota; Linux, root): on 2 cores shared with the database
 * and the generator, a second server adds no computing power, so how intake
 * scales with servers is only seen when each server's own share is the bound.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { webhookOrder } from "../lib/order-payloads";
import { ensurePreviewBuild, freePort, startPreviewServer, type PreviewServer } from "../lib/preview-server";
import { signedWebhookHeaders } from "../lib/webhook-signing";
import { openBenchDatabase } from "./lib/bench-database";
import { ms, openLoop, percentile, type LoadResult } from "./lib/load";
import { cpuTimeMs, createCpuQuota, type CpuQuota } from "./lib/process-cpu";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    // Floor and app take turns this many times: on a shared 2-core VM one run is noisy.
    rounds: { type: "string", default: "3" },
    servers: { type: "string", default: "1" },
    max: { type: "boolean", default: false },
    "server-cpu": { type: "string" },
  },
});
const rate = Number(values.rate);
const durationMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const serverCount = Number(values.servers);
const serverCpu = values["server-cpu"] === undefined ? undefined : Number(values["server-cpu"]);
const P99_LIMIT_MS = 100;
const SHOP = "atlas-beauty.myshopify.com";
const root = join(import.meta.dirname, "..", "..", "..");

/**
 * Bodies and signatures are made before the clock starts: signing is Shopify's
 * work, and the generator shares the machine's two cores with the server.
 * Request i goes to urls[i % urls.length].
 */
function webhookSender(urls: string[], secret: string, idBase: number, count: number) {
  const signed = Array.from({ length: count }, (_, i) => {
    const body = JSON.stringify(
      webhookOrder({ id: idBase + i, phone: `06${String(10000000 + (i % 90000000)).padStart(8, "0")}` }),
    );
    return { body, headers: signedWebhookHeaders({ topic: "orders/create", shop: SHOP, secret }, body) };
  });
  return async (i: number) => {
    const { body, headers } = signed[i];
    const response = await fetch(`${urls[i % urls.length]}/webhooks/orders/create`, { method: "POST", headers, body });
    await response.arrayBuffer();
    return response.status;
  };
}

/** The CPU the given processes used while `run` ran: per request, and as a share of one core per process. */
async function measured(pids: number[], run: () => Promise<LoadResult>) {
  const cpuBefore = pids.map(cpuTimeMs);
  const result = await run();
  const cpuMs = pids.reduce((sum, pid, i) => sum + cpuTimeMs(pid) - cpuBefore[i], 0);
  return { result, cpuMsPerRequest: cpuMs / result.sent, coreShare: cpuMs / result.durationMs / pids.length };
}

function report(name: string, { result: r, cpuMsPerRequest, coreShare }: Awaited<ReturnType<typeof measured>>) {
  const p50 = percentile(r.latenciesMs, 50);
  const p99 = percentile(r.latenciesMs, 99);
  console.log(
    `${name.padEnd(12)} sent ${r.sent}, ok ${r.ok}, failed ${r.failed}, ${(r.ok / (r.durationMs / 1000)).toFixed(0)}/s, ` +
      `p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(Math.max(...r.latenciesMs))}; ` +
      `server CPU ${cpuMsPerRequest.toFixed(2)} ms a webhook, ${(coreShare * 100).toFixed(0)} % of a core each`,
  );
  return p99;
}

// Two seconds at the bench's rate before the rounds: with 50 requests one by one, the floor's first
// round still ran cold (p99 0.7-3.9 s on PostgreSQL, then 36-85 ms in rounds 2 and 3).
const WARM_UP_SECONDS = 2;
const WARM_UP = Math.max(50, Math.round(rate * WARM_UP_SECONDS));
async function warmUp(send: (i: number) => Promise<number>) {
  await openLoop({ ratePerSecond: WARM_UP / WARM_UP_SECONDS, durationMs: WARM_UP_SECONDS * 1000, send });
}

const buildDir = await ensurePreviewBuild();
const appDatabase = await openBenchDatabase();
const floorDatabase = await openBenchDatabase();
const apps: PreviewServer[] = [];
for (let i = 0; i < serverCount; i++) {
  apps.push(
    await startPreviewServer({
      buildDir,
      sellerApiBaseUrl: "http://127.0.0.1:9",
      shops: [SHOP],
      // The production default: one JSON line per webhook, so the log's cost is in the measurement.
      env: { LOG_LEVEL: "info" },
      databaseUrl: appDatabase.url,
    }),
  );
}
const [app] = apps;
const appUrls = apps.map((a) => a.url);
const appPids = apps.map((a) => a.pid);
const quotas: CpuQuota[] = [];
const confine = (name: string, pid: number) => {
  if (serverCpu === undefined) return;
  const quota = createCpuQuota(name, serverCpu);
  quotas.push(quota);
  quota.add(pid);
};
apps.forEach((a, i) => confine(`app-${i + 1}`, a.pid));

// The floor: its own process, database and port, same secret.
const floorPort = await freePort();
const floor = spawn(
  process.execPath,
  ["--import", "tsx", join(root, "scripts", "dev", "bench", "lib", "floor-server.ts")],
  {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(floorPort),
      DATABASE_URL: floorDatabase.url,
      SHOPIFY_API_KEY: app.apiKey,
      SHOPIFY_API_SECRET: app.apiSecret,
      SHOPIFY_APP_URL: `http://127.0.0.1:${floorPort}`,
    },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
await new Promise<void>((resolve) =>
  floor.stdout!.on("data", (d: Buffer) => d.toString().includes("floor ready") && resolve()),
);
confine("floor", floor.pid!);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let nextId = 6_000_000_000_000;

try {
  console.log(
    `intake benchmark: ${rate} signed orders/create webhooks per second for ${durationMs / 1000} s, loopback, 2 cores shared by ` +
      `the servers, the database and this generator, ${rounds} rounds; ${serverCount} app server(s)` +
      (serverCpu === undefined ? "" : `, each server (and the floor) confined to ${serverCpu} of a core`),
  );
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  const perRound = Math.round((rate * durationMs) / 1000);
  const count = WARM_UP + rounds * perRound;
  const appSend = webhookSender(appUrls, app.apiSecret, nextId, count);
  const floorSend = webhookSender([floorUrl], app.apiSecret, (nextId += count), count);
  nextId += count;
  await warmUp(appSend);
  await warmUp(floorSend);
  const p99s = { floor: [] as number[], app: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const from = WARM_UP + round * perRound;
    const load = (pids: number[], send: (i: number) => Promise<number>) =>
      measured(pids, () => openLoop({ ratePerSecond: rate, durationMs, send: (i) => send(from + i) }));
    p99s.floor.push(report(`floor ${round + 1}`, await load([floor.pid!], floorSend)));
    p99s.app.push(report(`app ${round + 1}`, await load(appPids, appSend)));
  }
  const stored = await app.db.orderLink.count();
  const jobs = await app.db.job.count({ where: { kind: "post-lead" } });
  console.log(`app stored ${stored} order links and ${jobs} post-lead jobs for ${count} webhooks (warm-up included)`);
  const [appP99, floorP99] = [median(p99s.app), median(p99s.floor)];
  console.log(
    `median p99: app ${ms(appP99)}, floor ${ms(floorP99)}, ratio app/floor ${(appP99 / floorP99).toFixed(2)} ` +
      `(target p99 < 50 ms: ${appP99 < 50 ? "met" : "NOT met"})`,
  );

  if (values.max) {
    // Each run a fresh batch of orders (new ids): nothing is a redelivery. A step
    // runs --rounds times and is judged on its median p99, as the rounds above:
    // one 5-second run on shared cores may miss (or pass) by a stray stall.
    let best = 0;
    for (let step = rate; ; step = Math.round(step * 1.25)) {
      const total = Math.round((step * durationMs) / 1000);
      const stepP99s: number[] = [];
      let failed = 0;
      for (let round = 0; round < rounds; round++) {
        const send = webhookSender(appUrls, app.apiSecret, nextId, total);
        nextId += total;
        const run = await measured(appPids, () => openLoop({ ratePerSecond: step, durationMs, send }));
        stepP99s.push(report(`app ${step}/s`, run));
        failed += run.result.failed;
      }
      const stepP99 = median(stepP99s);
      console.log(`  ${step}/s: median p99 ${ms(stepP99)}${failed ? `, ${failed} failed` : ""}`);
      if (stepP99 >= P99_LIMIT_MS || failed > 0) break;
      best = step;
    }
    console.log(
      `highest rate with median p99 < ${P99_LIMIT_MS} ms: ${best ? `${best}/s` : `none (already over at ${rate}/s)`} ` +
        `(${serverCount} app server(s)${serverCpu === undefined ? "" : `, ${serverCpu} of a core each`}; ` +
        `steps x1.25 from ${rate}/s, ${rounds} runs of ${durationMs / 1000} s each)`,
    );
  }
} finally {
  floor.kill("SIGTERM");
  await Promise.all(apps.map((a) => a.close()));
  for (const quota of quotas) quota.remove();
  await appDatabase.close();
  await floorDatabase.close();
}
