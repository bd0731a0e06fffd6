/**
 * `npm run bench -- intake [--rate 200] [--seconds 10] [--rounds 3]`
 *
 * Signed orders/create webhooks at a fixed rate against the production server
 * (`server.ts` on the build) on loopback, with no worker in it so only intake
 * is measured, and the same load against the floor (authenticate.webhook + one
 * insert), taking turns. Reports throughput, p50/p99 acknowledgement latency
 * per round, and the median p99s and their ratio.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations as applyMigrationFiles } from "../lib/migrations";
import { webhookOrder } from "../lib/order-payloads";
import { ensurePreviewBuild, freePort, startPreviewServer } from "../lib/preview-server";
import { signedWebhookHeaders } from "../lib/webhook-signing";
import { ms, openLoop, percentile, type LoadResult } from "./lib/load";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    // Floor and app take turns this many times: on a shared 2-core VM one run is noisy.
    rounds: { type: "string", default: "3" },
  },
});
const rate = Number(values.rate);
const durationMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const SHOP = "atlas-beauty.myshopify.com";
const root = join(import.meta.dirname, "..", "..");
const applyMigrations = (url: string) => applyMigrationFiles(url, join(root, "prisma", "migrations"));

/**
 * Bodies and signatures are made before the clock starts: signing is Shopify's
 * work, and the generator shares the machine's two cores with the server.
 */
function webhookSender(url: string, secret: string, idBase: number, count: number) {
  const signed = Array.from({ length: count }, (_, i) => {
    const body = JSON.stringify(webhookOrder({ id: idBase + i, phone: `06${String(10000000 + i).padStart(8, "0")}` }));
    return { body, headers: signedWebhookHeaders({ topic: "orders/create", shop: SHOP, secret }, body) };
  });
  return async (i: number) => {
    const { body, headers } = signed[i];
    const response = await fetch(`${url}/webhooks/orders/create`, { method: "POST", headers, body });
    await response.arrayBuffer();
    return response.status;
  };
}

function report(name: string, r: LoadResult) {
  const p50 = percentile(r.latenciesMs, 50);
  const p99 = percentile(r.latenciesMs, 99);
  console.log(
    `${name.padEnd(8)} sent ${r.sent}, ok ${r.ok}, failed ${r.failed}, ${(r.ok / (r.durationMs / 1000)).toFixed(0)}/s, ` +
      `p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(Math.max(...r.latenciesMs))}`,
  );
  return p99;
}

const WARM_UP = 50;
async function warmUp(send: (i: number) => Promise<number>) {
  for (let i = 0; i < WARM_UP; i++) await send(i);
}

const buildDir = await ensurePreviewBuild();
const app = await startPreviewServer({ buildDir, sellerApiBaseUrl: "http://127.0.0.1:9", shops: [SHOP], env: { LOG_LEVEL: "error" } });

// The floor: its own process, database and port, same secret.
const floorDir = mkdtempSync(join(tmpdir(), "cod-floor-"));
const floorDb = `file:${join(floorDir, "floor.sqlite")}`;
await applyMigrations(floorDb);
const floorPort = await freePort();
const floor = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "bench", "lib", "floor-server.ts")], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(floorPort),
    DATABASE_URL: floorDb,
    SHOPIFY_API_KEY: app.apiKey,
    SHOPIFY_API_SECRET: app.apiSecret,
    SHOPIFY_APP_URL: `http://127.0.0.1:${floorPort}`,
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve) => floor.stdout!.on("data", (d: Buffer) => d.toString().includes("floor ready") && resolve()));

try {
  console.log(`intake benchmark: ${rate} signed orders/create webhooks per second for ${durationMs / 1000} s, loopback, 2 cores shared by the servers and this generator, ${rounds} rounds`);
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  const perRound = Math.round((rate * durationMs) / 1000);
  const count = WARM_UP + rounds * perRound;
  const appSend = webhookSender(app.url, app.apiSecret, 6_000_000_000_000, count);
  const floorSend = webhookSender(floorUrl, app.apiSecret, 7_000_000_000_000, count);
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
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [appP99, floorP99] = [median(p99s.app), median(p99s.floor)];
  console.log(
    `median p99: app ${ms(appP99)}, floor ${ms(floorP99)}, ratio app/floor ${(appP99 / floorP99).toFixed(2)} ` +
      `(target p99 < 50 ms: ${appP99 < 50 ? "met" : "NOT met"})`,
  );
} finally {
  floor.kill("SIGTERM");
  await app.close();
  rmSync(floorDir, { recursive: true, force: true });
}
