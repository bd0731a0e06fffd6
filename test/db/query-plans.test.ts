/**
 * The plans of hot statements whose cost would otherwise grow with the shop's
 * history: each reads the index made for it, on the real migrated schema.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { RECENT_LEADS } from "../../app/sync/post-lead.server";
import { leaseBatch } from "../../app/queue/job-sql";
import { sqlOf, type SqlStatement } from "../../app/db/sql";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});

/** The plan of `s`; on the empty tables, the plan an index allows (an empty table is read whole by choice). */
async function plan(s: SqlStatement, params: unknown[], options: { emptyTables: boolean } = { emptyTables: true }) {
  return t.prisma.$transaction(async (tx) => {
    if (options.emptyTables) await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${s.text}`, ...params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

it("the duplicate check reads a phone's leads by (shop, phone, postedAt), not every lead of the shop in the window", async () => {
  const text = await plan(RECENT_LEADS, ["shop.myshopify.com", "+212612345678", new Date(), "link"]);
  expect(text).toMatch(/Index Scan Backward using "OrderLink_shop_phone_postedAt_idx"/);
});

it("a batch's claim reads the shop's due pending jobs by (shop, state, runAt)", async () => {
  const now = new Date();
  const lease = { owner: "owner", leaseExpiresAt: now, now };
  const sent = await statementsOf(
    () => leaseBatch(sqlOf(t.prisma), lease, { shop: "shop.myshopify.com", kind: "write-back", limit: 24 }),
    /"picked"/,
  );
  expect(sent).toHaveLength(1);
  const text = await plan({ text: sent[0].text, name: "" }, sent[0].values);
  expect(text).toMatch(/Index Scan using "Job_shop_state_runAt_idx"/);
});

/** The statements `work` sends through node-postgres whose text matches `pattern`, with their values. */
async function statementsOf(work: () => Promise<unknown>, pattern: RegExp) {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const { text, values } = (typeof config === "string" ? { text: config } : config) as {
      text?: string;
      values?: unknown[];
    };
    if (text && pattern.test(text)) sent.push({ text, values: values ?? [] });
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

describe("the Orders page, on a shop of 20,000 orders (the planner's statistics taken)", () => {
  const SHOP = "plans.myshopify.com";
  beforeAll(async () => {
    // Names #1..#20000, lead refs ATB-1..., a few held and failed among the created.
    await t.prisma
      .$executeRawUnsafe(`INSERT INTO "OrderLink" ("id", "shop", "orderId", "orderName", "payload", "externalRef",
        "leadRef", "phone", "state", "createdAt", "updatedAt")
      SELECT 'plan' || i, '${SHOP}', i::text, '#' || i, '{}', 'shopify:' || i, 'ATB-' || i, '06' || lpad((i * 7919 % 100000000)::text, 8, '0'),
        CASE WHEN i % 97 = 0 THEN 'held' WHEN i % 89 = 0 THEN 'failed' ELSE 'created' END,
        now() - i * interval '1 minute', now() - i * interval '1 minute'
      FROM generate_series(1, 20000) AS i`);
    await t.prisma.$executeRawUnsafe(`ANALYZE "OrderLink"`);
  });

  it("reads the several readings of a search through each one's index, one statement ORing them", async () => {
    const { queryOrders } = await import("../../app/pages/orders.server");
    const request = { states: [], confirmation: [], shipping: [], issues: [], query: "1001" };
    // "1001" reads as an order name, "#1001" and a lead reference.
    const sent = await statementsOf(() => queryOrders(t.prisma, SHOP, request), /"leadRef" >= /);
    expect(sent.length).toBeGreaterThan(0);
    for (const s of sent) {
      const text = await plan({ text: s.text, name: "" }, s.values, { emptyTables: false });
      expect(text).toMatch(/BitmapOr/);
      expect(text).toMatch(/Bitmap Index Scan on "OrderLink_shop_orderName_idx"/);
      expect(text).toMatch(/Bitmap Index Scan on "OrderLink_shop_leadRef_idx"/);
    }
  });

  it("counts the matches of several states through their index, never walking the primary key past the shop's other orders", async () => {
    const { queryOrders } = await import("../../app/pages/orders.server");
    const request = { states: ["held" as const, "failed" as const], confirmation: [], shipping: [], issues: [] };
    const sent = await statementsOf(() => queryOrders(t.prisma, SHOP, request), /COUNT\(\*\)/);
    expect(sent).toHaveLength(1);
    const text = await plan({ text: sent[0].text, name: "" }, sent[0].values, { emptyTables: false });
    expect(text).toMatch(/Bitmap Index Scan on "OrderLink_shop_state_updatedAt_cancelledAt_createdAt_totalC_idx"/);
    expect(text).not.toMatch(/OrderLink_pkey/);
  });

  it("reads the states filtered on through the (shop, state, ...) index", async () => {
    const { queryOrders } = await import("../../app/pages/orders.server");
    const request = { states: ["held" as const, "failed" as const], confirmation: [], shipping: [], issues: [] };
    const sent = await statementsOf(() => queryOrders(t.prisma, SHOP, request), /"state" = /);
    expect(sent.length).toBeGreaterThan(0);
    for (const s of sent) {
      expect(await plan({ text: s.text, name: "" }, s.values, { emptyTables: false })).toMatch(
        /Index (Only )?Scan[^\n]* on "OrderLink_shop_state_updatedAt_cancelledAt_createdAt_totalC_idx"/,
      );
    }
  });
});
