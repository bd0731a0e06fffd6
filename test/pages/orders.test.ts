/**
 * Orders and Order pages through authenticate.admin: filters, search, keyset
 * pagination, bulk resend and retry, the order's page with its fixes and
 * corrections, and one shop never reading or changing another's orders.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "@prisma/client";
import { adminRequest } from "../helpers/admin";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";

type IndexRoute = typeof import("../../app/routes/app.orders._index");
type DetailRoute = typeof import("../../app/routes/app.orders.$id");

let app: AdminApp;
let list: IndexRoute;
let detail: DetailRoute;
let seq = 0;

const seed = (file: string) => readFileSync(join(import.meta.dirname, "..", "..", "sandbox", "seed", file), "utf8");

beforeAll(async () => {
  app = await startAdminApp();
  list = await import("../../app/routes/app.orders._index");
  detail = await import("../../app/routes/app.orders.$id");
  for (const domain of [SHOP_A, SHOP_B]) {
    await app.db.prisma.shop.create({
      data: { domain, catalogueJson: seed("products.json"), citiesJson: seed("cities.json") },
    });
  }
});
afterAll(() => stopAdminApp(app));
beforeEach(async () => {
  await app.db.prisma.job.deleteMany();
  await app.db.prisma.timelineEvent.deleteMany();
  await app.db.prisma.orderLink.deleteMany();
});

type Seed = Partial<Prisma.OrderLinkUncheckedCreateInput> & { findingCodes?: string[]; anomalyCodes?: string[] };

/** One link; createdAt a minute apart by default so order is predictable. */
async function addLink(shop: string, spec: Seed = {}) {
  seq += 1;
  const { findingCodes = [], anomalyCodes = [], ...data } = spec;
  const state = data.state ?? "created";
  const sent = state === "created" || state === "damaged";
  return app.db.prisma.orderLink.create({
    data: {
      shop,
      orderId: String(5_700_000 + seq),
      orderName: `#${1000 + seq}`,
      payload: JSON.stringify({ id: 5_700_000 + seq, secret_marker: "PAYLOAD-ONLY" }),
      externalRef: `shopify:${5_700_000 + seq}`,
      leadRef: sent ? `ATB-${seq}` : null,
      confirmationStatus: sent ? "new" : null,
      shippingStatus: sent ? "pending" : null,
      phone: `06${String(10_000_000 + seq).padStart(8, "0")}`,
      findings: JSON.stringify(
        findingCodes.map((code) => ({
          code,
          severity: "blocking",
          field: "items",
          message: code,
          params: { sku: "X-1", title: "X" },
        })),
      ),
      anomalies: JSON.stringify(anomalyCodes.map((code) => ({ code, message: code }))),
      leadJson: JSON.stringify({
        customer_name: "Salma Bennani",
        customer_phone: "0612345678",
        address: "LEADJSON-ONLY",
        city: 101,
        total_client: "229.00",
        items: [{ sku: "ARG-OIL-100", quantity: 1 }],
      }),
      createdAt: new Date(Date.UTC(2026, 2, 1) + seq * 60_000),
      ...data,
      state,
    },
  });
}

const page = (shop: string, query = "") => load(list.loader, shop, `/app/orders${query ? `?${query}` : ""}`);
const names = (data: Awaited<ReturnType<typeof page>>) => data.page.rows.map((r) => r.orderName);

async function loadDetail(shop: string, id: string) {
  const request = await adminRequest(shop, `/app/orders/${id}`);
  return detail.loader({ request, params: { id }, context: {} });
}

