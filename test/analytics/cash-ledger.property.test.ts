/**
 * The cash ledger kept by its lead-events handler equals a recount from the raw
 * rows (OrderLink, and the timeline's status changes for the days) after any
 * sequence of changes: leads answered, status moves written by the real
 * status-sync writer in any order (paid before delivered, back to delivered
 * after paid, returned...), the seller profit arriving alone, the same status
 * seen again, the same events handled again, several links changed in one
 * batch with their events shuffled, orders resent and erased. Each parcel's
 * cash is counted once, and the rebuild (page by page or reset) gives the same
 * rows. On a real database; fixed seed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import {
  addCashEntry,
  cashEntryOf,
  cashKeyString,
  cashStateOf,
  nonZeroCash,
  type CashDays,
  type CashEntry,
  type CashRow,
} from "../../app/analytics/cash";
import { signedCents } from "../../app/analytics/contribution";
import { localDay } from "../../app/analytics/days";
import { rebuildCashLedger } from "../../app/analytics/cash-rebuild.server";
import { applyLeadEvents, tellPendingLeadEvents } from "../../app/sync/lead-events.server";
import { writeStatusChanges, type TrackedLink } from "../../app/sync/status-sync.server";
import type { PipelineDeps } from "../../app/sync/pipeline-deps.server";
import type { LeadStatus } from "../../app/sync/lead-status";
import { snapshotOf, type LeadEvent } from "../../app/models/lead-events";

const SEED = Number(process.env.FAST_CHECK_SEED) || 20261126;
const ZONE = "Africa/Casablanca";

let database: TestDatabase;
let db: PrismaClient;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.prisma;
});
afterAll(() => database?.cleanup());

const SHIPPINGS = ["pending", "picked_up", "shipped", "delivered", "returned", "canceled", "paid"] as const;

type Action =
  | { kind: "create"; hours: number; total: string }
  | { kind: "answer"; pick: number; damaged: boolean }
  | {
      kind: "status";
      moves: { pick: number; shipping: string }[];
      profit: string | null;
      hours: number;
      shuffle: number;
    }
  | { kind: "profit"; pick: number; profit: string; hours: number }
  | { kind: "replay" }
  | { kind: "reopen"; pick: number }
  | { kind: "erase"; pick: number };

const amount = fc
  .tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 99 }))
  .map(([w, c]) => `${w}.${String(c).padStart(2, "0")}`);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      hours: fc.integer({ min: 0, max: 30 }),
      total: amount,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("answer" as const), pick: fc.nat(), damaged: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("status" as const),
      moves: fc.array(
        fc.record({
          pick: fc.nat(),
          // Mostly the cash statuses, in any order (a sync can see paid first, or a status go back).
          shipping: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom("delivered", "paid", "returned") },
            { weight: 1, arbitrary: fc.constantFrom(...SHIPPINGS) },
          ),
        }),
        { minLength: 1, maxLength: 5 },
      ),
      profit: fc.option(
        amount.map((a) => (a.startsWith("1") ? `-${a}` : a)),
        { nil: null },
      ),
      hours: fc.integer({ min: 1, max: 200 }),
      shuffle: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("profit" as const),
      pick: fc.nat(),
      profit: amount,
      hours: fc.integer({ min: 1, max: 48 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "replay" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reopen" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("erase" as const), pick: fc.nat() }) },
);

let runs = 0;

const statusOf = (link: LeadStatus): LeadStatus => ({
  confirmationStatus: link.confirmationStatus,
  shippingStatus: link.shippingStatus,
  trackingNumber: link.trackingNumber,
  sellerProfit: link.sellerProfit,
});

/** Plays the actions as the pipeline does: each change and its lead events in one transaction. */
async function play(shop: string, actions: Action[]): Promise<void> {
  let clock = Date.parse("2026-10-01T08:00:00Z");
  let n = 0;
  let lastEvents: LeadEvent[] = [];
  const deps = { db, now: () => new Date(clock) } as unknown as PipelineDeps;
  const pickLink = async (pick: number, states: string[]) => {
    const candidates = await db.orderLink.findMany({
      where: { shop, state: { in: states } },
      orderBy: { orderId: "asc" },
    });
    return candidates.length ? candidates[pick % candidates.length] : null;
  };
  /** The real status-sync writer, with the lead events it produces kept for a replay. */
  const write = async (changes: { link: TrackedLink; next: LeadStatus }[], shuffle: number) => {
    const captured: LeadEvent[] = [];
    await writeStatusChanges(
      deps,
      changes.map(({ link, next }) => ({ link, next, final: false })),
    );
    // The status sync records its lead events; the worker tells them in a batch.
    await tellPendingLeadEvents(db);
    for (const { link, next } of changes) {
      captured.push({
        linkId: link.id,
        kind: "status",
        before: snapshotOf(link),
        after: snapshotOf({ ...next, state: link.state }),
        at: new Date(clock),
      });
    }
    // Rotated: the replay hands the same events back in another order.
    lastEvents = captured
      .slice(shuffle % Math.max(1, captured.length))
      .concat(captured.slice(0, shuffle % Math.max(1, captured.length)));
  };
  for (const a of actions) {
    if (a.kind === "create") {
      clock += a.hours * 3_600_000;
      n++;
      await db.orderLink.create({
        data: {
          shop,
          orderId: String(n).padStart(4, "0"),
          orderName: `#${n}`,
          payload: "{}",
          externalRef: `shopify:${n}`,
          totalClient: a.total,
          createdAt: new Date(clock),
        },
      });
    } else if (a.kind === "answer") {
      const link = await pickLink(a.pick, ["received"]);
      if (!link) continue;
      const state = a.damaged ? "damaged" : "created";
      await db.$transaction(async (tx) => {
        await tx.orderLink.update({
          where: { id: link.id },
          data: {
            state,
            leadRef: `L-${link.orderId}`,
            confirmationStatus: "confirmed",
            shippingStatus: "pending",
            sellerProfit: null,
          },
        });
        await applyLeadEvents(tx, shop, [
          {
            linkId: link.id,
            kind: "answered",
            before: snapshotOf(link),
            after: { state, confirmationStatus: "confirmed", shippingStatus: "pending", sellerProfit: null },
            at: new Date(clock),
          },
        ]);
      });
    } else if (a.kind === "status") {
      clock += a.hours * 3_600_000;
      const sent = await db.orderLink.findMany({
        where: { shop, state: { in: ["created", "damaged"] } },
        orderBy: { orderId: "asc" },
      });
      if (sent.length === 0) continue;
      // One move per link (the last one named wins), as one sync cycle decides.
      const chosen = [
        ...new Map(
          a.moves.map((m) => [
            sent[m.pick % sent.length].id,
            { link: sent[m.pick % sent.length], shipping: m.shipping },
          ]),
        ).values(),
      ];
      const changes = chosen
        .map(({ link, shipping }) => {
          const sellerProfit =
            shipping === "delivered" || shipping === "paid" ? (a.profit ?? link.sellerProfit) : link.sellerProfit;
          return { link: link as TrackedLink, next: { ...statusOf(link), shippingStatus: shipping, sellerProfit } };
        })
        // The same status seen again is no change: the writer is not called for it (as the sync decides).
        .filter(
          ({ link, next }) => link.shippingStatus !== next.shippingStatus || link.sellerProfit !== next.sellerProfit,
        );
      if (changes.length) await write(changes, a.shuffle);
    } else if (a.kind === "profit") {
      clock += a.hours * 3_600_000;
      const link = await pickLink(a.pick, ["created", "damaged"]);
      if (!link || link.sellerProfit === a.profit) continue;
      // The detail GET brings the seller profit a cycle after the status: statuses unchanged.
      await write([{ link: link as TrackedLink, next: { ...statusOf(link), sellerProfit: a.profit } }], 0);
    } else if (a.kind === "replay") {
      // A handler run again with events already applied (a retried batch): nothing moves.
      if (lastEvents.length === 0) continue;
      await db.$transaction((tx) => applyLeadEvents(tx, shop, lastEvents));
    } else if (a.kind === "reopen") {
      const link = await pickLink(a.pick, ["created", "damaged"]);
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
      // Erased outside the pipeline (retention, by hand): only the rebuild hears of it.
      const link = await pickLink(a.pick, ["created", "damaged", "received"]);
      if (link) await db.orderLink.delete({ where: { id: link.id } });
    }
  }
}

