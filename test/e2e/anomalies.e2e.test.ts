/**
 * The Anomalies page in a real browser against the production build: orders
 * held for an unknown SKU are one group; picking the platform product once maps
 * the SKU and resends them, and the sandbox then holds their leads, undamaged.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { normalizeCityKey } from "../../app/leads/city-key";
import { sandboxControl } from "../../sandbox/index";
import { openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import { startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";

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

describe("Anomalies", () => {
  let session: EmbeddedSession;
  afterAll(() => session?.close());

  it("fixes an unknown SKU once for all its orders, and the platform then holds their leads", async () => {
    // GIVEN three orders with a SKU the platform does not know (distinct customers), and one with an unknown city
    await flow.place([
      {
        id: 6_200_001,
        name: "#4001",
        phone: "0662000001",
        items: [{ sku: "BABOUCHE-YLW", price: "199.00", title: "Babouche jaune" }],
      },
      {
        id: 6_200_002,
        name: "#4002",
        phone: "0662000002",
        items: [{ sku: "babouche-ylw", price: "199.00", title: "Babouche jaune", quantity: 2 }],
      },
      {
        id: 6_200_003,
        name: "#4003",
        phone: "0662000003",
        items: [{ sku: "BABOUCHE-YLW", price: "199.00", title: "Babouche jaune" }],
      },
      { id: 6_200_004, name: "#4004", phone: "0662000004", city: "Xyzzyville" },
    ]);
    await flow.drain();
    const held = await server.db.orderLink.findMany({
      where: { shop: SHOP, orderName: { in: ["#4001", "#4002", "#4003"] } },
    });
    expect(held.map((l) => l.state)).toEqual(["held", "held", "held"]);

    // WHEN the merchant opens Anomalies
    session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await server.mintToken(SHOP),
    });
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/anomalies", { locale: "en" }));

    // THEN the SKU is one group of three orders, the city another
    const group = page.locator('[data-group="sku:BABOUCHE-YLW"]');
    await group.getByRole("heading", { name: "Unknown SKU BABOUCHE-YLW in 3 orders" }).waitFor();
    expect((await group.locator("[data-order-link]").allTextContents()).sort()).toEqual(["#4001", "#4002", "#4003"]);
    expect(await page.getByRole("heading", { name: "City “Xyzzyville” in 1 order" }).isVisible()).toBe(true);
    await session.screenshot("anomalies-en");

    // WHEN the merchant searches the catalogue, picks the yellow babouches and applies the fix
    await group.getByLabel("Platform product").fill("jaune");
    await page.getByRole("option", { name: /BABOUCHE-CLS-YEL/ }).click();
    expect(await group.getByLabel("Platform product").inputValue()).toContain("BABOUCHE-CLS-YEL");
    await group.getByRole("button", { name: "Map and send 3 orders again" }).click();

    // THEN the mapping is saved, and the three orders it frees wait for one confirmation of how many and how much
    const modal = page.locator("ui-modal[open]");
    await modal.waitFor({ timeout: 30_000 });
    const body = await modal.locator("[data-modal-body]").textContent();
    expect(body).toContain("Nothing holds these orders any more");
    expect(body).toContain("3 orders");
    expect(await server.db.job.count({ where: { shop: SHOP, kind: "post-lead", state: "pending" } })).toBe(0);
    await modal.locator("button", { hasText: "Send 3 orders" }).click();

    // THEN the page says so and the group is gone; the city group stays
    await expect.poll(() => session.toasts(), { timeout: 30_000 }).toContain("Orders sent: 3");
    await expect.poll(() => page.locator('[data-group="sku:BABOUCHE-YLW"]').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.locator(`[data-group="city:${normalizeCityKey("Xyzzyville")}"]`).count()).toBe(1);
    const mapping = await server.db.skuMapping.findFirstOrThrow({ where: { shop: SHOP } });
    expect([mapping.sourceKind, mapping.sourceKey, JSON.parse(mapping.targets)]).toEqual([
      "sku",
      "BABOUCHE-YLW",
      [{ sku: "BABOUCHE-CLS-YEL", quantity: 1 }],
    ]);

    // WHEN the worker runs the resent orders
    await flow.drain();

    // THEN the sandbox holds one undamaged lead per order, with the mapped product
    const leads = await sandboxControl(sandbox.url).leads("ACC-1001");
    for (const link of held) {
      const ours = leads.filter((l) => l.external_ref === link.externalRef);
      expect(ours, link.orderName).toHaveLength(1);
      expect(ours[0].damaged, link.orderName).toBe(false);
      expect(ours[0].items.map((i) => i.sku)).toEqual(["BABOUCHE-CLS-YEL"]);
    }
    const after = await server.db.orderLink.findMany({ where: { id: { in: held.map((l) => l.id) } } });
    expect(after.map((l) => l.state)).toEqual(["created", "created", "created"]);
    await session.screenshot("anomalies-after-fix-en");
    expect(session.refused).toEqual([]);
  });

  it("fixes the unknown city by learning the spelling, in French", async () => {
    const fr = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
    try {
      const { page } = fr;
      await visit(page, await server.embeddedUrl(SHOP, "/app/anomalies", { locale: "fr" }));
      const group = page.locator(`[data-group="city:${normalizeCityKey("Xyzzyville")}"]`);
      await group.getByRole("heading", { name: "Ville « Xyzzyville » dans 1 commande" }).waitFor();
      await group.getByLabel("Ville livrée").fill("rabat");
      await page.getByRole("option", { name: "Rabat", exact: true }).click();
      await group.getByRole("button", { name: "Mémoriser et renvoyer 1 commande" }).click();
      await expect.poll(() => fr.toasts(), { timeout: 30_000 }).toContain("1 commande renvoyée");
      await page.getByText("Rien à corriger", { exact: true }).waitFor();
      const alias = await server.db.cityAlias.findFirstOrThrow({ where: { shop: SHOP } });
      expect([alias.alias, alias.cityId, alias.source]).toEqual([normalizeCityKey("Xyzzyville"), 102, "learned"]);
      await fr.screenshot("anomalies-empty-fr");

      await flow.drain();
      const link = await server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#4004" } });
      expect(link.state).toBe("created");
      const lead = (await sandboxControl(sandbox.url).leads("ACC-1001")).find(
        (l) => l.external_ref === link.externalRef,
      );
      expect(lead).toMatchObject({ city_id: 102, damaged: false });
    } finally {
      await fr.close();
    }
  });
});
