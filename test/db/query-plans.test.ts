/**
 * The plans of hot statements whose cost would otherwise grow with the shop's
 * history: each reads the index made for it, on the real migrated schema.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { RECENT_LEADS } from "../../app/sync/post-lead.server";
import { CLAIM_BATCH } from "../../app/queue/job-sql";
import type { SqlStatement } from "../../app/db/sql";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});

async function plan(s: SqlStatement, params: unknown[]): Promise<string> {
  // An empty table is read whole by choice: ask for the plan an index allows.
  return t.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
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
  const text = await plan(CLAIM_BATCH, ["shop.myshopify.com", now, "write-back", 24, "owner", now, now]);
  expect(text).toMatch(/Index Scan using "Job_shop_state_runAt_idx"/);
});