/** The first day each link was seen delivered (or paid), paid and returned, read from its timeline here. */
async function timelineDays(shop: string): Promise<Map<string, CashDays>> {
  const rows = await db.timelineEvent.findMany({ where: { shop, kind: "status_changed" }, orderBy: { at: "asc" } });
  const days = new Map<string, CashDays>();
  for (const row of rows) {
    const shipping = (JSON.parse(row.data ?? "{}") as { shippingStatus?: string }).shippingStatus;
    const day = localDay(ZONE, row.at);
    const d =
      days.get(row.linkId) ??
      days.set(row.linkId, { deliveredDay: null, paidDay: null, returnedDay: null }).get(row.linkId)!;
    if (shipping === "delivered" || shipping === "paid") d.deliveredDay ??= day;
    if (shipping === "paid") d.paidDay ??= day;
    if (shipping === "returned") d.returnedDay ??= day;
  }
  return days;
}

/** What the ledger must hold for every link in it now, recounted from the raw rows. */
async function recount(shop: string): Promise<{ entries: Map<string, CashEntry>; rows: CashRow[] }> {
  const days = await timelineDays(shop);
  const links = await db.orderLink.findMany({ where: { shop } });
  const entries = new Map<string, CashEntry>();
  const deltas = new Map<string, CashRow>();
  for (const link of links) {
    // "never": every day of a parcel in the ledger comes from its timeline in these runs.
    const entry = cashEntryOf(
      link,
      days.get(link.id) ?? { deliveredDay: null, paidDay: null, returnedDay: null },
      "never",
    );
    entries.set(link.id, entry);
    addCashEntry(deltas, entry, 1);
  }
  return { entries, rows: sortRows(nonZeroCash(deltas)) };
}

