/**
 * `npm run bench -- intake [--rate 200] [--seconds 10] [--rounds 3]
 *   [--database sqlite|postgres] [--servers 1] [--max]`
 *
 * Signed orders/create webhooks at a fixed rate against the production server
 * (`server.ts` on the build) on loopback, with no worker in it so only intake
 * is measured, and the same load against the floor (authenticate.webhook + one
 * insert, on the same kind of database), taking turns. Reports throughput,
 * p50/p99 acknowledgement latency per round, and the median p99s and their
 * ratio. With --servers N, N app servers share the database and requests are
 * spread over them round-robin, as a load balancer would. --max then raises
 * the rate step by step (x1.25, --seconds each) and reports the highest rate
 * whose p99 stays under 100 ms.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { webhookOrder } from "../lib/order-payloads";
import { ensurePreviewBuild, freePort, startPreviewServer, type PreviewServer } from "../lib/preview-server";
import { signedWebhookHeaders } from "../lib/webhook-signing";
import { benchDatabaseKind, openBenchDatabase } from "./lib/bench-database";
import { ms, openLoop, percentile, type LoadResult } from "./lib/load";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    // Floor and app take turns this many times: on a shared 2-core VM one run is noisy.
    rounds: { type: "string", default: "3" },
    database: { type: "string", default: "sqlite" },
    servers: { type: "string", default: "1" },
    max: { type: "boolean", default: false },
  },
});
const rate = Number(values.rate);
const durationMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const serverCount = Number(values.servers);
const kind = benchDatabaseKind(values.database);
const P99_LIMIT_MS = 100;
const SHOP = "atlas-beauty.myshopify.com";
const root = join(import.meta.dirname, "..", "..");

/**
 * Bodies and signatures are made before the clock starts: signing is Shopify's
 * work, and the generator shares the machine's two cores with the server.
 * Request i goes to urls[i % urls.length].
 */
function webhookSender(urls: string[], secret: string, idBase: number, count: number) {
  const signed = Array.from({ length: count }, (_, i) => {
    const body = JSON.stringify(webhookOrder({ id: idBase + i, phone: `06${String(10000000 + (i % 90000000)).padStart(8, "0")}` }));
    return { body, headers: signedWebhookHeaders({ topic: "orders/create", shop: SHOP, secret }, body) };
  });
  return async (i: number) => {
    const { body, headers } = signed[i];
    const response = await fetch(`${urls[i % urls.length]}/webhooks/orders/create`, { method: "POST", headers, body });
    await response.arrayBuffer();
    return response.status;
  };
}

function report(name: string, r: LoadResult) {
  const p50 = percentile(r.latenciesMs, 50);
  const p99 = percentile(r.latenciesMs, 99);
  console.log(
    `${name.padEnd(12)} sent ${r.sent}, ok ${r.ok}, failed ${r.failed}, ${(r.ok / (r.durationMs / 1000)).toFixed(0)}/s, ` +
      `p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(Math.max(...r.latenciesMs))}`,
  );
  return p99;
}

const WARM_UP = 50;
async function warmUp(send: (i: number) => Promise<number>) {
  for (let i = 0; i < WARM_UP; i++) await send(i);
}

const buildDir = await ensurePreviewBuild();
const appDatabase = await openBenchDatabase({ kind, name: "intake" });
const floorDatabase = await openBenchDatabase({ kind, name: "floor" });
const apps: PreviewServer[] = [];
for (let i = 0; i < serverCount; i++) {
  apps.push(
    await startPreviewServer({
      buildDir,
      sellerApiBaseUrl: "http://127.0.0.1:9",
      shops: [SHOP],
      env: { LOG_LEVEL: "error" },
      databaseUrl: appDatabase.url,
    }),
  );
}
const [app] = apps;
const appUrls = apps.map((a) => a.url);

// The floor: its own process, database and port, same secret.
const floorPort = await freePort();
const floor = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "bench", "lib", "floor-server.ts")], {
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
});
await new Promise<void>((resolve) => floor.stdout!.on("data", (d: Buffer) => d.toString().includes("floor ready") && resolve()));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let nextId = 6_000_000_000_000;

try {
  console.log(
    `intake benchmark: ${rate} signed orders/create webhooks per second for ${durationMs / 1000} s, loopback, 2 cores shared by ` +
      `the servers, the database and this generator, ${rounds} rounds; ${serverCount} app server(s) on ${kind}`,
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
    const load = (send: (i: number) => Promise<number>) => openLoop({ ratePerSecond: rate, durationMs, send: (i) => send(from + i) });
    p99s.floor.push(report(`floor ${round + 1}`, await load(floorSend)));
    p99s.app.push(report(`app ${round + 1}`, await load(appSend)));
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
    // Each step a fresh batch of orders (new ids): nothing is a redelivery.
    let best = 0;
    for (let step = rate; ; step = Math.round(step * 1.25)) {
      const total = Math.round((step * durationMs) / 1000);
      const send = webhookSender(appUrls, app.apiSecret, nextId, total);
      nextId += total;
      const result = await openLoop({ ratePerSecond: step, durationMs, send });
      const p99 = report(`app ${step}/s`, result);
      if (p99 >= P99_LIMIT_MS || result.failed > 0) break;
      best = step;
    }
    console.log(
      `highest rate with p99 < ${P99_LIMIT_MS} ms: ${best ? `${best}/s` : `none (already over at ${rate}/s)`} ` +
        `(${serverCount} app server(s), ${kind}; steps x1.25 from ${rate}/s, ${durationMs / 1000} s each)`,
    );
  }
} finally {
  floor.kill("SIGTERM");
  await Promise.all(apps.map((a) => a.close()));
  await appDatabase.close();
  await floorDatabase.close();
}
