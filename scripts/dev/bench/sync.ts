/**
 * `npm run bench -- sync [--leads 10000,50000] [--cpu-prof DIR]`
 *
 * One status-sync cycle for N leads in motion, for each N given: the sandbox
 * in its own process holds N leads (their links stored as the pipeline leaves
 * them), a realistic share moved since the last cycle (20 % confirmed, 5 %
 * picked up, 2 % delivered), then one cycle runs in this process while
 * monitorEventLoopDelay watches it, as it would watch the web process when the
 * worker runs inside it. Reports list and detail calls, rows written against
 * the leads that changed, wall time, and the event-loop delay during the cycle
 * (target: under 50 ms), then a second cycle with nothing new (0 rows). The
 * set-up's garbage is collected before the cycle starts.
 * `--cpu-prof DIR` writes a CPU profile of each first cycle (sync-N.cpuprofile).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { SandboxControlError, sandboxControl, type AdvanceInput } from "../../../sandbox/index";
import { createPrismaClient } from "../../../app/db/client";
import { createSecretBox } from "../../../app/crypto/secret-box.server";
import { limitHeapGrowth } from "../../../app/runtime/process-memory.server";
import { createSellerApiClient } from "../../../app/seller-api";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { syncShopStatuses } from "../../../app/sync/status-sync.server";
import { openBenchDatabase } from "./lib/bench-database";
import { insertLinksAsTheyStand } from "../../../app/models/link-moves.server";
import { startSandboxProcess, stopChild } from "./lib/soak-world";

const { values } = parseArgs({
  options: { leads: { type: "string", default: "10000,50000" }, "cpu-prof": { type: "string" } },
});
const sizes = values
  .leads!.split(",")
  .map(Number)
  .filter((n) => n > 0);
process.env.ENCRYPTION_KEY ||= randomBytes(32).toString("base64");
process.env.SELLER_API_ALLOW_PRIVATE_HOSTS = "true";
const SHOP = "atlas-beauty.myshopify.com";
setFlagsFromString("--expose-gc");
// The web process's heap growing factor (server.ts): its full collections come as often.
limitHeapGrowth();
const collectGarbage = runInNewContext("gc") as () => void;
const NO_WRITE_BACK = { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } };

/** Runs work over items with `lanes` in flight at once. */
async function inParallel<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

