/**
 * The customer delivery record in a real browser against the production build:
 * a customer's earlier leads refused and returned on the sandbox, the hold rule
 * on, a new order of the same customer (phone typed another way) held; the order
 * page shows the Customer card and the reason, "Send anyway" sends it; in English
 * and in French, passing axe-core.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Locator } from "playwright-core";
import { sandboxControl } from "../../sandbox/index";
import { readShopSettings } from "../../app/models/shop-settings";
import { openEmbeddedSession } from "../helpers/browser";
import { openPhoneSession, PHONE, startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { axeViolations } from "../helpers/axe";
import { t } from "../../app/i18n";

const SHOP = "atlas-beauty.myshopify.com";

let world: E2EWorld;

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  const { sandbox, server, flow } = world;
  const platform = sandboxControl(sandbox.url);
  // One customer's orders minutes apart: not duplicates for this test.
  await platform.config({ duplicate_window_seconds: 0 });
  const shop = await server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const settings = { ...readShopSettings(shop.settings), duplicateWindowMinutes: 0 };
  await server.db.shop.update({ where: { domain: SHOP }, data: { settings: JSON.stringify(settings) } });

  // GIVEN a customer who refused one order on the call and returned another
  await flow.place([
    { id: 6_200_001, name: "#4001", phone: "0661777001", city: "Casablanca", customerId: 501 },
    { id: 6_200_002, name: "#4002", phone: "+212 661 777 001", city: "Casablanca", customerId: 501 },
  ]);
  await flow.drain();
  const [refused, returned] = await server.db.orderLink.findMany({
    where: { shop: SHOP },
    orderBy: { orderName: "asc" },
  });
  await platform.advance(refused.leadRef!, { confirmation_status: "canceled" });
  await platform.advance(returned.leadRef!, { confirmation_status: "confirmed" });
  await platform.advance(returned.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-E2E-1" });
  await platform.advance(returned.leadRef!, { shipping_status: "shipped" });
  await platform.advance(returned.leadRef!, { shipping_status: "returned" });
  await flow.sync();

  // AND the hold rule on: 2 failed deliveries in 90 days
  const now = readShopSettings((await server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } })).settings);
  await server.db.shop.update({
    where: { domain: SHOP },
    data: { settings: JSON.stringify({ ...now, customerHold: { enabled: true, failures: 2, days: 90 } }) },
  });

  // WHEN the customer orders again, twice, typing the phone other ways
  await flow.place([
    { id: 6_200_003, name: "#4003", phone: "00212661777001", city: "Casablanca", customerId: 501 },
    { id: 6_200_004, name: "#4004", phone: "06 61 77 70 01", city: "Casablanca", customerId: 501 },
    // AND another customer, without a record
    { id: 6_200_005, name: "#4005", phone: "0661777999", city: "Rabat", customerId: 502 },
  ]);
  await flow.drain();
});
afterAll(() => world?.close());

/** How many lines a button's words take: its text alone, not the boxes around it. */
function textLines(button: Locator): Promise<number> {
  return button.evaluate((element) => {
    const tops = new Set<number>();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) tops.add(Math.round(rect.top));
    }
    return tops.size;
  });
}

const linkOf = (name: string) => world.server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: name } });

