/**
 * Text a signed order can spell that a database cannot store: a lone UTF-16
 * surrogate (`\ud800`: Prisma refuses it as a parameter on both databases, so
 * intake answered 500, or, in the city, the post-lead job failed the same way ten
 * times) and NUL (`\u0000`: PostgreSQL refuses it).
 * Every string of a payload is made well-formed at the door; what still reaches
 * the database with such a value (an older snapshot, another source) makes its job
 * dead at once with a reason a person can read, never ten identical retries.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorker } from "../../app/queue/worker.server";
import { enqueueJob } from "../../app/queue/jobs.server";
import { webhookOrder } from "../helpers/orders";
import { startOrderWorld, type OrderWorld } from "./order-world";

let world: OrderWorld;
beforeAll(async () => {
  world = await startOrderWorld();
});
afterAll(() => world?.close());

const LONE_HIGH = "\ud800";
const LONE_LOW = "\udc00";
const NUL = "\u0000";
const REPLACEMENT = "\ufffd";

const hasBadText = (text: string) =>
  !(text as string & { isWellFormed(): boolean }).isWellFormed() || text.includes(NUL);
/** A stored JSON text spells them as escapes. */
const hasBadEscape = (json: string) => /\\u(d[89a-f][0-9a-f]{2}|0000)/i.test(json);

async function linkOf(orderId: number) {
  return world.app.db.prisma.orderLink.findUniqueOrThrow({
    where: { shop_orderId: { shop: world.shop, orderId: String(orderId) } },
  });
}

describe("text a database cannot store, in a signed order", () => {
  const cases = [
    {
      label: "a lone surrogate in the order name",
      id: 9_100_000_000_001,
      order: { name: `#91${LONE_HIGH}` },
      name: `#91${REPLACEMENT}`,
    },
    { label: "a lone surrogate in the customer id", id: 9_100_000_000_002, customerId: `77${LONE_LOW}`, name: "#1002" },
    {
      label: "a lone surrogate in the city",
      id: 9_100_000_000_003,
      order: { city: `Bouknadel${LONE_HIGH}` },
      name: "#1003",
    },
    {
      label: "NUL in the name, the city and the address",
      id: 9_100_000_000_004,
      order: {
        name: `#9${NUL}4`,
        city: `Rabat${NUL}`,
        address1: `12 Rue${NUL} Ibn Battouta`,
        firstName: `Sal${NUL}ma`,
      },
      name: "#94",
    },
  ];

  it("stores every one (200, no server error), with the text made well-formed", async () => {
    for (const c of cases) {
      const body = webhookOrder({ id: c.id, phone: `06${String(c.id).slice(-8)}`, ...c.order });
      if (c.customerId) (body.customer as Record<string, unknown>).id = c.customerId;
      // JSON.stringify writes a lone surrogate as \ud800 and NUL as \u0000, as Shopify's JSON would.
      const raw = JSON.stringify(body);
      expect(hasBadEscape(raw), c.label).toBe(true);
      expect(await world.post("orders/create", raw), c.label).toBe(200);
      const link = await linkOf(c.id);
      expect(link.orderName, c.label).toBe(c.name);
      expect(hasBadEscape(link.payload), c.label).toBe(false);
      expect(hasBadText(link.payload), c.label).toBe(false);
    }
    expect((await linkOf(cases[1].id)).customerId).toBe(`77${REPLACEMENT}`);
    expect(world.serverErrors).toEqual([]);
  });

  it("maps and sends each of them in one attempt", async () => {
    await world.pipeline.drain();
    for (const c of cases) {
      const link = await linkOf(c.id);
      expect(["created", "held"], `${c.label}: ${link.state} (${link.reason})`).toContain(link.state);
      expect(
        hasBadText(link.leadJson ?? "") || hasBadText(link.reason ?? "") || hasBadText(link.findings),
        c.label,
      ).toBe(false);
    }
    // The NUL order's city and customer read as if NUL had never been typed.
    const nul = await linkOf(cases[3].id);
    expect(nul.state).toBe("created");
    expect(JSON.parse(nul.leadJson!)).toMatchObject({
      customer_name: "Salma Bennani",
      address: expect.stringContaining("12 Rue Ibn Battouta"),
    });
    const jobs = await world.app.db.prisma.job.findMany({ where: { shop: world.shop, kind: "post-lead" } });
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual(cases.map(() => ["done", 1]));
  });

  it("maps an order stored before the door cleaned it (a lone surrogate in its snapshot's city, which the hold reason quotes)", async () => {
    const id = 9_100_000_000_005;
    const snapshot = JSON.stringify(webhookOrder({ id, phone: "0612300005", city: `Bouknadel${LONE_HIGH}` }));
    const prisma = world.app.db.prisma;
    const link = await prisma.orderLink.create({
      data: { shop: world.shop, orderId: String(id), orderName: "#old", payload: snapshot, externalRef: `old-${id}` },
    });
    await enqueueJob(prisma, {
      kind: "post-lead",
      key: `post-lead:${world.shop}:${id}`,
      shop: world.shop,
      payload: { linkId: link.id },
    });
    await world.pipeline.drain();
    const after = await prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(after.state).toBe("held");
    expect(after.reason).toContain(`Bouknadel${REPLACEMENT}`);
    expect(hasBadText(after.reason ?? "") || hasBadText(after.findings)).toBe(false);
    const job = await prisma.job.findUniqueOrThrow({ where: { key: `post-lead:${world.shop}:${id}` } });
    expect([job.state, job.attempts]).toEqual(["done", 1]);
  });
});

describe("a value the database refuses, whatever brought it", () => {
  it("makes the job dead at its first attempt, with a reason that quotes nothing of the value", async () => {
    const prisma = world.app.db.prisma;
    await enqueueJob(prisma, {
      kind: "writes-bad-text",
      key: "writes-bad-text:1",
      shop: world.shop,
      payload: { city: "Casablanca" },
    });
    const worker = createWorker({
      db: prisma,
      kinds: ["writes-bad-text"],
      handlers: {
        "writes-bad-text": async (job) => {
          const city = (job.payload as { city: string }).city;
          await prisma.timelineEvent.create({
            data: { shop: world.shop, linkId: "none", kind: "note", message: `${city}${LONE_HIGH}` },
          });
        },
      },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      backoff: { baseMs: 1, capMs: 5 },
    });
    await worker.drain({ timeoutMs: 60_000 });
    const job = await prisma.job.findUniqueOrThrow({ where: { key: "writes-bad-text:1" } });
    expect(job.state).toBe("dead");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toBe(
      "the database refused text that is not valid Unicode (a lone surrogate); retrying cannot help",
    );
    expect(job.lastError).not.toContain("Casablanca");
  });
});