async function storedRows(shop: string): Promise<CashRow[]> {
  const rows = await db.cashDaily.findMany({ where: { shop } });
  return sortRows(
    rows
      .map((r) => ({
        state: r.state as CashRow["state"],
        day: r.day,
        deliveredDay: r.deliveredDay,
        parcels: r.parcels,
        totalCents: Number(r.totalCents),
        profitCents: Number(r.profitCents),
        unknownProfit: r.unknownProfit,
      }))
      .filter((r) => r.parcels !== 0 || r.totalCents !== 0 || r.profitCents !== 0 || r.unknownProfit !== 0),
  );
}

const sortRows = (rows: CashRow[]) => [...rows].sort((a, b) => cashKeyString(a).localeCompare(cashKeyString(b)));

/** The stored ledger equals the recount, and each parcel's cash is in it exactly once. */
async function expectLedgerExact(
  shop: string,
  options: { linksErased: boolean },
): Promise<{ owed: number; paid: number; returned: number }> {
  const { entries, rows } = await recount(shop);
  expect(rows.some((r) => r.day === "never" || r.deliveredDay === "never")).toBe(false);
  const stored = await db.cashParcel.findMany({ where: { shop } });
  const storedRowsNow = await storedRows(shop);
  if (!options.linksErased) expect(storedRowsNow).toEqual(rows);
  const inLedger = stored.filter((p) => p.state !== null);
  for (const parcel of stored) {
    const expected = entries.get(parcel.linkId);
    if (options.linksErased && !expected) continue;
    expect(expected, `entry of a link that exists: ${parcel.linkId}`).toBeDefined();
    expect({
      state: parcel.state,
      day: parcel.day,
      deliveredDay: parcel.deliveredDay,
      paidDay: parcel.paidDay,
      returnedDay: parcel.returnedDay,
      totalCents: Number(parcel.totalCents),
      profitCents: parcel.profitCents === null ? null : Number(parcel.profitCents),
    }).toEqual({
      state: expected!.state,
      day: expected!.day,
      deliveredDay: expected!.deliveredDay,
      paidDay: expected!.paidDay,
      returnedDay: expected!.returnedDay,
      totalCents: expected!.totalCents,
      profitCents: expected!.profitCents,
    });
  }
  if (options.linksErased) return { owed: 0, paid: 0, returned: 0 };
  // Every parcel with money has its entry, and counts once: as many parcels in the rollups as links in a cash state.
  const links = await db.orderLink.findMany({ where: { shop } });
  const withCash = links.filter((l) => cashStateOf(l) !== null);
  expect(new Set(inLedger.map((p) => p.linkId))).toEqual(new Set(withCash.map((l) => l.id)));
  expect(storedRowsNow.reduce((s, r) => s + r.parcels, 0)).toBe(withCash.length);
  // The amounts owed, counted from the order rows alone, are the owed rows' amounts.
  const owedLinks = withCash.filter((l) => cashStateOf(l) === "owed");
  const owedRows = storedRowsNow.filter((r) => r.state === "owed");
  expect(owedRows.reduce((s, r) => s + r.totalCents, 0)).toBe(
    owedLinks.reduce((s, l) => s + signedCents(l.totalClient), 0),
  );
  expect(owedRows.reduce((s, r) => s + r.profitCents, 0)).toBe(
    owedLinks.reduce((s, l) => s + (l.sellerProfit ? signedCents(l.sellerProfit) : 0), 0),
  );
  expect(owedRows.reduce((s, r) => s + r.unknownProfit, 0)).toBe(owedLinks.filter((l) => !l.sellerProfit).length);
  expect(storedRowsNow.every((r) => r.parcels >= 0)).toBe(true);
  const count = (state: string) => withCash.filter((l) => cashStateOf(l) === state).length;
  return { owed: count("owed"), paid: count("paid"), returned: count("returned") };
}