async function benchOne(N: number) {
  const dir = mkdtempSync(join(tmpdir(), "cod-sync-"));
  const database = await openBenchDatabase();
  // The measuring process plays the web process: its one client, as the app's (app/db.server.ts).
  const db = createPrismaClient(database.url);
  // No autopilot: only the bench's own moves change statuses.
  const sandbox = await startSandboxProcess(dir, 10_000_000, { autopilot: false });
  try {
    const control = sandboxControl(sandbox.url);
    const shop = await db.shop.create({
      data: {
        domain: SHOP,
        sellerApiKeyCipher: createSecretBox(process.env.ENCRYPTION_KEY!).seal(sandbox.key, {
          shop: SHOP,
          purpose: "seller-api-key",
        }),
        sellerApiKeyLast4: sandbox.key.slice(-4),
        sellerApiBaseUrl: sandbox.url,
        rateLimitPerMinute: 10_000_000,
        keyVerifiedAt: new Date(),
        settings: JSON.stringify(NO_WRITE_BACK),
      },
    });
    // N leads on the platform and their links, as the pipeline would have left them.
    const t0 = performance.now();
    const client = createSellerApiClient({ baseUrl: sandbox.url, apiKey: sandbox.key });
    const now = new Date();
    const refs: string[] = new Array(N);
    await inParallel(
      Array.from({ length: N }, (_, i) => i),
      16,
      async (i) => {
        const answer = await client.createLead({
          customer_name: "Client Sync",
          customer_phone: `06${String(40000000 + i).padStart(8, "0")}`,
          city: 101,
          total_client: "199.00",
          items: [{ sku: "ARG-OIL-100", quantity: 1 }],
          external_ref: `shopify:${5_590_000_000_000 + i} #S${i}`,
        });
        refs[i] = answer.ref!;
      },
    );
    for (let from = 0; from < N; from += 1000) {
      await insertLinksAsTheyStand(
        db,
        refs.slice(from, from + 1000).map((ref, k) => ({
          shop: SHOP,
          orderId: String(5_590_000_000_000 + from + k),
          orderName: `#S${from + k}`,
          payload: "{}",
          externalRef: `shopify:${5_590_000_000_000 + from + k} #S${from + k}`,
          state: "created",
          leadRef: ref,
          confirmationStatus: "new",
          shippingStatus: "pending",
          postedAt: now,
        })),
      );
    }
    // Moves since the last cycle: 20 % confirmed, 5 % picked up (tracking number due), 2 % delivered (profit due).
    const moves: { ref: string; steps: AdvanceInput[] }[] = [];
    for (const [i, ref] of refs.entries()) {
      const steps: AdvanceInput[] = [];
      if (i % 5 === 0) steps.push({ confirmation_status: "confirmed" });
      if (i % 20 === 0 || i % 50 === 0) steps.push({ shipping_status: "picked_up" });
      if (i % 50 === 0) steps.push({ shipping_status: "shipped" }, { shipping_status: "delivered" });
      if (steps.length) moves.push({ ref, steps });
    }
    await inParallel(moves, 16, async ({ ref, steps }) => {
      for (const step of steps) {
        try {
          await control.advance(ref, step);
        } catch (error) {
          // A kept-alive connection closed by the sandbox as the request went out: once more.
          if (!(error instanceof TypeError)) throw error;
          await control.advance(ref, step).catch((again: unknown) => {
            if (!(again instanceof SandboxControlError)) throw again; // the first one had landed
          });
        }
      }
    });
    console.log(
      `${N} leads in motion: set up in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${moves.length} moved since the last cycle`,
    );

    // The set-up (N leads over HTTP, their links, the moves) leaves hundreds of MB of garbage
    // that a web process would not carry: collected first, so the cycle's pauses are its own.
    collectGarbage();
    const deps = createPipelineDeps(db);
    const profiler = values["cpu-prof"] ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const report = await syncShopStatuses(deps, shop, deps.connect(shop).client);
    loop.disable();
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      mkdirSync(values["cpu-prof"]!, { recursive: true });
      writeFileSync(join(values["cpu-prof"]!, `sync-${N}.cpuprofile`), JSON.stringify(profile));
      profiler.disconnect();
    }
    const p99 = loop.percentile(99) / 1e6;
    const max = loop.max / 1e6;
    const second = await syncShopStatuses(deps, shop, deps.connect(shop).client);
    const row = {
      leadsInMotion: N,
      changed: moves.length,
      listCalls: report.listCalls,
      detailCalls: report.detailCalls,
      rowsWritten: report.rowsWritten,
      rowsEqualChanged: report.rowsWritten === moves.length,
      wallMs: report.wallMs,
      eventLoopP99Ms: Number(p99.toFixed(1)),
      eventLoopMaxMs: Number(max.toFixed(1)),
      under50ms: max < 50,
      nextCycleRowsWritten: second.rowsWritten,
      nextCycleWallMs: second.wallMs,
    };
    console.log(
      `one cycle: ${row.listCalls} list calls, ${row.detailCalls} detail calls, ${row.rowsWritten} rows written for ${row.changed} changed ` +
        `(${row.rowsEqualChanged ? "equal" : "NOT equal"}), ${row.wallMs} ms; event loop p99 ${row.eventLoopP99Ms} ms, max ${row.eventLoopMaxMs} ms ` +
        `(target < 50 ms: ${row.under50ms ? "met" : "NOT met"}); next cycle: ${row.nextCycleRowsWritten} rows, ${row.nextCycleWallMs} ms`,
    );
    return row;
  } finally {
    await stopChild(sandbox.child);
    await db.$disconnect();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const N of sizes) rows.push(await benchOne(N));
console.log(JSON.stringify(rows, null, 2));
