/**
 * The worker's lead-events task: a periodic run tells a shop's events once the
 * oldest is LEAD_EVENTS_MIN_AGE_MS old (all of them, so a batch holds that long
 * of events however many workers look); a drain or a stop tells everything.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { LEAD_EVENTS_MIN_AGE_MS, leadEventsTask } from "../../app/sync/lead-events.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});
beforeEach(async () => {
  await t.prisma.pendingLeadEvent.deleteMany();
});

const snapshot = { state: "created", confirmationStatus: "new", shippingStatus: "pending", sellerProfit: null };
/** An event that changes nothing: told (and deleted) without a handler writing anything. */
const recordEvent = (id: string, shop: string, at: Date) =>
  t.prisma.pendingLeadEvent.create({
    data: {
      id,
      shop,
      linkId: `link-${id}`,
      event: JSON.stringify({ kind: "answered", before: snapshot, after: snapshot }),
      at,
    },
  });
const waiting = async () => (await t.prisma.pendingLeadEvent.findMany({ orderBy: { id: "asc" } })).map((e) => e.id);

it("GIVEN one shop's events recorded just now and another's a while ago WHEN the task runs on its own THEN only the older shop's are told, all of them; a drain then tells the rest", async () => {
  const now = Date.now();
  await recordEvent("a1", "old.myshopify.com", new Date(now - LEAD_EVENTS_MIN_AGE_MS - 5_000));
  await recordEvent("a2", "old.myshopify.com", new Date(now));
  await recordEvent("b1", "new.myshopify.com", new Date(now));
  const task = leadEventsTask(t.prisma, { error: () => {} });

  expect(await task.run()).toEqual({ handled: 2, more: false });
  expect(await waiting()).toEqual(["b1"]);

  expect(await task.run({ all: true })).toEqual({ handled: 1, more: false });
  expect(await waiting()).toEqual([]);
});