describe("cash ledger", () => {
  it("equals a recount from the order rows after any sequence of changes, counts each parcel once, and the rebuild agrees", async () => {
    let everyState = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 20, maxLength: 60, size: "max" }), async (actions) => {
        const shop = `cash-${++runs}.myshopify.com`;
        await play(shop, actions);
        const erased = actions.some((a) => a.kind === "erase");
        await expectLedgerExact(shop, { linksErased: erased });
        // The rebuild recounts to the same rows (and takes out erased orders), page by page and as a reset.
        await rebuildCashLedger(db, shop);
        const counts = await expectLedgerExact(shop, { linksErased: false });
        if (counts.owed > 0 && counts.paid > 0 && counts.returned > 0) everyState++;
        await rebuildCashLedger(db, shop, { reset: true });
        await expectLedgerExact(shop, { linksErased: false });
      }),
      { seed: SEED, numRuns: 60, endOnFailure: true },
    );
    // The generator reaches shops with parcels owed, paid and returned at once.
    expect(everyState).toBeGreaterThan(10);
  }, 900_000);

  it("a status seen again, or events handled twice, changes nothing", async () => {
    const shop = "cash-repeat.myshopify.com";
    const at = new Date("2026-11-02T10:00:00Z");
    const link = await db.orderLink.create({
      data: {
        shop,
        orderId: "1",
        orderName: "#1",
        payload: "{}",
        externalRef: "shopify:1",
        state: "created",
        leadRef: "L-1",
        confirmationStatus: "confirmed",
        shippingStatus: "delivered",
        totalClient: "300.00",
        sellerProfit: "99.50",
      },
    });
    const event: LeadEvent = {
      linkId: link.id,
      kind: "status",
      before: { ...snapshotOf(link), shippingStatus: "shipped", sellerProfit: null },
      after: snapshotOf(link),
      at,
    };
    for (let i = 0; i < 3; i++) await db.$transaction((tx) => applyLeadEvents(tx, shop, [event, event]));
    const rows = await storedRows(shop);
    expect(rows).toEqual([
      {
        state: "owed",
        day: "2026-11-02",
        deliveredDay: "2026-11-02",
        parcels: 1,
        totalCents: 30000,
        profitCents: 9950,
        unknownProfit: 0,
      },
    ]);
    // Paid, and a late "delivered" event for it arriving after: still paid once, never owed again.
    await db.orderLink.update({ where: { id: link.id }, data: { shippingStatus: "paid" } });
    const paidAt = new Date("2026-11-09T10:00:00Z");
    const paid: LeadEvent = {
      linkId: link.id,
      kind: "status",
      before: snapshotOf(link),
      after: { ...snapshotOf(link), shippingStatus: "paid" },
      at: paidAt,
    };
    await db.$transaction((tx) => applyLeadEvents(tx, shop, [paid]));
    await db.$transaction((tx) => applyLeadEvents(tx, shop, [event]));
    expect(await storedRows(shop)).toEqual([
      {
        state: "paid",
        day: "2026-11-09",
        deliveredDay: "2026-11-02",
        parcels: 1,
        totalCents: 30000,
        profitCents: 9950,
        unknownProfit: 0,
      },
    ]);
  });
});
