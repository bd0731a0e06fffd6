/**
 * The Orders page in a real browser against the production build: orders run
 * through the pipeline against a sandbox into the server's database, a lead is
 * confirmed on the sandbox and synced, and the list shows the sandbox's statuses;
 * a row opens the order with its timeline.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { sandboxControl } from "../../sandbox/index";
import { openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import { startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { formatterFor, t } from "../../app/i18n";

const SHOP = "atlas-beauty.myshopify.com";

let world: E2EWorld;
let sandbox: E2EWorld["sandbox"];
let server: E2EWorld["server"];
let browser: E2EWorld["browser"];
let flow: E2EWorld["flow"];

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  ({ sandbox, server, browser, flow } = world);
});
afterAll(() => world?.close());

/** The visible text of each cell of an order's row (badges' hidden tone words left out). */
async function rowOf(page: Page, orderName: string) {
  return page.evaluate((name) => {
    const row = [...document.querySelectorAll("tr")].find((tr) => tr.querySelector(`[data-order="${name}"]`));
    const cell = (selector: string) => {
      const node = row?.querySelector(selector)?.cloneNode(true) as HTMLElement | undefined;
      node?.querySelectorAll('[class*="visuallyHidden"], .cod-visually-hidden').forEach((hidden) => hidden.remove());
      return node?.textContent?.trim() ?? null;
    };
    return {
      stage: cell("[data-stage]"),
      customer: cell('[data-cell="customer"]'),
      city: cell('[data-cell="city"]'),
      amount: cell('[data-cell="amount"]'),
      attention: cell("[data-attention]") ?? "",
    };
  }, orderName);
}

/** Visible text of an element (hidden accessibility labels left out). */
async function visibleText(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const node = element.cloneNode(true) as HTMLElement;
      node.querySelectorAll('[class*="visuallyHidden"]').forEach((hidden) => hidden.remove());
      return node.textContent?.trim() ?? "";
    });
}

