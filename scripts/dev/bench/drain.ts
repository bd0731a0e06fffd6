/**
 * `npm run bench -- drain [--orders 100] [--rate 200] [--workers 2] [--database sqlite|postgres] [--cpu-prof DIR]`
 *
 * N orders queued, the sandbox's limit at R calls a minute, and W worker
 * processes (`worker.ts`) sharing the key through the database's rate
 * limiter. Reports the drain time over N/R (target at most 1.05) and the
 * number of 429 answers (target 0). The catalogue and cities are cached
 * before the clock starts, as they are in steady state (read once a day).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox, sandboxControl } from "../../../sandbox/index";
import { connectShop, SHOP } from "../lib/connected-shop";
import { webhookOrder } from "../lib/order-payloads";
import { createPrismaClient } from "../../../app/db/client";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { ensureReferenceData } from "../../../app/sync/reference-data.server";
import { intakeOrderCreated } from "../../../app/sync/order-intake.server";
import { benchDatabaseKind, openBenchDatabase } from "./lib/bench-database";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "100" },
    rate: { type: "string", default: "200" },
    workers: { type: "string", default: "2" },
    database: { type: "string", default: "sqlite" },
    // Each worker writes a V8 CPU profile there when it exits (open in Chrome DevTools).
    "cpu-prof": { type: "string" },
  },
});
const N = Number(values.orders);
const R = Number(values.rate);
const W = Number(values.workers);
const root = join(import.meta.dirname, "..", "..", "..");
process.env.ENCRYPTION_KEY ||= "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=";

const database = await openBenchDatabase({ kind: benchDatabaseKind(values.database), name: "drain" });
const url = database.url;
const db = createPrismaClient(url);
const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: R });
const control = sandboxControl(sandbox.url);
const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
const workers: ChildProcess[] = [];
const profile = values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof"]}`] : [];

try {
  const shop = await connectShop(db, {
    apiKey: key.key,
    baseUrl: sandbox.url,
    // No Shopify beside the bench: write-back and Flow triggers (Admin API calls) off.
    settings: {
      writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
      flowTriggers: { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false },
    },
  });
  // Steady state: reference lists cached (through the shared limiter, so the pace holds).
  const deps = createPipelineDeps(db);
  await ensureReferenceData(db, shop, deps.connect(shop).client, { now: new Date() });
  for (let i = 0; i < N; i++) {
    const body = webhookOrder({ id: 5_580_000_000_000 + i, phone: `06${String(30000000 + i).padStart(8, "0")}` });
    await db.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
  }

  console.log(`drain benchmark: ${N} queued orders, limit ${R}/min, ${W} worker processes, ${database.kind}`);
  const started = Date.now();
  for (let w = 0; w < W; w++) {
    workers.push(
      spawn(process.execPath, [...profile, "--import", "tsx", join(root, "worker.ts")], {
        cwd: root,
        env: { ...process.env, NODE_ENV: "production", SELLER_API_ALLOW_PRIVATE_HOSTS: "true", DATABASE_URL: url, LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "inherit"],
      }),
    );
  }
  // Three times the ideal, and at least 10 leads a second when the key's limit is out of the way.
  const deadline = started + Math.max((N / R) * 60_000 * 3, N * 100) + 30_000;
  while (Date.now() < deadline) {
    const settled = await db.orderLink.count({ where: { state: { in: ["created", "damaged"] } } });
    if (settled === N) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const calls = (await control.getKey(key.id)).calls;
  const posts = calls.filter((c) => c.method === "POST" && c.path.startsWith("/v1/leads") && c.status < 300);
  const first = Date.parse(calls.find((c) => Date.parse(c.at) >= started)?.at ?? new Date(started).toISOString());
  const last = Math.max(...posts.map((c) => Date.parse(c.at)));
  const ideal = (N / R) * 60_000;
  const span = last - first + 60_000 / R; // the last call's own slot counts
  const settled = await db.orderLink.count({ where: { state: { in: ["created", "damaged"] } } });
  console.log(`settled ${settled}/${N}; ${calls.filter((c) => Date.parse(c.at) >= started).length} calls after start, ${calls.filter((c) => c.status === 429).length} answered 429`);
  console.log(`drain span ${(span / 1000).toFixed(1)} s for an ideal N/R of ${(ideal / 1000).toFixed(1)} s: ratio ${(span / ideal).toFixed(3)} (target <= 1.05)`);
  console.log(`throughput ${(posts.length / ((last - first) / 1000)).toFixed(1)} leads/s over the span (the workers' own speed when the limit is higher)`);
  console.log(`wall time including worker start-up: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.on("exit", r)))));
  await sandbox.close();
  await db.$disconnect();
  await database.close();
}
