/**
 * The CI proof of `npm run demo`: the whole app (production build, its worker
 * process, sandbox, Shopify Admin stand-in, Meta's and TikTok's stand-ins,
 * embedded PostgreSQL) runs the built-in orders, every order ends as its file
 * expects, what the app wrote back shows on the stand-in's orders, and the
 * events the ad stand-ins accepted are those the orders' outcomes call for.
 * Runs the demo as a child process, exactly as a reviewer would.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readOrderFiles } from "../../../scripts/dev/lib/order-files";
import { freePort } from "../../../scripts/lib/ports";
import { BUILT_IN_ORDERS_DIR, expectationsOf } from "../../../scripts/dev/demo/run-demo";
import {
  compareWithExpectations,
  describeMismatch,
  type AdEventSummary,
  type OrderSummary,
} from "../../../scripts/dev/demo/summary";

const root = join(import.meta.dirname, "..", "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "cod-demo-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * The events an order's outcome calls for under the demo's feed (delivered counts, refusals and returns told too,
 * every order told from customer data), to both platforms: what the stand-ins must have accepted for the statuses
 * the summary shows beside them.
 */
function expectedAdEvents(row: OrderSummary): AdEventSummary[] {
  if (row.state !== "created" && row.state !== "damaged") return [];
  const shipping = row.shipping_status ?? "pending";
  const parcel = ["shipped", "delivered", "paid", "returned"].includes(shipping);
  const event =
    shipping === "delivered" || shipping === "paid"
      ? "CODDelivered"
      : shipping === "returned"
        ? "CODReturned"
        : row.confirmation_status === "canceled" && !parcel
          ? "CODRefused"
          : null;
  return event
    ? [
        { platform: "meta", event },
        { platform: "tiktok", event },
      ]
    : [];
}

