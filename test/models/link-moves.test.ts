/**
 * The one door of an order link's state (app/models/link-moves.server.ts): a
 * legal move writes the state, its reason and columns, its timeline rows and
 * its lead event together; a move the machine forbids writes nothing; a link
 * that moved since it was read is left to that move, with nothing of this one
 * written, statement by statement or in one combined statement.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OrderLink } from "@prisma/client";
import { eventKindOf, moveItems, moveLink, type LinkMove } from "../../app/models/link-moves.server";
import { IllegalLinkTransitionError, LINK_STATES, type LinkState } from "../../app/models/order-link-state";
import { sqlDatabaseOf } from "../../app/db/sql";
import { heldByRulesText } from "../../app/models/order-texts";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let db: TestDatabase;
const SHOP = "door-shop.myshopify.com";
let n = 0;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.cleanup();
});
beforeEach(async () => {
  await db.prisma.pendingLeadEvent.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
});

async function linkIn(state: LinkState, extra: Partial<OrderLink> = {}): Promise<OrderLink> {
  n++;
  return db.prisma.orderLink.create({
    data: {
      shop: SHOP,
      orderId: String(7_000 + n),
      orderName: `#${7_000 + n}`,
      payload: "{}",
      externalRef: `shopify:${7_000 + n}`,
      state,
      ...extra,
    },
  });
}

const writtenFor = async (linkId: string) => ({
  link: await db.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId } }),
  timeline: await db.prisma.timelineEvent.findMany({ where: { linkId }, orderBy: { id: "asc" } }),
  events: (await db.prisma.pendingLeadEvent.findMany({ where: { linkId } })).map((e) => JSON.parse(e.event)),
});

const at = new Date("2026-11-20T10:00:00.000Z");
const hold = (link: OrderLink): LinkMove => ({
  link,
  to: "held",
  reason: heldByRulesText(),
  set: { postingSince: null },
  timeline: [{ kind: "held", text: heldByRulesText() }],
  at,
});

describe("a link's state changes only through its door", () => {
  it("GIVEN a received link WHEN it is held THEN its state, reason, columns, timeline row and stop event are written together", async () => {
    const link = await linkIn("received", { postingSince: new Date() });
    expect(await db.prisma.$transaction((tx) => moveLink(tx, hold(link)))).toBe(true);
    const { link: after, timeline, events } = await writtenFor(link.id);
    expect(after).toMatchObject({ state: "held", postingSince: null, updatedAt: at });
    expect(after.reason).toBeTruthy();
    expect(JSON.parse(after.reasonText!)).toEqual(heldByRulesText());
    expect(timeline.map((t) => [t.kind, t.at])).toEqual([["held", at]]);
    expect(events).toEqual([
      {
        kind: "stopped",
        before: { state: "received", confirmationStatus: null, shippingStatus: null, sellerProfit: null },
        after: { state: "held", confirmationStatus: null, shippingStatus: null, sellerProfit: null },
      },
    ]);
  });

  it("GIVEN a move the machine forbids WHEN it is asked THEN it throws and writes nothing", async () => {
    const link = await linkIn("created", { leadRef: "L-1" });
    await expect(db.prisma.$transaction((tx) => moveLink(tx, hold(link)))).rejects.toBeInstanceOf(
      IllegalLinkTransitionError,
    );
    expect(() => moveItems(hold(link))).toThrow(IllegalLinkTransitionError);
    const { link: after, timeline, events } = await writtenFor(link.id);
    expect(after.state).toBe("created");
    expect(timeline).toEqual([]);
    expect(events).toEqual([]);
  });

  it("GIVEN a link that moved since it was read WHEN the stale move is made THEN it is left to that move and nothing of this one is written", async () => {
    const read = await linkIn("received");
    await db.prisma.$transaction((tx) => moveLink(tx, { ...hold(read), to: "posting", reason: null, timeline: [] }));
    expect(await db.prisma.$transaction((tx) => moveLink(tx, hold(read)))).toBe(false);
    const { link: after, timeline, events } = await writtenFor(read.id);
    expect(after.state).toBe("posting");
    expect(timeline).toEqual([]);
    expect(events).toEqual([]);
  });

  it("GIVEN a move as writes of one combined statement WHEN the link stands as read THEN all are written, and WHEN it moved THEN none", async () => {
    const database = sqlDatabaseOf(db.prisma);
    const fresh = await linkIn("received");
    const counts = await database.batch(moveItems(hold(fresh)));
    expect(counts[0]).toBe(1);
    expect(await writtenFor(fresh.id)).toMatchObject({ link: { state: "held" }, timeline: [{ kind: "held" }] });
    expect((await writtenFor(fresh.id)).events).toHaveLength(1);

    const stale = await linkIn("received");
    await db.prisma.$transaction((tx) => moveLink(tx, { ...hold(stale), to: "posting", reason: null, timeline: [] }));
    const again = await database.batch(moveItems(hold(stale)));
    expect(again[0]).toBe(0);
    const { link: after, timeline, events } = await writtenFor(stale.id);
    expect(after.state).toBe("posting");
    expect(timeline).toEqual([]);
    expect(events).toEqual([]);
  });

  it("GIVEN a link that already stands where a stale combined move goes WHEN the move runs THEN its count is 0 and none of its rows is written", async () => {
    const answer = (link: OrderLink): LinkMove => ({
      link,
      to: "created",
      reason: null,
      set: { leadRef: "L-7" },
      timeline: [{ kind: "answered", text: heldByRulesText() }],
      at,
    });
    const read = await linkIn("posting");
    await db.prisma.$transaction((tx) => moveLink(tx, answer(read)));
    const again = await sqlDatabaseOf(db.prisma).batch(moveItems(answer(read)));
    expect(again[0]).toBe(0);
    const { timeline, events } = await writtenFor(read.id);
    expect(timeline).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it("GIVEN a lead answered WHEN recorded THEN the event's after holds the columns the move set, and a number column is added to", async () => {
    const link = await linkIn("posting", { postCount: 1 });
    await sqlDatabaseOf(db.prisma).batch(
      moveItems({
        link,
        to: "created",
        reason: null,
        set: { leadRef: "L-9", confirmationStatus: "new", shippingStatus: "pending", postCount: { add: 1 } },
        at,
      }),
    );
    const { link: after, events } = await writtenFor(link.id);
    expect(after).toMatchObject({ state: "created", leadRef: "L-9", postCount: 2 });
    expect(events).toEqual([
      expect.objectContaining({
        kind: "answered",
        after: { state: "created", confirmationStatus: "new", shippingStatus: "pending", sellerProfit: null },
      }),
    ]);
  });

  it("GIVEN any two states WHEN the move's event is named THEN a lead is answered, an order stopped or reopened, and the way through the in-flight states tells nothing", () => {
    const inFlight = new Set<string>(["received", "posting", "retrying"]);
    for (const from of LINK_STATES)
      for (const to of LINK_STATES) {
        const kind = eventKindOf(from, to);
        if (from === to) expect(kind).toBeNull();
        else if (to === "created" || to === "damaged") expect(kind).toBe("answered");
        else if (to === "received") expect(kind).toBe(inFlight.has(from) ? null : "reopened");
        else if (inFlight.has(to)) expect(kind).toBeNull();
        else expect(kind).toBe("stopped");
      }
  });
});
