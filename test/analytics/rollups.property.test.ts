/**
 * The rollups kept by the lead-events handler equal a recount from the raw rows
 * (OrderLink, and the timeline for delivery days) after any sequence of changes:
 * orders arriving, answered (created or damaged), kept back, status moves written
 * by the real status-sync writer (with seller profit), reopened, cancelled. The
 * rebuild command gives the same rows, page by page or as a reset, also after an
 * order was erased outside the pipeline. Real database; fixed seed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import {
  addFact,
  factOf,
  nonZero,
  rollupKeyString,
  type Grain,
  type RollupDelta,
} from "../../app/analytics/contribution";
import { deliveredDaysFromTimeline, LINK_FIELDS, rebuildRollups } from "../../app/analytics/rollups.server";
import { applyLeadEvents, tellPendingLeadEvents } from "../../app/sync/lead-events.server";
import { writeStatusChanges, type TrackedLink } from "../../app/sync/status-sync.server";
import type { PipelineDeps } from "../../app/sync/pipeline-deps.server";
import { snapshotOf } from "../../app/models/lead-events";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;

let database: TestDatabase;
let db: PrismaClient;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.prisma;
});
afterAll(() => database?.cleanup());

const CITIES = [101, 102, 103, null] as const;
const PRODUCTS = ["product:1001", "product:1002", "sku:KAFTAN-RED"] as const;
const CONFIRMATIONS = [
  "new",
  "callback",
  "no_answer_1",
  "no_answer_3",
  "confirmed",
  "canceled",
  "wrong",
  "fake",
  "duplicate",
] as const;
const SHIPPINGS = ["pending", "picked_up", "shipped", "delivered", "returned", "canceled", "paid"] as const;

type Action =
  | { kind: "create"; hours: number }
  | { kind: "answer"; pick: number; damaged: boolean; city: (typeof CITIES)[number]; products: string[]; total: string }
  | { kind: "stop"; pick: number; to: "held" | "skipped" | "invalid" | "failed" | "cancelled" }
  | { kind: "status"; picks: number[]; confirmation: string; shipping: string; profit: string | null; hours: number }
  | { kind: "reopen"; pick: number }
  | { kind: "cancel"; pick: number };

const amount = fc
  .tuple(fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 0, max: 99 }))
  .map(([w, c]) => `${w}.${String(c).padStart(2, "0")}`);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("create" as const), hours: fc.integer({ min: 0, max: 60 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("answer" as const),
      pick: fc.nat(),
      damaged: fc.boolean(),
      city: fc.constantFrom(...CITIES),
      products: fc.subarray([...PRODUCTS]),
      total: amount,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("stop" as const),
      pick: fc.nat(),
      to: fc.constantFrom("held", "skipped", "invalid", "failed", "cancelled"),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("status" as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      // Mostly forward moves, so that many runs reach delivered parcels.
      confirmation: fc.oneof(
        { weight: 3, arbitrary: fc.constant("confirmed") },
        { weight: 2, arbitrary: fc.constantFrom(...CONFIRMATIONS) },
      ),
      shipping: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom("delivered", "paid") },
        { weight: 3, arbitrary: fc.constantFrom(...SHIPPINGS) },
      ),
      profit: fc.option(amount.map((a) => (a.startsWith("1") ? `-${a}` : a))),
      hours: fc.integer({ min: 1, max: 100 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reopen" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
);

let runs = 0;

/** Plays the actions as the pipeline does: each change and its lead event in one transaction. */
async function play(shop: string, actions: Action[]): Promise<void> {
  let clock = Date.parse("2026-03-01T08:00:00Z");
  const ids: string[] = [];
  const deps = { db, now: () => new Date(clock) } as unknown as PipelineDeps;
  const pickLink = async (pick: number, states: string[]) => {
    const candidates = await db.orderLink.findMany({
      where: { shop, state: { in: states } },
      orderBy: { orderId: "asc" },
    });
    return candidates.length ? candidates[pick % candidates.length] : null;
  };
  for (const a of actions) {
    if (a.kind === "create") {
      clock += a.hours * 3_600_000;
      const n = ids.length + 1;
      // As the webhook intake stores it: no event (not counted while being processed).
      const link = await db.orderLink.create({
        data: {
          shop,
          orderId: String(n).padStart(4, "0"),
          orderName: `#${n}`,
          payload: "{}",
          externalRef: `shopify:${n}`,
          createdAt: new Date(clock),
        },
      });
      ids.push(link.id);
    } else if (a.kind === "answer") {
      const link = await pickLink(a.pick, ["received"]);
      if (!link) continue;
      // The mapping writes city, products and amount before the post (no event: not counted yet).
      await db.orderLink.update({
        where: { id: link.id },
        data: { cityId: a.city, productKeys: JSON.stringify(a.products), totalClient: a.total },
      });
      const state = a.damaged ? "damaged" : "created";
      await db.$transaction(async (tx) => {
        await tx.orderLink.update({
          where: { id: link.id },
          data: { state, leadRef: `L-${link.orderId}`, confirmationStatus: "new", shippingStatus: "pending" },
        });
        await applyLeadEvents(tx, shop, [
          {
            linkId: link.id,
            kind: "answered",
            before: snapshotOf(link),
            after: { state, confirmationStatus: "new", shippingStatus: "pending", sellerProfit: null },
            at: new Date(clock),
          },
        ]);
      });
    } else if (a.kind === "stop" || a.kind === "cancel") {
      const link = await pickLink(
        a.pick,
        a.kind === "stop" ? ["received"] : ["received", "held", "invalid", "failed", "skipped"],
      );
      if (!link) continue;
      const to = a.kind === "stop" ? a.to : "cancelled";
      await db.$transaction(async (tx) => {
        await tx.orderLink.update({ where: { id: link.id }, data: { state: to } });
        await applyLeadEvents(tx, shop, [
          {
            linkId: link.id,
            kind: "stopped",
            before: snapshotOf(link),
            after: { ...snapshotOf(link), state: to },
            at: new Date(clock),
          },
        ]);
      });
    } else if (a.kind === "reopen") {
      const link = await pickLink(a.pick, ["created", "damaged", "held", "invalid", "failed", "skipped", "cancelled"]);
      if (!link) continue;
      await db.$transaction(async (tx) => {
        await tx.orderLink.update({ where: { id: link.id }, data: { state: "received" } });
        await applyLeadEvents(tx, shop, [
          {
            linkId: link.id,
            kind: "reopened",
            before: snapshotOf(link),
            after: { ...snapshotOf(link), state: "received" },
            at: new Date(clock),
          },
        ]);
      });
    } else {
      clock += a.hours * 3_600_000;
      const sent = await db.orderLink.findMany({
        where: { shop, state: { in: ["created", "damaged"] } },
        orderBy: { orderId: "asc" },
      });
      if (sent.length === 0) continue;
      const chosen = [...new Map(a.picks.map((p) => [sent[p % sent.length].id, sent[p % sent.length]])).values()];
      const changes = chosen.map((link) => {
        const moves = link.confirmationStatus !== a.confirmation || link.shippingStatus !== a.shipping;
        // A seller profit arrives with a status move: applyLeadEvents drops an event whose statuses did not
        // change, so a profit read alone (same statuses) reaches the rollups only at the next move or rebuild.
        const sellerProfit = moves ? (a.profit ?? link.sellerProfit) : link.sellerProfit;
        return {
          link: link as TrackedLink,
          next: {
            confirmationStatus: a.confirmation,
            shippingStatus: a.shipping,
            trackingNumber: link.trackingNumber,
            sellerProfit,
          },
          final: false,
        };
      });
      // The real writer: one statement per status, the timeline and the lead events in one transaction.
      await writeStatusChanges(deps, changes);
      // The status sync records its lead events; the worker tells them in a batch.
      await tellPendingLeadEvents(db);
    }
  }
}