async function act(shop: string, id: string, fields: Record<string, string>) {
  const request = await adminRequest(shop, `/app/orders/${id}`, {
    as: "fetch",
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return detail.action({ request, params: { id }, context: {} });
}

async function expectNotFound(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Response);
  expect((thrown as Response).status).toBe(404);
}

describe("Orders list", () => {
  it("shows the shop's orders newest first, 50 a page, and pages back and forth with cursors", async () => {
    // GIVEN 120 orders of shop A and some of shop B in between
    for (let i = 0; i < 120; i++) {
      await addLink(SHOP_A);
      if (i % 10 === 0) await addLink(SHOP_B);
    }
    const aNames = (
      await app.db.prisma.orderLink.findMany({ where: { shop: SHOP_A }, orderBy: { createdAt: "desc" } })
    ).map((l) => l.orderName);

    // WHEN the merchant walks the pages
    const first = await page(SHOP_A);
    const second = await page(SHOP_A, `after=${first.page.nextCursor}`);
    const third = await page(SHOP_A, `after=${second.page.nextCursor}`);
    const back = await page(SHOP_A, `before=${third.page.previousCursor}`);

    // THEN every order of A appears once, in order, and none of B
    expect(names(first)).toEqual(aNames.slice(0, 50));
    expect(names(second)).toEqual(aNames.slice(50, 100));
    expect(names(third)).toEqual(aNames.slice(100));
    expect(third.page.nextCursor).toBeNull();
    expect(first.page.previousCursor).toBeNull();
    expect(names(back)).toEqual(aNames.slice(50, 100));
    expect(back.page.previousCursor).not.toBeNull();
    expect(back.page.nextCursor).not.toBeNull();
    // AND each row says who, where and what, but the list carries neither the lead JSON, the address,
    // the Shopify payload, nor the phone of an order that is not held
    expect(first.page.rows[0]).toMatchObject({
      customerName: "Salma Bennani",
      cityName: "Casablanca",
      stage: "sent",
      phone: null,
    });
    // The catalogue's name, the SKU beside it for the merchant who knows their SKUs.
    expect(first.page.rows[0].items).toEqual([
      { name: expect.stringContaining("100 ml"), quantity: 1, sku: "ARG-OIL-100" },
    ]);
    const json = JSON.stringify(first);
    expect(json).not.toContain("LEADJSON-ONLY");
    expect(json).not.toContain("PAYLOAD-ONLY");
    expect(json).not.toContain("leadJson");
    expect(json).not.toContain("0612345678");
    expect(app.shopifyCalls).toEqual([]);
  });

  it("filters by state, confirmation, shipping, problem and local date", async () => {
    const held = await addLink(SHOP_A, { state: "held", findingCodes: ["sku_unmatched"] });
    const confirmed = await addLink(SHOP_A, { confirmationStatus: "confirmed", shippingStatus: "delivered" });
    const damaged = await addLink(SHOP_A, { state: "damaged", anomalyCodes: ["inconsistent_total"] });
    // 23:30 UTC on 14 May is 00:30 on 15 May in Casablanca (UTC+1).
    const lateNight = await addLink(SHOP_A, { createdAt: new Date("2026-05-14T23:30:00Z") });
    await addLink(SHOP_B, { state: "held", findingCodes: ["sku_unmatched"] });

    expect(names(await page(SHOP_A, "state=held"))).toEqual([held.orderName]);
    expect(names(await page(SHOP_A, "state=held,damaged"))).toEqual([damaged.orderName, held.orderName]);
    expect(names(await page(SHOP_A, "confirmation=confirmed"))).toEqual([confirmed.orderName]);
    expect(names(await page(SHOP_A, "shipping=delivered"))).toEqual([confirmed.orderName]);
    expect(names(await page(SHOP_A, "issue=sku"))).toEqual([held.orderName]);
    expect(names(await page(SHOP_A, "issue=total"))).toEqual([damaged.orderName]);
    expect(names(await page(SHOP_A, "from=2026-05-15&to=2026-05-15"))).toEqual([lateNight.orderName]);
    expect(names(await page(SHOP_A, "to=2026-05-14"))).not.toContain(lateNight.orderName);
    // Unknown values are ignored, not trusted.
    expect((await page(SHOP_A, "state=bogus&issue=nope")).filter).toMatchObject({ states: [], issues: [] });

    const row = (await page(SHOP_A, "state=damaged")).page.rows[0];
    expect(row).toMatchObject({
      state: "damaged",
      leadRef: damaged.leadRef,
      anomalies: ["inconsistent_total"],
      confirmationStatus: "new",
    });
    // Local time of the shop (Africa/Casablanca), to the second.
    expect((await page(SHOP_A, "from=2026-05-15")).page.rows[0].createdLocal).toBe("2026-05-15 00:30:00");
  });

  it("finds an order by name, phone in any form, or lead reference", async () => {
    const target = await addLink(SHOP_A, { orderName: "#4242", phone: "0661234567", leadRef: "ATB-98765" });
    await addLink(SHOP_A, { orderName: "#4243" });
    await addLink(SHOP_B, { orderName: "#4242", phone: "0661234567", leadRef: "ATB-98765" });

    for (const q of ["#4242", "4242", "+212 661-23-45-67", "0661234567", "atb-98765", "ATB-98765"]) {
      const found = await page(SHOP_A, `q=${encodeURIComponent(q)}`);
      expect(
        found.page.rows.map((r) => r.id),
        q,
      ).toEqual([target.id]);
    }
    expect(names(await page(SHOP_A, "q=%23424"))).toEqual(["#4243", "#4242"]);
    expect(names(await page(SHOP_A, "q=nothing-like-this"))).toEqual([]);
  });
});

describe("keyset pagination with bounded scans", () => {
  type Query = typeof import("../../app/pages/orders.server");

  /** Every page forward, then every page back from the last one. */
  async function walk(q: Query, search: string, options: { sparseLimit: number; scanWindow: number }) {
    const request = { ...q.parseOrdersSearch(new URLSearchParams(search)), limit: 7 };
    const forward: string[][] = [];
    let partial = 0;
    let page = await q.queryOrders(app.db.prisma, SHOP_A, request, options);
    for (let guard = 0; guard < 200; guard++) {
      forward.push(page.rows.map((r) => r.orderName));
      if (page.partial) partial++;
      if (!page.nextCursor) break;
      page = await q.queryOrders(app.db.prisma, SHOP_A, { ...request, after: page.nextCursor }, options);
    }
    const backward: string[][] = [];
    for (let guard = 0; guard < 200 && page.previousCursor; guard++) {
      page = await q.queryOrders(app.db.prisma, SHOP_A, { ...request, before: page.previousCursor }, options);
      backward.push(page.rows.map((r) => r.orderName));
    }
    return { forward: forward.flat(), backward: backward.reverse().flat(), pages: forward.length, partial };
  }

  it("returns every match exactly once, forward and back, however sparse the filter", async () => {
    const q: Query = await import("../../app/pages/orders.server");
    const states = ["created", "created", "created", "held", "created", "skipped", "created", "failed"];
    for (let i = 0; i < 160; i++) {
      await addLink(SHOP_A, {
        state: states[i % states.length],
        confirmationStatus: i % 37 === 0 ? "fake" : "new",
        // Some orders share an instant: ties are broken by id.
        createdAt: new Date(Date.UTC(2026, 4, 1) + Math.floor(i / 3) * 60_000),
      });
      if (i % 20 === 0) await addLink(SHOP_B, { confirmationStatus: "fake" });
    }
    const all = await app.db.prisma.orderLink.findMany({
      where: { shop: SHOP_A },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const expected = (keep: (l: (typeof all)[number]) => boolean) => all.filter(keep).map((l) => l.orderName);
    const small = { sparseLimit: 5, scanWindow: 20 };

    // A rare filter read from the rows: short pages, each scan bounded, nothing lost.
    const fake = await walk(q, "confirmation=fake", small);
    expect(fake.forward).toEqual(expected((l) => l.confirmationStatus === "fake"));
    expect(fake.backward).toEqual(fake.forward.slice(0, fake.backward.length));
    expect(fake.partial).toBeGreaterThan(0);
    // A dense state and a sparse one together (one walks the window, the other its index).
    const heldOrFailed = await walk(q, "state=held,failed", small);
    expect(heldOrFailed.forward).toEqual(expected((l) => l.state === "held" || l.state === "failed"));
    const created = await walk(q, "state=created", small);
    expect(created.forward).toEqual(expected((l) => l.state === "created"));
    expect(created.backward).toEqual(created.forward.slice(0, created.backward.length));
    // No filter: plain pages of 7.
    const plain = await walk(q, "", small);
    expect(plain.forward).toEqual(expected(() => true));
    expect(plain.backward).toEqual(plain.forward.slice(0, plain.backward.length));
    expect(plain.partial).toBe(0);
    // The production limits give the same answers.
    expect((await walk(q, "confirmation=fake", { sparseLimit: 1000, scanWindow: 5000 })).forward).toEqual(fake.forward);
    // Hundreds of inserts and page reads: a loaded machine takes minutes on PostgreSQL.
  }, 300_000);

  it("sorts by date either way and by amount either way, every match exactly once, with filters and searches", async () => {
    const q: Query = await import("../../app/pages/orders.server");
    const states = ["created", "held", "created", "failed", "created"];
    for (let i = 0; i < 90; i++) {
      // Amounts repeat (ties broken by id), some orders have none yet (0).
      const cents = i % 11 === 0 ? 0 : ((i * 37) % 23) * 1000 + 9900;
      await addLink(SHOP_A, {
        state: states[i % states.length],
        confirmationStatus: i % 7 === 0 ? "fake" : "new",
        totalClient: cents ? (cents / 100).toFixed(2) : null,
        totalCents: cents,
        phone: i % 9 === 0 ? "0661999999" : undefined,
        createdAt: new Date(Date.UTC(2026, 5, 1) + Math.floor(i / 2) * 60_000),
      });
      if (i % 15 === 0) await addLink(SHOP_B, { totalCents: 999_999, totalClient: "9999.99" });
    }
    const all = await app.db.prisma.orderLink.findMany({ where: { shop: SHOP_A } });
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const sorted = {
      "date-desc": [...all].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || byId(b, a)),
      "date-asc": [...all].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byId(a, b)),
      "amount-desc": [...all].sort((a, b) => b.totalCents - a.totalCents || byId(b, a)),
      "amount-asc": [...all].sort((a, b) => a.totalCents - b.totalCents || byId(a, b)),
    };
    const small = { sparseLimit: 5, scanWindow: 20 };
    for (const [sort, rows] of Object.entries(sorted)) {
      const expected = (keep: (l: (typeof all)[number]) => boolean) => rows.filter(keep).map((l) => l.orderName);
      const plain = await walk(q, `sort=${sort}`, small);
      expect(plain.forward, sort).toEqual(expected(() => true));
      expect(plain.backward, sort).toEqual(plain.forward.slice(0, plain.backward.length));
      // A filter read from the rows (bounded windows), a dense state, a sparse state, a search.
      expect((await walk(q, `sort=${sort}&confirmation=fake`, small)).forward, `${sort} fake`).toEqual(
        expected((l) => l.confirmationStatus === "fake"),
      );
      expect((await walk(q, `sort=${sort}&state=created`, small)).forward, `${sort} created`).toEqual(
        expected((l) => l.state === "created"),
      );
      expect((await walk(q, `sort=${sort}&state=failed`, small)).forward, `${sort} failed`).toEqual(
        expected((l) => l.state === "failed"),
      );
      expect((await walk(q, `sort=${sort}&q=0661999999`, small)).forward, `${sort} phone`).toEqual(
        expected((l) => l.phone === "0661999999"),
      );
    }
    // The amount shows as cents, none while unknown.
    const top = await page(SHOP_A, "sort=amount-desc");
    expect(top.page.rows[0].amountCents).toBe(sorted["amount-desc"][0].totalCents);
    expect((await page(SHOP_A, "sort=amount-asc")).page.rows[0].amountCents).toBeNull();
    expect((await page(SHOP_A, "sort=bogus")).filter).toMatchObject({ sort: "date-desc" });
    // Hundreds of page reads: a loaded machine takes minutes on PostgreSQL.
  }, 300_000);
});

describe("bulk actions", () => {
  it("sends the selected orders again and queues their jobs; another shop's ids are skipped", async () => {
    const a1 = await addLink(SHOP_A, { state: "held", findingCodes: ["phone_missing"] });
    const a2 = await addLink(SHOP_A, { state: "invalid" });
    const b1 = await addLink(SHOP_B, { state: "held" });

    const result = await submit(list.action, SHOP_A, "/app/orders?index", {
      intent: "resend",
      ids: [a1.id, a2.id, b1.id].join(","),
    });

    expect(result).toEqual({ ok: true, intent: "resend", resent: 2, skipped: 1 });
    const jobs = await app.db.prisma.job.findMany({ orderBy: { key: "asc" } });
    expect(jobs.map((j) => [j.key, j.state, j.shop])).toEqual(
      [a1, a2].map((l) => [`post-lead:${SHOP_A}:${l.orderId}`, "pending", SHOP_A]).sort(),
    );
    for (const l of [a1, a2]) {
      expect(await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: l.id } })).toMatchObject({
        state: "received",
        resendBy: "merchant",
      });
    }
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: b1.id } })).state).toBe("held");
  });

  it("retries failed orders, every one of the shop when none is selected", async () => {
    const failed = [
      await addLink(SHOP_A, { state: "failed", reason: "Sending failed after 10 attempts" }),
      await addLink(SHOP_A, { state: "failed" }),
    ];
    await addLink(SHOP_A, { state: "created" });
    const otherShop = await addLink(SHOP_B, { state: "failed" });

    // Placed in March: the confirmation says both are older than the 7-day limit (they will wait for the merchant's word).
    // None goes at once: no age of an order that goes is claimed.
    expect((await page(SHOP_A)).failed).toMatchObject({ count: 2, older: { count: 2 }, oldestWithinLimitAt: null });
    const result = await submit(list.action, SHOP_A, "/app/orders?index", { intent: "retryFailed" });

    expect(result).toEqual({ ok: true, intent: "retryFailed", resent: 2, skipped: 0 });
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_A, state: "pending" } })).toBe(2);
    for (const l of failed)
      expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: l.id } })).state).toBe("received");
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: otherShop.id } })).state).toBe("failed");
    expect((await page(SHOP_A)).failed.count).toBe(0);
  });
});