describe("customer delivery record", () => {
  it("holds the returning customer's order, shows the Customer card and sends it anyway (English)", async () => {
    const held = await linkOf("#4003");
    expect(held.state).toBe("held");
    expect(held.reason).toBe("1 refused and 1 returned in the last 90 days");

    const { server } = world;
    const session = await openEmbeddedSession(world.browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await server.mintToken(SHOP),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "en" }));
      await page.getByRole("heading", { name: "Order #4003" }).waitFor();
      expect(await page.title()).toContain("#4003");
      await page.getByRole("heading", { name: "Customer delivery record", level: 2, exact: true }).waitFor();
      await expect.poll(() => page.getByText("High risk").count()).toBeGreaterThan(0);
      expect(await page.getByText("Refused: 1").count()).toBe(1);
      expect(await page.getByText("Returned: 1").count()).toBe(1);
      expect(await page.getByText("Held because of the customer's delivery record").count()).toBe(1);
      expect(await page.getByText("1 refused and 1 returned in the last 90 days").count()).toBeGreaterThan(0);
      // The last orders link to each other order of the customer.
      for (const name of ["#4001", "#4002", "#4004"]) expect(await page.getByRole("link", { name }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("customer-card-held-en");

      // AND the merchant downloads the customer's data on request, from the card
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export (JSON)" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("customer-0661777001.json");
      const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as {
        shop: string;
        record: { counts: Record<string, number> };
        orders: { orderName: string }[];
      };
      expect(exported.shop).toBe(SHOP);
      expect(exported.record.counts).toMatchObject({ refused: 1, returned: 1 });
      expect(exported.orders.map((o) => o.orderName)).toEqual(["#4004", "#4003", "#4002", "#4001"]);

      // AND Anomalies lists both held orders of the customer with the reason
      await visit(page, await server.embeddedUrl(SHOP, "/app/anomalies", { locale: "en" }));
      await page.getByRole("heading", { name: "Held because of the customer's record (2)", level: 2 }).waitFor();
      expect(
        await page
          .locator("[data-held-order]")
          .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-held-order"))),
      ).toEqual(["#4004", "#4003"]);
      expect(await page.locator("[data-held-order] [data-hold-reason]").allTextContents()).toEqual([
        "1 refused and 1 returned in the last 90 days",
        "1 refused and 1 returned in the last 90 days",
      ]);
      expect(await page.getByRole("button", { name: "Send anyway (#4003)" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("anomalies-customer-holds-en");

      await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "en" }));
      await page.getByRole("heading", { name: "Order #4003" }).waitFor();
      // Sending despite the record asks first, in the App Bridge modal.
      await page.getByRole("button", { name: "Send anyway" }).click();
      await page.locator("ui-modal[open]").getByRole("button", { name: "Send anyway" }).click();
      await expect.poll(async () => (await session.toasts()).includes("Order sent anyway")).toBe(true);
      await world.flow.drain();
      const sent = await linkOf("#4003");
      expect(sent.state).toBe("created");
      const kinds = (
        await server.db.timelineEvent.findMany({ where: { linkId: held.id }, orderBy: { at: "asc" } })
      ).map((e) => e.kind);
      expect(kinds).toEqual(expect.arrayContaining(["customer_hold", "send_anyway", "answered"]));

      // AND Orders shows the risk of each order's customer, and the risk filter keeps the risky ones
      await visit(page, await server.embeddedUrl(SHOP, "/app/orders", { locale: "en" }));
      await page.getByRole("heading", { name: "Orders", level: 1 }).waitFor();
      await expect.poll(() => page.locator("[data-order]").count()).toBe(5);
      const riskOf = (name: string) =>
        page.evaluate((n) => {
          const row = [...document.querySelectorAll("tr")].find((tr) => tr.querySelector(`[data-order="${n}"]`));
          const node = row?.querySelector('[data-cell="risk"]')?.cloneNode(true) as HTMLElement | undefined;
          node?.querySelectorAll('[class*="visuallyHidden"]').forEach((hidden) => hidden.remove());
          return node?.textContent?.trim() ?? null;
        }, name);
      expect(await riskOf("#4003")).toBe("High risk");
      // A customer with no failed delivery has no risk badge.
      expect(await riskOf("#4005")).toBeNull();
      // The order still held says why, in the merchant's language.
      expect(await riskOf("#4004")).toBe("High risk");
      expect(await page.locator('tr:has([data-order="#4004"]) [data-attention="customer"]').textContent()).toBe(
        "Risky customer: 1 refused and 1 returned in the last 90 days",
      );
      await visit(page, await server.embeddedUrl(SHOP, "/app/orders?risk=high", { locale: "en" }));
      await expect
        .poll(() => page.locator("[data-order]").allTextContents())
        .toEqual(["#4004", "#4003", "#4002", "#4001"]);
      expect(await page.getByText("Customer risk: High risk").count()).toBeGreaterThan(0);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("orders-risk-filter-en");
      expect(session.refused).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it("shows the card and the held order in French, and blocks the phone from it", async () => {
    const held = await linkOf("#4004");
    expect(held.state).toBe("held");
    const { server } = world;
    const session = await openEmbeddedSession(world.browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "fr" }));
      await page.getByRole("heading", { name: "Historique de livraison du client", level: 2, exact: true }).waitFor();
      await expect.poll(() => page.getByText("Risque élevé").count()).toBeGreaterThan(0);
      expect(await page.getByText("Refusée : 1").count()).toBe(1);
      expect(await page.getByText("Retenue à cause de l'historique de livraison du client").count()).toBe(1);
      expect(await page.getByRole("button", { name: "Envoyer quand même" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("customer-card-held-fr");

      await page.getByRole("button", { name: "Bloquer ce numéro" }).click();
      await expect.poll(() => page.getByText("Bloqué", { exact: true }).count()).toBeGreaterThan(0);
      const record = await server.db.customerRecord.findUniqueOrThrow({
        where: { shop_phoneKey: { shop: SHOP, phoneKey: "0661777001" } },
      });
      expect(record.standing).toBe("blocked");

      // AND Anomalies says why in French and sends the order anyway from there
      await visit(page, await server.embeddedUrl(SHOP, "/app/anomalies", { locale: "fr" }));
      await page.getByRole("heading", { name: "Retenues à cause de l'historique du client (1)", level: 2 }).waitFor();
      expect(await page.locator("[data-held-order] [data-hold-reason]").allTextContents()).toEqual([
        "1 refusée et 1 retournée sur les 90 derniers jours",
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("anomalies-customer-holds-fr");
      // AND on a phone its "Envoyer quand même" reads on one line (it wraps below the order instead)
      await page.setViewportSize({ width: 375, height: 812 });
      const sendAnyway = page.getByRole("button", { name: "Envoyer quand même (#4004)" });
      await session.screenshot("anomalies-customer-holds-fr-phone");
      expect(await textLines(sendAnyway)).toBe(1);
      await page.getByRole("button", { name: "Envoyer quand même (#4004)" }).click();
      await page.locator("ui-modal[open]").getByRole("button", { name: "Envoyer quand même" }).click();
      await expect.poll(async () => (await session.toasts()).includes("Commande envoyée quand même")).toBe(true);
      await world.flow.drain();
      expect((await linkOf("#4004")).state).toBe("created");
      await expect.poll(() => page.locator("[data-section=customer-holds]").count()).toBe(0);
    } finally {
      await session.close();
    }
  });
});

describe("a phone to correct, on a phone (375 px) in French", () => {
  it("GIVEN an order held for a wrong phone WHEN its page opens on a phone THEN 'Enregistrer et renvoyer' reads on one line inside the screen, and saving sends the order", async () => {
    await world.flow.place([{ id: 6_200_090, name: "#4090", phone: "0612", city: "Rabat", customerId: 590 }]);
    await world.flow.drain();
    const held = await linkOf("#4090");
    expect(held.state).toBe("held");
    const session = await openPhoneSession(world, SHOP, "fr");
    try {
      const { page } = session;
      await visit(page, await world.server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "fr" }));
      const field = page.getByLabel(t("fr", "order.fix.phone"));
      await field.waitFor();
      const save = page.locator("[data-phone-fix]").getByRole("button", { name: t("fr", "order.fix.save") });
      expect(await textLines(save)).toBe(1);
      const box = (await save.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("order-phone-fix-fr-phone");
      await field.fill("0661777090");
      await save.click();
      await expect.poll(async () => (await linkOf("#4090")).state, { timeout: 30_000 }).not.toBe("held");
    } finally {
      await session.close();
    }
  });
});
