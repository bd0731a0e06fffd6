/**
 * A reconciliation pass cannot loop forever on Shopify's pagination: when a page says
 * more orders follow (`hasNextPage: true`) but gives no cursor, or the cursor it was asked
 * with, the same page would come back at every call, each attempt yielding after 20
 * pages with no attempt counted, spending the shop's Shopify budget and a worker for
 * ever. Through the Shopify Admin stand-in answering so (faults no_cursor and
 * same_cursor on ReconcileOrders), the sandbox and the worker: the pass ends, takes in
 * what it read, queues the next one an interval later, and that one reads on from the
 * last order seen once Shopify answers well again.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { brokenNextPage, MAX_PAGES_PER_PASS } from "../../app/sync/reconcile/pass.server";
import { webhookOrder } from "../helpers/orders";
import { SHOP } from "../helpers/pipeline";
import { RECONCILE_TEST_CONFIG as CONFIG, useReconcileWorld } from "../helpers/reconcile-world";

const world = useReconcileWorld({ installedAgoMs: 3600_000 });
let nextId = 7_490_000_000_000;

beforeEach(() => world().control.clearFaults());

/** One pass now and the jobs it queued: a pass that never ends fails the drain (2 minutes, a loaded machine's pass takes seconds). */
const reconcileOrFail = () => world().reconcile(120_000);

async function placeLost(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = nextId++;
    await world().control.placeOrder(SHOP, webhookOrder({ id, phone: `06${String(id).slice(-8)}` }), {
      deliver: false,
    });
    ids.push(String(id));
  }
  return ids;
}

const linked = async (ids: string[]) =>
  world().db.prisma.orderLink.count({ where: { shop: SHOP, orderId: { in: ids } } });
const indexCalls = async () => (await world().control.calls({ shop: SHOP, operation: "ReconcileOrders" })).length;

describe("Shopify's pagination with no way forward", () => {
  for (const fault of ["no_cursor", "same_cursor"] as const) {
    it(`GIVEN every page says more follow with ${fault === "no_cursor" ? "no cursor" : "the cursor it was asked for"} WHEN a pass runs THEN it ends, takes in what it read, and comes back an interval later`, async () => {
      const lost = await placeLost(3);
      await world().control.addFault({ kind: fault, shop: SHOP, operation: "ReconcileOrders", times: null });
      const before = await indexCalls();

      await reconcileOrFail();

      // Two pages at most (the same_cursor fault gives a real cursor once), not one every call for ever.
      expect((await indexCalls()) - before).toBeLessThanOrEqual(2);
      expect(await linked(lost)).toBe(3);
      const job = await world().db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
      expect(JSON.parse(job.payload)).toEqual({});
      expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + CONFIG.intervalMs / 2);

      // Shopify answers well again: the next pass reads on and finds a later order.
      await world().control.clearFaults();
      const later = await placeLost(1);
      await reconcileOrFail();
      expect(await linked(later)).toBe(1);
    }, 300_000);
  }

  it("names why a page cannot lead on, and bounds a pass that never stops saying more follow", () => {
    expect(brokenNextPage({ hasNextPage: false, endCursor: null }, "c1", 3)).toBeNull();
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c2" }, "c1", 3)).toBeNull();
    expect(brokenNextPage({ hasNextPage: true, endCursor: null }, "c1", 3)).toBe("no cursor");
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c1" }, "c1", 3)).toBe("the same cursor again");
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c9" }, "c8", MAX_PAGES_PER_PASS)).toMatch(/reached/);
  });
});