/** What the rollups must hold: every link recounted from its row as it is now. */
async function recount(shop: string): Promise<RollupDelta[]> {
  const delivered = await deliveredDaysFromTimeline(db, shop);
  const links = await db.orderLink.findMany({ where: { shop }, select: LINK_FIELDS });
  const deltas = new Map<string, RollupDelta>();
  for (const link of links) addFact(deltas, factOf(link, "Africa/Casablanca", delivered.get(link.id) ?? null), 1);
  return sortRows(nonZero(deltas));
}

async function storedRollups(shop: string): Promise<RollupDelta[]> {
  const rows = await db.analyticsDaily.findMany({ where: { shop } });
  return sortRows(
    rows
      .map(({ shop: _shop, ...r }) => ({
        ...r,
        grain: r.grain as Grain,
        totalCents: Number(r.totalCents),
        profitCents: Number(r.profitCents),
      }))
      .filter((r) => r.orders !== 0 || r.totalCents !== 0 || r.profitCents !== 0),
  );
}

const sortRows = (rows: RollupDelta[]) =>
  [...rows].sort((a, b) => rollupKeyString(a).localeCompare(rollupKeyString(b)));

describe("analytics rollups", () => {
  it("takes a call with more events than one query can name (1,200 leads answered at once)", async () => {
    const shop = "bulk.myshopify.com";
    const at = new Date("2026-03-02T10:00:00Z");
    await db.orderLink.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({
        shop,
        orderId: String(i),
        orderName: `#${i}`,
        payload: "{}",
        externalRef: `shopify:${i}`,
        state: "created",
        confirmationStatus: "new",
        shippingStatus: "pending",
        cityId: 101 + (i % 3),
        productKeys: JSON.stringify([PRODUCTS[i % 3]]),
        totalClient: "100.00",
        createdAt: at,
      })),
    });
    const links = await db.orderLink.findMany({ where: { shop } });
    await db.$transaction((tx) =>
      applyLeadEvents(
        tx,
        shop,
        links.map((l) => ({
          linkId: l.id,
          kind: "answered" as const,
          before: { ...snapshotOf(l), state: "posting" },
          after: snapshotOf(l),
          at,
        })),
      ),
    );
    const expected = await recount(shop);
    expect(expected.find((r) => r.grain === "shop")?.orders).toBe(1200);
    expect(await storedRollups(shop)).toEqual(expected);
    // 1,200 leads answered at once: minutes on a loaded machine.
  }, 180_000);

  it("equal a recount from the raw rows after any sequence of changes, and the rebuild agrees", async () => {
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 40, size: "max" }), async (actions) => {
        const shop = `prop-${++runs}.myshopify.com`;
        await play(shop, actions);
        const expected = await recount(shop);
        if (expected.some((r) => r.deliveryDays >= 0) && expected.length > 3) nonTrivial++;
        expect(await storedRollups(shop)).toEqual(expected);
        // No row ever goes below zero.
        expect((await storedRollups(shop)).every((r) => r.orders >= 0)).toBe(true);
        await rebuildRollups(db, shop);
        expect(await storedRollups(shop)).toEqual(expected);
        // An order erased outside the pipeline (retention): the recount takes its counts out, as the reset does.
        const erased = await db.orderLink.findFirst({ where: { shop }, orderBy: { orderId: "asc" } });
        if (erased) await db.orderLink.delete({ where: { id: erased.id } });
        const afterErase = await recount(shop);
        await rebuildRollups(db, shop);
        expect(await storedRollups(shop)).toEqual(afterErase);
        await rebuildRollups(db, shop, { reset: true });
        expect(await storedRollups(shop)).toEqual(afterErase);
      }),
      { seed: SEED, numRuns: 100, endOnFailure: true },
    );
    // The generator reaches delivered parcels with several rows, not only empty shops.
    expect(nonTrivial).toBeGreaterThan(20);
  }, 900_000);
});