describe("Orders after a pipeline run", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await server.mintToken(SHOP),
    });
  });
  afterAll(() => session?.close());

  it("shows each order's lead with the sandbox's confirmation and shipping status, and opens one", async () => {
    // GIVEN five orders through the pipeline: two clean, one unknown SKU, one without phone, one below cost
    await flow.place([
      { id: 6_100_001, name: "#3001", phone: "0661000001", city: "Casablanca" },
      { id: 6_100_002, name: "#3002", phone: "0661000002", city: "Rabat" },
      {
        id: 6_100_003,
        name: "#3003",
        phone: "0661000003",
        items: [{ sku: "BABOUCHE-YLW", price: "199.00", title: "Babouche jaune" }],
      },
      { id: 6_100_004, name: "#3004", phone: null },
      {
        id: 6_100_005,
        name: "#3005",
        phone: "0661000005",
        items: [{ sku: "HAIR-DRYER-2200", price: "50.00" }],
        shipping: "0.00",
      },
    ]);
    await flow.drain();
    // AND the platform's call centre confirms #3001, which the status sync picks up
    const first = await server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#3001" } });
    await sandboxControl(sandbox.url).advance(first.leadRef!, { confirmation_status: "confirmed" });
    await flow.sync();

    // WHEN the merchant opens Orders
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/orders", { locale: "en" }));
    await page.getByRole("heading", { name: "Orders", level: 1 }).waitFor();

    // THEN every order is there, newest first, with the columns a COD merchant scans and one stage each
    await expect
      .poll(() => page.locator("[data-order]").allTextContents())
      .toEqual(["#3005", "#3004", "#3003", "#3002", "#3001"]);
    expect(await rowOf(page, "#3001")).toEqual({
      stage: "Confirmed",
      customer: "Salma Bennani",
      city: "Casablanca",
      amount: formatterFor("en").money(22_900),
      attention: "",
    });
    expect(await rowOf(page, "#3002")).toMatchObject({ stage: "Sent", city: "Rabat" });
    expect(await rowOf(page, "#3003")).toMatchObject({ stage: "Held", attention: "Unknown SKU" });
    expect(await rowOf(page, "#3004")).toMatchObject({
      stage: "Held",
      attention: "No phone",
      customer: "Salma Bennani",
    });
    expect(await rowOf(page, "#3005")).toMatchObject({ stage: "Sent", attention: "Platform: inconsistent total" });
    await session.screenshot("orders-list-en");

    // AND the "Needs attention" tab keeps only the orders waiting for the merchant
    await page.getByRole("tab", { name: "Needs attention" }).click();
    await expect.poll(() => page.locator("[data-order]").allTextContents()).toEqual(["#3004", "#3003"]);
    expect(new URL(page.url()).searchParams.get("state")).toBe("held,invalid,failed");

    // AND a search by phone finds the order
    await page.getByRole("tab", { name: "All" }).click();
    await page.getByRole("button", { name: "Search and filter results" }).click();
    await page.getByPlaceholder(t("en", "orders.search.placeholder")).fill("+212 661 000 002");
    await expect.poll(() => page.locator("[data-order]").allTextContents()).toEqual(["#3002"]);

    // WHEN the merchant opens #3002 from its row
    await page.locator('[data-order="#3002"] a').click();
    await page.getByRole("heading", { name: "Order #3002" }).waitFor();

    // THEN the lead, the link to Shopify and the timeline with exact local times show
    // The city's name, not the platform's id.
    expect(await page.locator('[data-field="city"]').textContent()).toBe("Rabat");
    expect(await page.locator('[data-field="phone"]').first().textContent()).toBe("0661000002");
    expect(await page.getByRole("link", { name: "Open in Shopify" }).getAttribute("href")).toBe(
      "https://admin.shopify.com/store/atlas-beauty/orders/6100002",
    );
    const times = page.locator("[data-timeline] time");
    expect(
      await page.locator("[data-timeline]").evaluateAll((els) => els.map((e) => e.getAttribute("data-timeline"))),
      // The platform's answer is folded into the send's row: one row per event.
    ).toEqual(["received", "mapped", "posted"]);
    // The shop's wall clock in the reader's format; the exact instant (UTC) in the markup and, with the zone's offset, on hover.
    expect(await times.first().textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/);
    expect(await times.first().getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await times.first().getAttribute("title")).toMatch(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} \(UTC[+-]\d{2}:\d{2}\)$/,
    );
    await session.screenshot("order-detail-en");
    expect(session.refused).toEqual([]);
  });

  it("shows a held order's fix in place and sends it again with a corrected phone", async () => {
    const { page } = session;
    const held = await server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#3004" } });
    await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "en" }));
    await page.getByRole("heading", { name: "Order #3004" }).waitFor();
    expect(await page.locator('[data-finding="phone_missing"]').textContent()).toContain(
      "The order has no phone number.",
    );
    await session.screenshot("order-detail-held-en");

    await page.getByLabel("Customer's mobile").fill("0661000004");
    await page.getByRole("button", { name: "Save and send again" }).first().click();
    await expect.poll(() => session.toasts()).toContain("Done: 1 order sent again");
    await flow.drain();
    await expect
      .poll(async () => (await server.db.orderLink.findUniqueOrThrow({ where: { id: held.id } })).state)
      .toBe("created");
    await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "en" }));
    expect(await visibleText(page, '[data-field="state"]')).toBe("Lead created");
    await session.screenshot("order-detail-fixed-en");
  });

  it("sends selected orders again from the list's bulk action, never making a second lead", async () => {
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/orders", { locale: "en" }));
    for (const name of ["#3003", "#3005"]) {
      const row = page.locator("tr", { has: page.locator(`[data-order="${name}"]`) });
      await row.locator('input[type="checkbox"]').check({ force: true });
    }
    await page.getByRole("button", { name: "Send again" }).click();
    // A bulk send asks first, with how many and how much.
    const modal = page.locator("ui-modal[open]");
    await modal.waitFor();
    expect(await modal.locator("[data-modal-body]").textContent()).toContain("2 orders");
    await modal.locator("button", { hasText: "Send 2 orders" }).click();
    // The held order goes again; the damaged one's lead exists: it is left as it was.
    await expect.poll(() => session.toasts()).toContain("1 order sent again, 1 left as it was");
    await expect.poll(() => rowOf(page, "#3003").then((r) => r.stage)).toBe("Received");
    expect((await rowOf(page, "#3005")).stage).toBe("Sent");
    const job = await server.db.job.findFirstOrThrow({ where: { key: `post-lead:${SHOP}:6100003` } });
    expect(job.state).toBe("pending");
  });
});

describe("in French", () => {
  it("shows the Orders page in French", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, "/app/orders", { locale: "fr" }));
      await page.getByRole("heading", { name: "Commandes", level: 1 }).waitFor();
      expect(await rowOf(page, "#3001")).toMatchObject({
        stage: "Confirmée",
        amount: formatterFor("fr").money(22_900),
      });
      // Sent again from the list above, waiting for the worker.
      expect(await rowOf(page, "#3003")).toMatchObject({ stage: "Reçue" });
      expect(await page.getByRole("tab", { name: "À traiter" }).isVisible()).toBe(true);
      await session.screenshot("orders-list-fr");
    } finally {
      await session.close();
    }
  });
});
