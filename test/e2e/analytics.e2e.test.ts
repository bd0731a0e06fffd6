/**
 * The Analytics page in a real browser against the production build: orders go
 * through the real pipeline and sandbox (sent, held, confirmed, shipped,
 * delivered, returned, cancelled on the call) on top of two months of older
 * orders recounted by the rebuild; the page shows the funnel and its losses, the
 * rates with their denominators, the city and product tables, changes period, sorts,
 * downloads a table as CSV, and passes axe-core, in English and in French, and on a phone (375 px).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sandboxControl } from "../../sandbox/index";
import { amount } from "../../app/analytics/csv";
import { signedCents } from "../../app/analytics/contribution";
import { openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import { openPhoneSession, PHONE, startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const DAY = 86_400_000;

let world: E2EWorld;

/** Sum of layout shifts since the page started loading (CLS without the session windows). */
const LAYOUT_SHIFT_OBSERVER = `window.__shifts = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; })
  .observe({ type: "layout-shift", buffered: true });`;

async function seedHistory(): Promise<void> {
  // Older orders, written directly: 16 over two months (Casablanca and Rabat), then recounted by the rebuild.
  const db = world.server.db;
  const now = Date.now();
  for (let i = 0; i < 16; i++) {
    const delivered = i % 4 !== 3;
    const createdAt = new Date(now - (20 + i * 3) * DAY);
    await db.orderLink.create({
      data: {
        shop: SHOP,
        orderId: String(7_100_000 + i),
        orderName: `#H${i}`,
        payload: "{}",
        externalRef: `shopify:${7_100_000 + i}`,
        state: "created",
        leadRef: `ATB-H${i}`,
        cityId: i % 2 ? 102 : 101,
        productKeys: JSON.stringify(["product:1002"]),
        totalClient: "229.00",
        confirmationStatus: "confirmed",
        shippingStatus: delivered ? "delivered" : "returned",
        sellerProfit: delivered ? "80.50" : null,
        statusFinal: true,
        statusCheckedAt: new Date(createdAt.getTime() + 2 * DAY),
        createdAt,
      },
    });
  }
  const { rebuildRollups } = await import("../../app/analytics/rollups.server");
  await rebuildRollups(db, SHOP);
}

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  await seedHistory();
  const { flow, sandbox } = world;
  // Today's orders, through the real pipeline.
  await flow.place([
    { id: 7_200_001, name: "#5001", phone: "0663000001", city: "Casablanca" },
    {
      id: 7_200_002,
      name: "#5002",
      phone: "0663000002",
      city: "Rabat",
      items: [{ sku: "AMLOU-250", price: "120.00", title: "Amlou" }],
    },
    { id: 7_200_003, name: "#5003", phone: "0663000003", city: "Casablanca" },
    { id: 7_200_004, name: "#5004", phone: "0663000004", city: "Rabat" },
    { id: 7_200_005, name: "#5005", phone: "0663000005", city: "Xyzzyville" },
  ]);
  await flow.drain();
  const control = sandboxControl(sandbox.url);
  await control.config({ autopilot: false });
  const refOf = async (name: string) =>
    (await world.server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: name } })).leadRef!;
  const delivered = await refOf("#5001");
  await control.advance(delivered, { confirmation_status: "confirmed" });
  await control.advance(delivered, { shipping_status: "picked_up" });
  await control.advance(delivered, { shipping_status: "shipped", tracking_number: "TRK-5001" });
  await control.advance(delivered, { shipping_status: "delivered" });
  const returned = await refOf("#5002");
  await control.advance(returned, { confirmation_status: "confirmed" });
  await control.advance(returned, { shipping_status: "picked_up" });
  await control.advance(returned, { shipping_status: "shipped", tracking_number: "TRK-5002" });
  await control.advance(returned, { shipping_status: "returned" });
  await control.advance(await refOf("#5003"), { confirmation_status: "canceled" });
  await flow.sync();
});
afterAll(() => world?.close());