describe("Order page", () => {
  it("shows the lead with names from the cached lists, the timeline in local and UTC time, and the Shopify link", async () => {
    const link = await addLink(SHOP_A, {
      state: "damaged",
      leadJson: JSON.stringify({
        customer_name: "Salma Bennani",
        customer_phone: "0612345678",
        city: 101,
        address: "12 Rue Ibn Battouta",
        total_client: "229.00",
        items: [
          { sku: "BABOUCHE-CLS-YEL", quantity: 2 },
          { product_id: 1002, quantity: 1 },
        ],
      }),
      anomalyCodes: ["recent_duplicate"],
      flags: JSON.stringify(["possible_duplicate_after_network_failure"]),
    });
    await app.db.prisma.timelineEvent.createMany({
      data: [
        // Casablanca's offset moves: UTC+0 in Ramadan 2026 (March), UTC+1 in May 2026.
        {
          shop: SHOP_A,
          linkId: link.id,
          kind: "received",
          message: "Order received from Shopify",
          at: new Date("2026-03-01T09:05:32.123Z"),
        },
        {
          shop: SHOP_A,
          linkId: link.id,
          kind: "answered",
          message: "Lead ATB-1 stored as damaged",
          at: new Date("2026-05-01T09:05:32.123Z"),
        },
      ],
    });

    const { order } = await loadDetail(SHOP_A, link.id);

    expect(order.lead).toEqual({
      source: "lead",
      customerName: "Salma Bennani",
      phone: "0612345678",
      cityId: 101,
      cityName: "Casablanca",
      address: "12 Rue Ibn Battouta",
      totalClient: "229.00",
      currency: "MAD",
      items: [
        {
          sku: "BABOUCHE-CLS-YEL",
          productId: null,
          name: "Babouches classiques (Jaune)",
          quantity: 2,
          inCatalogue: true,
        },
        { sku: null, productId: 1002, name: "Huile d'argan cosmétique 100 ml", quantity: 1, inCatalogue: true },
      ],
    });
    expect(order.timeline).toEqual([
      // Rows written before references: their stored English, no reference.
      {
        id: expect.any(String),
        kind: "received",
        message: "Order received from Shopify",
        text: null,
        detail: null,
        at: "2026-03-01T09:05:32.123Z",
        local: "2026-03-01 09:05:32",
        offset: "+00:00",
        consequences: [],
      },
      {
        id: expect.any(String),
        kind: "answered",
        message: "Lead ATB-1 stored as damaged",
        text: null,
        detail: null,
        at: "2026-05-01T09:05:32.123Z",
        local: "2026-05-01 10:05:32",
        offset: "+01:00",
        consequences: [],
      },
    ]);
    expect(order.shopifyUrl).toBe(`https://admin.shopify.com/store/atlas-beauty/orders/${link.orderId}`);
    expect(order.possibleDuplicate).toBe(true);
    expect(order.anomalies).toEqual([{ code: "recent_duplicate", message: "recent_duplicate", field: null }]);
    expect(order.canResend).toBe(true);
    expect(JSON.stringify(order)).not.toContain("PAYLOAD-ONLY");
  });

  it("offers each finding its fix, with the picker options it needs", async () => {
    const link = await addLink(SHOP_A, {
      state: "held",
      leadJson: null,
      payload: JSON.stringify({
        id: 1,
        shipping_address: {
          first_name: "Amine",
          last_name: "Alaoui",
          city: "Casa Anfa",
          address1: "Bd Anfa",
          phone: null,
        },
        line_items: [],
      }),
      findings: JSON.stringify([
        {
          code: "sku_unmatched",
          severity: "blocking",
          field: "items",
          message: "m",
          params: { sku: "babouche-ylw", title: "Babouche jaune" },
          suggestions: [{ kind: "product", productId: 1015, sku: "BABOUCHE-CLS-YEL", name: "Babouche", score: 0.6 }],
        },
        {
          code: "city_unmatched",
          severity: "blocking",
          field: "city",
          message: "m",
          params: { input: "Casa Anfa" },
          suggestions: [{ kind: "city", cityId: 101, name: "Casablanca", score: 0.7 }],
        },
        { code: "phone_missing", severity: "blocking", field: "customer_phone", message: "m", params: {} },
      ]),
    });

    const { order } = await loadDetail(SHOP_A, link.id);

    expect(order.findings.map((f) => [f.code, f.fix, f.groupKey])).toEqual([
      ["sku_unmatched", "mapSku", "sku:BABOUCHE-YLW"],
      ["city_unmatched", "aliasCity", "city:casanfa"],
      ["phone_missing", "phone", null],
    ]);
    // What the merchant judges a proposal by: the product's variant, price and stock; the city's region.
    expect(order.products.find((p) => p.sku === "BABOUCHE-CLS-YEL")).toMatchObject({
      productId: 1015,
      inStock: true,
      productName: "Babouches classiques",
      variantName: "Jaune",
      price: "90.00",
    });
    expect(order.products.some((p) => p.sku === "RIF-OLIVE-1L")).toBe(true);
    expect(order.cities.find((c) => c.id === 101)).toEqual({
      id: 101,
      name: "Casablanca",
      region: "Casablanca-Settat",
    });
    // A city to choose: where the order goes, as the customer wrote it.
    expect(order.shippingAddress).toMatchObject({ address1: "Bd Anfa", city: "Casa Anfa" });
    // No lead yet: the Shopify order's own fields.
    expect(order.lead).toMatchObject({
      source: "order",
      customerName: "Amine Alaoui",
      cityName: "Casa Anfa",
      address: "Bd Anfa",
      phone: null,
    });
  });

  it("records a phone and address correction for this order only, then sends it again", async () => {
    const link = await addLink(SHOP_A, { state: "held", findingCodes: ["phone_invalid"] });

    const refused = await act(SHOP_A, link.id, { intent: "correct", phone: "05 22 11 22 33" });
    expect(refused).toEqual({ ok: false, intent: "correct", error: "invalid_phone" });

    const result = await act(SHOP_A, link.id, {
      intent: "correct",
      phone: "+212 6 11 22 33 44",
      address: "  7 Rue Tarik  ",
    });

    expect(result).toEqual({ ok: true, intent: "correct", resent: 1 });
    const row = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.parse(row.overrides)).toEqual({ phone: "0611223344", address: "7 Rue Tarik" });
    expect(row.state).toBe("received");
    expect(
      await app.db.prisma.job.count({ where: { key: `post-lead:${SHOP_A}:${link.orderId}`, state: "pending" } }),
    ).toBe(1);
    const kinds = (
      await app.db.prisma.timelineEvent.findMany({ where: { linkId: link.id }, orderBy: { at: "asc" } })
    ).map((e) => e.kind);
    expect(kinds).toEqual(["fixed", "resend"]);
    expect((await loadDetail(SHOP_A, link.id)).order.overrides).toEqual({
      phone: "0611223344",
      address: "7 Rue Tarik",
    });
  });

  it("chooses the city of one order from the delivered cities, refusing any other", async () => {
    const link = await addLink(SHOP_A, { state: "held", findingCodes: ["city_missing"] });
    expect(await act(SHOP_A, link.id, { intent: "correct", cityId: "999999" })).toEqual({
      ok: false,
      intent: "correct",
      error: "unknown_city",
    });
    expect(await act(SHOP_A, link.id, { intent: "correct", cityId: "104" })).toEqual({
      ok: true,
      intent: "correct",
      resent: 1,
    });
    const row = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.parse(row.overrides).city).toBe(
      JSON.parse(seed("cities.json")).find((c: { id: number }) => c.id === 104).name,
    );
  });

  it("refuses to send an order being sent", async () => {
    const link = await addLink(SHOP_A, { state: "posting" });
    expect(await act(SHOP_A, link.id, { intent: "resend" })).toEqual({
      ok: false,
      intent: "resend",
      error: "conflict",
    });
    expect((await loadDetail(SHOP_A, link.id)).order.canResend).toBe(false);
  });

  it("sends a created lead again only once the merchant confirmed a second lead, and the timeline says so", async () => {
    const link = await addLink(SHOP_A, { state: "created" });
    const { order } = await loadDetail(SHOP_A, link.id);
    expect(order.nextAction).toEqual({ kind: "none", canResend: true, secondLead: true });

    // Without the confirmation (a stale page, a crafted request): refused, nothing queued.
    expect(await act(SHOP_A, link.id, { intent: "resend" })).toEqual({
      ok: false,
      intent: "resend",
      error: "second_lead",
    });
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } })).state).toBe("created");
    expect(await app.db.prisma.job.count()).toBe(0);

    expect(await act(SHOP_A, link.id, { intent: "resend", secondLead: "confirmed" })).toEqual({
      ok: true,
      intent: "resend",
      resent: 1,
    });
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } })).state).toBe("received");
    const step = await app.db.prisma.timelineEvent.findFirstOrThrow({ where: { linkId: link.id } });
    expect([step.kind, JSON.parse(step.data!)]).toEqual(["resend_second_lead", { previousRef: link.leadRef }]);
    // The bulk action never makes second leads: a sent order is left as it was.
    const other = await addLink(SHOP_A, { state: "created" });
    expect(await submit(list.action, SHOP_A, "/app/orders?index", { intent: "resend", ids: other.id })).toEqual({
      ok: true,
      intent: "resend",
      resent: 0,
      skipped: 1,
    });
  });

  it("names the next action by state: the fix, a send, a refusal in plain words", async () => {
    const held = await addLink(SHOP_A, { state: "held", findingCodes: ["sku_unmatched"] });
    expect((await loadDetail(SHOP_A, held.id)).order.nextAction.kind).toBe("fix");
    const ready = await addLink(SHOP_A, {
      state: "held",
      reason: "Automatic sending is off: send this order from the app when it is ready",
    });
    expect((await loadDetail(SHOP_A, ready.id)).order.nextAction).toEqual({
      kind: "send",
      canResend: true,
      secondLead: false,
    });
    const refused = await addLink(SHOP_A, { state: "invalid" });
    await app.db.prisma.timelineEvent.create({
      data: {
        shop: SHOP_A,
        linkId: refused.id,
        kind: "answered",
        message: "The platform refused customer_phone",
        data: JSON.stringify({
          refused: { field: "customer_phone", message: "customer_phone must be a Moroccan mobile." },
        }),
      },
    });
    const { order } = await loadDetail(SHOP_A, refused.id);
    expect(order.nextAction.kind).toBe("fixRefusal");
    expect(order.refusal).toEqual({ field: "customer_phone", message: "customer_phone must be a Moroccan mobile." });
    // The Orders list says the same in its "needs attention" column.
    const row = (await page(SHOP_A, "state=invalid")).page.rows[0];
    expect(row.attention).toEqual({
      kind: "refused",
      refusal: { field: "customer_phone", message: "customer_phone must be a Moroccan mobile." },
    });
    expect(row.stage).toBe("refused");
  });

  it("links a recent duplicate to the lead it repeats, and keeps both or cancels it in Shopify on the merchant's word", async () => {
    const earlier = await addLink(SHOP_A, { state: "created", leadRef: "ATB-70001" });
    const duplicate = await addLink(SHOP_A, {
      state: "damaged",
      leadRef: "ATB-70002",
      anomalies: JSON.stringify([
        {
          code: "recent_duplicate",
          message: "Same phone and product as ATB-70001",
          field: "customer_phone",
          duplicateOf: "ATB-70001",
        },
      ]),
    });
    const { order } = await loadDetail(SHOP_A, duplicate.id);
    expect(order.nextAction.kind).toBe("decideDuplicate");
    expect(order.duplicateOf).toEqual({ ref: "ATB-70001", orderId: earlier.id, orderName: earlier.orderName });
    expect((await page(SHOP_A, "state=damaged")).page.rows[0].attention).toEqual({
      kind: "anomaly",
      code: "recent_duplicate",
      duplicateOf: "ATB-70001",
    });

    // Shopify cannot be reached in this test: the cancellation says so and changes nothing.
    expect(await act(SHOP_A, duplicate.id, { intent: "cancelDuplicate" })).toEqual({
      ok: false,
      intent: "cancelDuplicate",
      error: "shopify_failed",
    });
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: duplicate.id } })).cancelledAt).toBeNull();

    expect(await act(SHOP_A, duplicate.id, { intent: "keepDuplicate" })).toEqual({
      ok: true,
      intent: "keepDuplicate",
      resent: 0,
    });
    const kept = (await loadDetail(SHOP_A, duplicate.id)).order;
    expect([kept.nextAction.kind, kept.duplicateKept]).toEqual(["none", true]);
    expect(kept.timeline.map((e) => e.kind)).toEqual(["duplicate_kept"]);
    expect((await page(SHOP_A, "state=damaged")).page.rows[0].attention).toBeNull();
    // Only a flagged duplicate is decided this way.
    expect(await act(SHOP_A, earlier.id, { intent: "keepDuplicate" })).toEqual({
      ok: false,
      intent: "keepDuplicate",
      error: "conflict",
    });
  });

  it("cancels a duplicate in Shopify with the order's id, restocked and unpaid, and the lead stays on the platform", async () => {
    const { cancelDuplicateInShopify } = await import("../../app/sync/order-actions.server");
    const duplicate = await addLink(SHOP_A, {
      state: "damaged",
      leadRef: "ATB-70003",
      anomalies: JSON.stringify([{ code: "recent_duplicate", message: "m", duplicateOf: "ATB-70001" }]),
    });
    const calls: { query: string; variables: Record<string, unknown> }[] = [];
    const admin = {
      graphql: async (query: string, options?: { variables?: Record<string, unknown> }) => {
        calls.push({ query, variables: options?.variables ?? {} });
        return new Response(
          JSON.stringify({
            data: { orderCancel: { job: { id: "gid://shopify/Job/1", done: false }, orderCancelUserErrors: [] } },
          }),
        );
      },
    };
    await cancelDuplicateInShopify(app.db.prisma, admin as never, SHOP_A, duplicate.id, { by: "merchant" });
    expect(calls).toHaveLength(1);
    expect(calls[0].query).toContain("orderCancel");
    expect(calls[0].variables).toMatchObject({
      orderId: `gid://shopify/Order/${duplicate.orderId}`,
      restock: true,
      notifyCustomer: false,
      refundMethod: { originalPaymentMethodsRefund: false },
    });
    const after = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: duplicate.id } });
    expect([after.state, after.leadRef, after.cancelledAt !== null]).toEqual(["damaged", "ATB-70003", true]);
    const step = await app.db.prisma.timelineEvent.findFirstOrThrow({ where: { linkId: duplicate.id } });
    expect(step.kind).toBe("cancelled_in_shopify");
    // The lead lives on: the seller space is the next action.
    expect((await loadDetail(SHOP_A, duplicate.id)).order.nextAction.kind).toBe("sellerSpace");
    await expect(
      cancelDuplicateInShopify(app.db.prisma, admin as never, SHOP_A, duplicate.id, { by: "merchant" }),
    ).rejects.toThrow(/cancelled in Shopify already/);
  });

  it("offers to send the held orders of a customer the merchant trusts", async () => {
    const phone = "0661234500";
    const reason = { code: "customer_record", counts: { refused: 2 }, days: 90, blocked: false };
    const first = await addLink(SHOP_A, { state: "held", phone });
    const second = await addLink(SHOP_A, { state: "held", phone });
    const blockedByFinding = await addLink(SHOP_A, { state: "held", phone, findingCodes: ["sku_unmatched"] });
    for (const link of [first, second, blockedByFinding]) {
      await app.db.prisma.timelineEvent.create({
        data: {
          shop: SHOP_A,
          linkId: link.id,
          kind: "customer_hold",
          message: "2 refused",
          data: JSON.stringify({ reason }),
        },
      });
    }
    expect((await loadDetail(SHOP_A, first.id)).order.nextAction.kind).toBe("sendAnyway");
    const result = await act(SHOP_A, first.id, { intent: "trustCustomer" });
    expect(result).toMatchObject({ ok: true, intent: "trustCustomer", release: { stillHeld: 1 } });
    const released = (result as { release: { orders: { id: string }[] } }).release.orders.map((o) => o.id).sort();
    expect(released).toEqual([first.id, second.id].sort());
    expect(await act(SHOP_A, first.id, { intent: "sendReleased", ids: released.join(",") })).toEqual({
      ok: false,
      intent: "sendReleased",
      error: "group_changed",
    });
    expect(await act(SHOP_A, first.id, { intent: "sendReleased", ids: released.join(","), count: "2" })).toMatchObject({
      ok: true,
      resent: 2,
    });
    expect((await app.db.prisma.orderLink.findMany({ where: { id: { in: released } } })).map((l) => l.state)).toEqual([
      "received",
      "received",
    ]);
  });
});

describe("shops apart", () => {
  it("answers 404 when shop B opens, resends, fixes or corrects shop A's order, and changes nothing", async () => {
    const link = await addLink(SHOP_A, { state: "held", findingCodes: ["sku_unmatched"] });
    const before = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });

    await expectNotFound(loadDetail(SHOP_B, link.id));
    await expectNotFound(act(SHOP_B, link.id, { intent: "resend" }));
    await expectNotFound(act(SHOP_B, link.id, { intent: "correct", phone: "0611223344" }));
    await expectNotFound(act(SHOP_B, link.id, { intent: "fixSku", key: "sku:X-1", platformSku: "ARG-OIL-50" }));
    await expectNotFound(loadDetail(SHOP_A, "no-such-link"));

    expect(await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } })).toEqual(before);
    expect(await app.db.prisma.skuMapping.count()).toBe(0);
    expect(await app.db.prisma.job.count()).toBe(0);
    expect(await app.db.prisma.timelineEvent.count()).toBe(0);
    // Nor does B's list show it, whatever it searches.
    expect((await page(SHOP_B, `q=${encodeURIComponent(link.orderName)}`)).page.rows).toEqual([]);
  });
});