function runDemo(args: string[], timeoutMs: number) {
  const child = spawn(
    process.execPath,
    [join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/dev/demo.ts", ...args],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const killer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe("npm run demo -- --json", () => {
  it("runs the built-in orders through the whole app and each ends as expected", async () => {
    const deliveries = readOrderFiles(BUILT_IN_ORDERS_DIR);
    const expected = expectationsOf(deliveries);
    const [port, sandboxPort, shopifyAdminPort, metaPort, tiktokPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];

    const run = await runDemo(
      [
        "--json",
        // The demo's own wait for every order to settle: a bound for a broken run, not a speed.
        "--timeout",
        "600",
        "--port",
        String(port),
        "--sandbox-port",
        String(sandboxPort),
        "--shopify-admin-port",
        String(shopifyAdminPort),
        "--meta-port",
        String(metaPort),
        "--tiktok-port",
        String(tiktokPort),
        "--data-dir",
        dataDir,
      ],
      660_000,
    );

    expect(run.code, run.stderr).toBe(0);
    // The URL of its database, for any tool to query while it runs; the server's data under --data-dir.
    expect(run.stderr).toMatch(
      /Database: postgresql:\/\/postgres:\w+@127\.0\.0\.1:\d+\/cod_lead_sync_demo \(PostgreSQL, embedded\); its data in \S+\/postgres, kept between runs/,
    );
    // stdout is the JSON array and nothing else; progress went to stderr.
    const rows = JSON.parse(run.stdout) as OrderSummary[];
    expect(run.stderr).toMatch(/\[\d+\/38\] #1036 damaged ATB-\d+/);
    // #1038's webhook is lost on purpose: the reconciliation (every 15 s in the demo) took it in, and it was sent.
    expect(run.stderr).toMatch(
      /Recovered by the reconciliation: #1038 \(its webhook never reached the app\) was taken in \d+ s after it was placed .*then created/,
    );
    expect(rows.map((r) => r.order_id).sort()).toEqual([...expected.keys()].sort());
    expect(compareWithExpectations(rows, expected).map(describeMismatch)).toEqual([]);

    // The shop was installed by the app itself, through the stand-in's token exchange.
    expect(run.stderr).toMatch(/installed through the token exchange/);
    // The conversion feed: both platforms connected through their stand-ins on the ports given, and on.
    expect(run.stderr).toContain(
      `Meta and TikTok stand-ins: http://127.0.0.1:${metaPort} (Conversions API), http://127.0.0.1:${tiktokPort} (Events API)`,
    );
    expect(run.stderr).toMatch(
      /Conversion feed: on, Meta \(dataset Atlas Beauty COD \d+, token •••• \S{4}\) and TikTok \(pixel [A-Z0-9]+, token •••• \S{4}\) verified by their stand-ins/,
    );
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        "ad_events",
        "anomalies",
        "city_id",
        "confirmation_status",
        "customer_hold",
        "findings",
        "flow_triggers",
        "items",
        "lead_ref",
        "order_id",
        "order_name",
        "phone",
        "shipping_status",
        "shopify",
        "state",
        "total_client",
      ]);
      const posted = row.state === "created" || row.state === "damaged";
      expect(row.lead_ref !== null, row.order_name).toBe(posted);
      if (posted) expect(row.confirmation_status, row.order_name).toBeTypeOf("string");
      // Every replayed order exists in the stand-in; a lead's ref and status were written back as tags.
      expect(row.shopify, row.order_name).not.toBeNull();
      const tags = row.shopify!.tags.map((t) => t.toLowerCase());
      if (posted) expect(tags, row.order_name).toContain(`cod:lead:${row.lead_ref!.toLowerCase()}`);
      else
        expect(
          tags.filter((t) => t.startsWith("cod:")),
          row.order_name,
        ).toEqual([]);
      if (row.state === "damaged") expect(tags, row.order_name).toContain("cod:anomaly");
      // Shopify Flow got the lead's creation once, and an attention trigger for each order kept back.
      // (A cancelled order keeps what fired before its cancellation.)
      const created = row.flow_triggers!.filter((t) => t === "lead-created");
      if (row.state !== "cancelled") expect(created, row.order_name).toHaveLength(posted ? 1 : 0);
      if (row.state === "held" || row.state === "damaged")
        expect(row.flow_triggers, row.order_name).toContain(`order-needs-attention ${row.state}`);
      if (row.state === "skipped") expect(row.flow_triggers, row.order_name).toEqual([]);
      // What the stand-ins accepted is what the order's outcome so far calls for: nothing before its parcel is
      // delivered, returned or refused on the phone (the autopilot takes minutes), then one event per platform.
      const byPlatform = (events: readonly AdEventSummary[]) =>
        [...events].sort((a, b) => `${a.platform}${a.event}`.localeCompare(`${b.platform}${b.event}`));
      expect(byPlatform(row.ad_events!), row.order_name).toEqual(byPlatform(expectedAdEvents(row)));
    }
    // The last lines count them.
    const told = rows.flatMap((r) => r.ad_events!);
    expect(run.stderr).toContain(
      told.length === 0
        ? "Conversion feed: no event accepted by Meta's or TikTok's stand-in yet."
        : `Conversion feed: ${told.length} event${told.length === 1 ? "" : "s"} accepted for `,
    );
    const byName = new Map(rows.map((r) => [r.order_name, r]));
    // Phones typed every way reach the platform as 06/07 numbers.
    expect(byName.get("#1015")?.phone).toBe("0661234515");
    expect(byName.get("#1016")?.phone).toBe("0770112216");
    expect(byName.get("#1018")?.phone).toBe("0661234518");
    // Arabic and misspelled cities resolve to platform cities.
    expect(byName.get("#1009")?.city_id).toBe(101);
    expect(byName.get("#1010")?.city_id).toBe(126);
    expect(byName.get("#1012")?.city_id).toBe(101);
    // Multi-item and variant orders keep every item.
    expect(byName.get("#1006")?.items).toEqual([
      { sku: "ARG-OIL-50", quantity: 1 },
      { sku: "SAVON-NOIR-200", quantity: 2 },
      { sku: "GHASSOUL-500", quantity: 1 },
    ]);
    expect(byName.get("#1008")?.items).toEqual([
      { sku: "DJELLABA-M-M", quantity: 1 },
      { sku: "DJELLABA-M-L", quantity: 1 },
    ]);
    // The amount to collect is the MAD total, also for a shop in EUR charging in MAD.
    expect(byName.get("#1001")?.total_client).toBe("229.00");
    expect(byName.get("#1029")?.total_client).toBe("148.00");
    // Cancelled in Shopify, at creation or later: the stand-in shows it, and nothing was paid.
    for (const name of ["#1031", "#1034", "#1035"]) expect(byName.get(name)?.shopify?.cancelled, name).toBe(true);
    // Held for its missing SKU, then cancelled: Flow heard of the hold, and of no lead.
    expect(byName.get("#1034")?.flow_triggers).toEqual(["order-needs-attention held"]);
    // Sent, then cancelled: Flow heard of its delivery odds and of the lead (two jobs, in either order).
    expect(byName.get("#1035")?.flow_triggers).toEqual(
      expect.arrayContaining(["delivery-odds-scored", "lead-created"]),
    );
    expect(byName.get("#1001")?.shopify).toMatchObject({ cancelled: false, financial_status: "PENDING", paid: false });
    // The returning customer with a bad record: her new order is held by the customer hold (on in the demo), and the summary says so.
    expect(rows.filter((r) => r.customer_hold).map((r) => [r.order_name, r.state, r.customer_hold])).toEqual([
      ["#1037", "held", "1 refused, 1 returned and 1 cancelled or fake in the last 90 days"],
    ]);
    expect(byName.get("#1037")?.phone).toBe("0661234537");
    expect(run.stderr).toContain(
      "Customer hold: #1037 held before sending, its returning customer's record says 1 refused, 1 returned and 1 cancelled or fake in the last 90 days.",
    );
  }, 720_000);

  it("names the busy port and how to choose another", async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, "127.0.0.1", () => resolve((busy.address() as { port: number }).port)),
    );
    try {
      const run = await runDemo(
        ["--json", "--port", String(port), "--sandbox-port", String(await freePort()), "--data-dir", dataDir],
        120_000,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Port ${port} is in use: choose another with --port`);
      expect(run.stdout).toBe("");
    } finally {
      busy.close();
    }
  }, 150_000);
});
