/**
 * Home's to-do inbox through the real loader: what waits for the merchant, one line
 * per cause with its count, amount at stake and oldest age, and the link to the fix;
 * the SQL that counts causes agrees with the pure rule; older orders beyond the scan
 * are one exact "more" line; another shop's orders never count.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeFinding } from "../../app/leads/findings";
import { causeOf, WAITING_STATES, type Cause } from "../../app/models/attention";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, type AdminApp } from "./helpers";

let app: AdminApp;
let inbox: typeof import("../../app/pages/home-inbox.server");
let home: typeof import("../../app/routes/app._index");
let seq = 0;
const NOW = new Date("2026-06-10T12:00:00Z");

beforeAll(async () => {
  app = await startAdminApp();
  inbox = await import("../../app/pages/home-inbox.server");
  home = await import("../../app/routes/app._index");
});
afterAll(() => stopAdminApp(app));
beforeEach(async () => {
  await app.db.prisma.timelineEvent.deleteMany();
  await app.db.prisma.orderLink.deleteMany();
  await app.db.prisma.shop.deleteMany();
});

interface Seed {
  state: string;
  findings?: ReturnType<typeof makeFinding>[];
  anomalies?: { code: string; duplicateOf?: string }[];
  flags?: string[];
  cents?: number;
  hoursAgo?: number;
  cancelled?: boolean;
  customerHold?: boolean;
}

async function seed(shop: string, spec: Seed) {
  seq += 1;
  const link = await app.db.prisma.orderLink.create({
    data: {
      shop,
      orderId: String(6_900_000 + seq),
      orderName: `#${5000 + seq}`,
      payload: "{}",
      externalRef: `shopify:${seq}`,
      state: spec.state,
      leadRef: spec.state === "damaged" ? `ATB-${seq}` : null,
      findings: JSON.stringify(spec.findings ?? []),
      anomalies: JSON.stringify((spec.anomalies ?? []).map((a) => ({ message: a.code, ...a }))),
      flags: JSON.stringify(spec.flags ?? []),
      totalClient: ((spec.cents ?? 10_000) / 100).toFixed(2),
      totalCents: spec.cents ?? 10_000,
      cancelledAt: spec.cancelled ? NOW : null,
      createdAt: new Date(NOW.getTime() - (spec.hoursAgo ?? 1) * 3600_000),
    },
  });
  if (spec.customerHold) {
    await app.db.prisma.timelineEvent.create({
      data: {
        shop,
        linkId: link.id,
        kind: "customer_hold",
        message: "2 refused",
        data: JSON.stringify({ reason: { code: "customer_record", counts: { refused: 2 }, days: 90, blocked: false } }),
      },
    });
  }
  return link;
}

const sku = () =>
  makeFinding("sku_unmatched", "blocking", "items", {
    sku: "X-1",
    title: "X",
    lineItemId: "1",
    via: "sku",
    unknown: "X-1",
    mappingId: null,
  });
const city = () => makeFinding("city_unmatched", "blocking", "city", { input: "Xyzzyville" });
const phone = () => makeFinding("phone_missing", "blocking", "customer_phone");
const total = () => makeFinding("total_below_cost", "blocking", "total_client", { total: "10.00", minimum: "50.00" });
const fuzzyWarning = () =>
  makeFinding("city_fuzzy", "warning", "city", { input: "Casa", city: "Casablanca", score: 0.9 });

describe("the to-do inbox", () => {
  it("groups what waits by cause with count, amount at stake, oldest age and where to fix it", async () => {
    // GIVEN orders of shop A waiting for every cause, and orders that wait for nobody
    await seed(SHOP_A, { state: "held", findings: [sku()], cents: 22_900, hoursAgo: 50 });
    await seed(SHOP_A, { state: "held", findings: [sku(), phone()], cents: 10_000, hoursAgo: 2 });
    await seed(SHOP_A, { state: "held", findings: [city()], cents: 5_000 });
    const phoneOnly = await seed(SHOP_A, { state: "held", findings: [phone(), fuzzyWarning()], cents: 7_000 });
    await seed(SHOP_A, { state: "held", findings: [total()], cents: 1_000 });
    const risky = await seed(SHOP_A, { state: "held", customerHold: true, cents: 30_000, hoursAgo: 0.5 });
    await seed(SHOP_A, { state: "held", cents: 4_000 });
    await seed(SHOP_A, { state: "invalid", cents: 9_000, hoursAgo: 5 });
    await seed(SHOP_A, { state: "failed", cents: 8_000 });
    await seed(SHOP_A, {
      state: "damaged",
      anomalies: [{ code: "recent_duplicate", duplicateOf: "ATB-1" }],
      cents: 12_000,
    });
    await seed(SHOP_A, {
      state: "damaged",
      anomalies: [{ code: "recent_duplicate" }],
      flags: ["duplicate_kept"],
      cents: 99_000,
    });
    await seed(SHOP_A, { state: "damaged", anomalies: [{ code: "inconsistent_total" }], cents: 3_000 });
    await seed(SHOP_A, { state: "held", findings: [sku()], cancelled: true, cents: 50_000 });
    await seed(SHOP_A, { state: "created", cents: 50_000 });
    await seed(SHOP_B, { state: "held", findings: [sku()], cents: 70_000 });

    // WHEN Home reads the inbox
    const result = await inbox.loadInbox(app.db.prisma, SHOP_A, { now: NOW });

    // THEN one line per cause, in the inbox's order, with its exact figures
    const line = (cause: Cause) => result.groups.find((g) => g.cause === cause);
    expect(result.groups.map((g) => [g.cause, g.count, g.amountCents])).toEqual([
      ["customer", 1, 30_000],
      ["product", 2, 32_900],
      ["city", 1, 5_000],
      ["phone", 1, 7_000],
      ["other", 1, 1_000],
      ["ready", 1, 4_000],
      ["refused", 1, 9_000],
      ["failed", 1, 8_000],
      ["duplicate", 1, 12_000],
      ["flagged", 1, 3_000],
    ]);
    expect(line("product")!.oldestMinutes).toBe(50 * 60);
    expect(line("customer")!.oldestMinutes).toBe(30);
    // A group of one opens that order; product and city groups open their fix, others their cause on Anomalies.
    expect(line("customer")!.href).toBe(`/app/orders/${risky.id}`);
    expect(line("phone")!.href).toBe(`/app/orders/${phoneOnly.id}`);
    expect(line("product")!.href).toBe("/app/anomalies?cause=product");
    expect(line("city")!.href).toBe("/app/anomalies?cause=city");
    expect(result.more).toEqual([]);
    expect(result.total).toEqual({ count: 11, amountCents: 111_900 });
  });

  it("counts causes in SQL exactly as the pure rule does, on this database", async () => {
    const specs: Seed[] = [
      { state: "held", findings: [sku()] },
      { state: "held", findings: [fuzzyWarning(), city()] },
      { state: "held", findings: [phone()] },
      { state: "held", findings: [total()] },
      { state: "held", findings: [fuzzyWarning()] },
      { state: "held" },
      { state: "invalid", findings: [fuzzyWarning()] },
      { state: "failed" },
      { state: "damaged", anomalies: [{ code: "unknown_city" }, { code: "recent_duplicate" }] },
      { state: "damaged", anomalies: [{ code: "inconsistent_total" }] },
      { state: "damaged", anomalies: [{ code: "recent_duplicate" }], flags: ["duplicate_kept"] },
    ];
    const expected: Record<string, number> = {};
    for (const spec of specs) {
      await seed(SHOP_A, spec);
      const cause = causeOf({
        state: spec.state,
        blocking: (spec.findings ?? []).filter((f) => f.severity === "blocking").map((f) => f.code),
        anomalies: (spec.anomalies ?? []).map((a) => a.code),
        heldByCustomer: false,
        duplicateKept: (spec.flags ?? []).includes("duplicate_kept"),
      });
      if (!cause) continue;
      expected[cause] = (expected[cause] ?? 0) + 1;
    }
    const result = await inbox.loadInbox(app.db.prisma, SHOP_A, { now: NOW });
    expect(Object.fromEntries(result.groups.map((g) => [g.cause, g.count]))).toEqual(expected);
    expect(WAITING_STATES).toEqual(["held", "invalid", "failed", "damaged"]);
  });

  it("reads a bounded number of orders per state: older ones are one exact line that opens the list", async () => {
    // The newest changes are read first: the three oldest held orders are left beyond the scan.
    for (let i = 0; i < 7; i++)
      await seed(SHOP_A, { state: "held", findings: [sku()], cents: 1_000 + i, hoursAgo: 20 - i });
    for (let i = 0; i < 3; i++)
      await seed(SHOP_A, { state: "damaged", anomalies: [{ code: "inconsistent_total" }], cents: 500, hoursAgo: 100 });
    const result = await inbox.loadInbox(app.db.prisma, SHOP_A, { now: NOW, scanPerState: 4 });
    expect(result.groups.map((g) => [g.cause, g.count])).toEqual([
      ["product", 4],
      ["flagged", 3],
    ]);
    expect(result.groups[0].amountCents).toBe(1_003 + 1_004 + 1_005 + 1_006);
    expect(result.more).toEqual([
      {
        state: "held",
        count: 3,
        amountCents: 1_000 + 1_001 + 1_002,
        oldestMinutes: 20 * 60,
        href: "/app/orders?state=held",
      },
    ]);
    expect(result.total.count).toBe(10);
  });

  it("is nothing for a quiet shop, and Home shows it (and the figures' links) for the session's shop only", async () => {
    expect(await inbox.loadInbox(app.db.prisma, SHOP_A, { now: NOW })).toEqual({
      groups: [],
      more: [],
      total: { count: 0, amountCents: 0 },
    });
    await seed(SHOP_B, { state: "held", findings: [sku()] });
    await app.db.prisma.shop.create({ data: { domain: SHOP_A, sellerApiKeyCipher: "sealed", keyVerifiedAt: NOW } });
    const data = await load(home.loader, SHOP_A, "/app");
    expect(data.inbox.groups).toEqual([]);
    expect(data.connected).toBe(true);
    const links = data.dashboard.figureLinks;
    expect(links.today.held).toMatch(/^\/app\/orders\?state=held,invalid&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    const [from, to] = [...links.last7.collected.matchAll(/(?:from|to)=([\d-]+)/g)].map((m) => m[1]);
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(6);
    expect(links.last30.sent.startsWith("/app/orders?state=created,damaged&")).toBe(true);
    expect(links.last30.confirmationRate.startsWith("/app/orders?confirmation=confirmed&")).toBe(true);
    expect((await load(home.loader, SHOP_B, "/app")).inbox.groups.map((g) => g.cause)).toEqual(["product"]);
  });
});