describe("Analytics", () => {
  let session: EmbeddedSession;
  afterAll(() => session?.close());

  it("shows the funnel, its losses and the tables from the pipeline's orders, in English", async () => {
    session = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await world.server.mintToken(SHOP),
    });
    const { page } = session;
    await page.addInitScript(LAYOUT_SHIFT_OBSERVER);
    await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=7", { locale: "en" }));
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    expect(await page.title()).toBe("Analytics · COD Lead Sync");

    // THEN today's five orders: one held, four sent, two confirmed and shipped, one delivered
    const count = (step: string) => page.locator(`[data-step-count="${step}"]`).textContent();
    expect([
      await count("orders"),
      await count("sent"),
      await count("confirmed"),
      await count("shipped"),
      await count("delivered"),
    ]).toEqual(["5", "4", "2", "2", "1"]);
    expect(await page.locator('[data-loss="held"]').textContent()).toBe("1 held for a fix");
    expect(await page.locator('[data-loss="cancelled_on_call"]').textContent()).toBe("1 cancelled on the call");
    expect(await page.locator('[data-loss="returned"]').textContent()).toBe("1 refused at the door or returned");
    // AND each rate names what it divides
    const rate = page.locator('[data-figure="deliveryRate"] span');
    expect(await rate.textContent()).toBe("50%");
    expect(await rate.getAttribute("title")).toBe("1 delivered of 2 shipped");
    // Whole dirhams: no decimals (the format table).
    expect(await page.locator('[data-figure="collected"]').textContent()).toBe("229 MAD");

    // AND the city table has Casablanca, Rabat and the unmatched city of the held order
    const cities = page.locator('[data-table="cities"]');
    expect((await cities.locator("[data-line]").allTextContents()).sort()).toEqual([
      "Casablanca",
      "City not matched",
      "Rabat",
    ]);
    const rabat = cities.locator("tr", { has: page.locator('[data-line="102"]') });
    expect(await rabat.locator("[title]").first().getAttribute("title")).toBe("0 delivered of 1 shipped");
    expect(await page.locator('[data-table="products"] [data-line]').count()).toBeGreaterThanOrEqual(2);

    // AND the charts replace their placeholders without moving the page
    await page.locator('[data-chart="deliveryRate"] svg').first().waitFor();
    await page.locator('[data-chart="collected"] svg').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await session.screenshot("analytics-en");
    expect(session.refused).toEqual([]);
  });

  it("changes period, compares with the one before, sorts a table and exports it as CSV", async () => {
    const { page } = session;
    // WHEN the merchant picks 90 days
    await page.getByRole("button", { name: "90 days" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("period")).toBe("90");
    // THEN the two months of older orders count too: 16 more, 12 of them delivered
    await expect.poll(() => page.locator('[data-step-count="orders"]').textContent()).toBe("21");
    expect(await page.locator('[data-step-count="delivered"]').textContent()).toBe("13");
    expect(await page.locator('[data-figure="deliveryRate"] span').getAttribute("title")).toBe(
      "13 delivered of 18 shipped",
    );
    await page.locator('[data-chart="collected"] svg').first().waitFor();
    // The README's picture of the page is the demo shop's (test/e2e/cash.e2e.test.ts).
    await session.screenshot("analytics-90-days-en");

    // WHEN the merchant sorts the cities by delivery rate, then again
    const cities = page.locator('[data-table="cities"]');
    const cityOrder = () => cities.locator("[data-line]").allTextContents();
    await cities.getByRole("button", { name: /Delivery rate/ }).click();
    // THEN best first, and the city without a rate (nothing shipped) last either way
    await expect.poll(cityOrder).toEqual(["Casablanca", "Rabat", "City not matched"]);
    await cities.getByRole("button", { name: /Delivery rate/ }).click();
    await expect.poll(cityOrder).toEqual(["Rabat", "Casablanca", "City not matched"]);

    // WHEN the merchant downloads the city table
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV: By city" }).click(),
    ]);
    const csv = readFileSync((await download.path())!, "utf8");
    const [header, ...rows] = csv.trim().split("\r\n");
    // Headers in the reader's words, English here (the BOM before them went with trim()).
    expect(header).toBe(
      "City id,Name,Orders,Shipped,Delivered,Returned,Delivery rate (delivered / shipped),Return rate (returned / shipped),Collected (MAD),Seller profit (MAD),Median days to delivery",
    );
    // Casablanca: 8 older (all delivered, 2 days after the order) + #5001 delivered today + #5003 cancelled on the call
    const profit5001 = (await world.server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#5001" } }))
      .sellerProfit;
    expect(profit5001).toMatch(/^\d+\.\d{2}$/);
    expect(rows.find((r) => r.startsWith("101,"))).toBe(
      `101,Casablanca,10,9,9,0,1.0000,0.0000,${amount(9 * 22900)},${amount(8 * 8050 + signedCents(profit5001))},2`,
    );
    expect(rows.map((r) => r.split(",")[0]).sort()).toEqual(["0", "101", "102"]);

    // A custom period written wrong is answered, and the default shown
    await visit(
      page,
      await world.server.embeddedUrl(SHOP, "/app/analytics?from=2026-02-30&to=2026-03-10", { locale: "en" }),
    );
    await page.getByText("The start date is not a date (write it YYYY-MM-DD).").waitFor();
  });

  it("reads in French, with its own title, and passes axe-core", async () => {
    const fr = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await world.server.mintToken(SHOP),
    });
    try {
      const { page } = fr;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=90", { locale: "fr" }));
      await page.getByRole("heading", { name: "Analyses", level: 1 }).waitFor();
      expect(await page.title()).toBe("Analyses · COD Lead Sync");
      await page.getByRole("heading", { name: "De la commande à la livraison" }).waitFor();
      expect(await page.locator('[data-figure="deliveryRate"] span').getAttribute("title")).toBe(
        "13 livrés sur 18 expédiés",
      );
      expect(await page.locator('[data-loss="returned"]').textContent()).toBe("5 refusées à la porte ou retournées");
      await page.locator('[data-chart="collected"] svg').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await fr.screenshot("analytics-fr");
    } finally {
      await fr.close();
    }
  });

  it("GIVEN a phone at 375 px WHEN the merchant reads Analytics in French THEN the page is no wider than the screen, its tables scroll by keyboard and axe-core finds nothing", async () => {
    const phone = await openPhoneSession(world, SHOP, "fr");
    try {
      const { page } = phone;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=90", { locale: "fr" }));
      await page.locator('[data-table="cities"]').waitFor();
      await page.locator('[data-table="products"]').waitFor();
      await page.locator('[data-chart="collected"] svg').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await page.locator('[data-loss="returned"]').textContent()).toBe("5 refusées à la porte ou retournées");
      // The city table is wider than the phone: it scrolls inside the page, and the keyboard reaches it.
      const cities = page.locator('[data-table="cities"]');
      expect(await cities.evaluate((el) => el.querySelector("table")!.scrollWidth > el.clientWidth)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await phone.screenshot("analytics-fr-phone");
    } finally {
      await phone.close();
    }
  });
});
