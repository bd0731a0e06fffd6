/**
 * `npm run bench -- sync [--leads 1000]`
 *
 * API calls of one status-sync cycle for N tracked leads, with a realistic
 * spread of moves since the last cycle (some confirmed, some picked up, some
 * delivered). Target: at most 1 list call per 100 tracked leads, plus a detail
 * call only for the leads that need a field the list lacks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox, sandboxControl, type AdvanceInput } from "../../sandbox/index";
import { applyMigrations } from "../../test/helpers/db";
import { connectTestShop, SHOP } from "../../test/helpers/pipeline";
import { createPrismaClient } from "../../app/db-client";
import { createSellerApiClient } from "../../app/seller-api";
import { createPipelineDeps } from "../../app/sync/pipeline-deps.server";
import { syncShopStatuses } from "../../app/sync/status-sync.server";

const { values } = parseArgs({ options: { leads: { type: "string", default: "1000" } } });
const N = Number(values.leads);
process.env.ENCRYPTION_KEY ||= "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=";

const dir = mkdtempSync(join(tmpdir(), "cod-sync-"));
const url = `file:${join(dir, "sync.sqlite")}`;
await applyMigrations(url);
const db = createPrismaClient(url);
const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 1_000_000 });
const control = sandboxControl(sandbox.url);
const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;

try {
  const shop = await connectTestShop(db, { apiKey: key.key, baseUrl: sandbox.url });
  // N leads on the platform and their links, as the pipeline would have left them.
  const client = createSellerApiClient({ baseUrl: sandbox.url, apiKey: key.key });
  const now = new Date();
  const rows = [];
  for (let i = 0; i < N; i++) {
    const externalRef = `shopify:${5_590_000_000_000 + i} #S${i}`;
    const answer = await client.createLead({
      customer_name: "Client Sync",
      customer_phone: `06${String(40000000 + i).padStart(8, "0")}`,
      city: 101,
      total_client: "199.00",
      items: [{ sku: "ARG-OIL-100", quantity: 1 }],
      external_ref: externalRef,
    });
    rows.push({
      shop: SHOP,
      orderId: String(5_590_000_000_000 + i),
      orderName: `#S${i}`,
      payload: "{}",
      externalRef,
      state: answer.kind,
      leadRef: answer.ref ?? null,
      confirmationStatus: "new",
      shippingStatus: "pending",
      postedAt: now,
    });
  }
  await db.orderLink.createMany({ data: rows });

  // Moves since the last cycle: 20% confirmed, 5% picked up (tracking number due), 2% delivered (profit due).
  let moved = 0;
  const expectDetail = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const ref = row.leadRef!;
    const steps: AdvanceInput[] = [];
    if (i % 5 === 0) steps.push({ confirmation_status: "confirmed" });
    if (i % 20 === 0 || i % 50 === 0) steps.push({ shipping_status: "picked_up" });
    if (i % 50 === 0) steps.push({ shipping_status: "shipped" }, { shipping_status: "delivered" });
    for (const step of steps) await control.advance(ref, step);
    if (steps.length) moved++;
    if (i % 20 === 0 || i % 50 === 0) expectDetail.add(ref);
  }

  const deps = createPipelineDeps(db);
  const startedAt = Date.now();
  const t0 = performance.now();
  const report = await syncShopStatuses(deps, shop, deps.connect(shop).client);
  const elapsed = performance.now() - t0;
  // The sandbox keeps the key's recent calls: take those made during the cycle.
  const calls = (await control.getKey(key.id)).calls.filter((c) => Date.parse(c.at) >= startedAt);
  const list = calls.filter((c) => c.path.startsWith("/v1/leads?")).length;
  const detail = calls.filter((c) => /^\/v1\/leads\/[^?]/.test(c.path)).length;
  console.log(`sync benchmark: ${N} tracked leads, ${moved} moved since the last cycle, ${expectDetail.size} need a detail`);
  console.log(
    `one cycle: ${list} list calls (target <= ${Math.ceil(N / 100)}), ${detail} detail calls (needed: ${expectDetail.size}), ` +
      `${calls.filter((c) => c.path === "/v1/me").length} me call(s), ${report.updated} links updated, ${elapsed.toFixed(0)} ms`,
  );
  const second = await syncShopStatuses(deps, shop, deps.connect(shop).client);
  console.log(`cycle report: ${JSON.stringify(report)}`);
  console.log(`next cycle with nothing new: ${second.listCalls} list calls, ${second.detailCalls} detail calls, ${second.tracked} tracked`);
} finally {
  await sandbox.close();
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}
