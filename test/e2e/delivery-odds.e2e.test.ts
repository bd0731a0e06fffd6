/**
 * Delivery odds in a real browser, in French, against the production build: a
 * customer who refused two orders on the call, the shop holding orders under 50 %
 * of delivery odds; her new order is held, another customer's is sent. The order
 * page shows the probability, the expected value, the reasons and what would send
 * the held order ("Envoyer quand même" sends it); the Orders list shows the same in
 * its column; at 1280 px and at 375 px, passing axe-core. Switching Settings to send every
 * order names the order still held for its odds in one confirmation, and sends it only then.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { sandboxControl } from "../../sandbox/index";
import { readShopSettings } from "../../app/models/shop-settings";
import { t } from "../../app/i18n";
import { oddsBadgeOf, type OddsRiskLevel } from "../../app/odds/decision";
import { createFormatter } from "../../app/i18n/format";
import { FORMATS } from "../../app/i18n/formats";
import { openEmbeddedSession, PHONE_UA, type EmbeddedSession } from "../helpers/browser";
import { startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const fr = createFormatter(FORMATS.fr);
const REFUSER = "0662555001";
/** Texts compared with their spaces (French's narrow no-break ones included) as one plain space. */
const norm = (text: string) => text.replace(/\s+/g, " ");

let world: E2EWorld;

/** Visible text of an element, hidden accessibility labels left out. */
async function visibleText(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const node = element.cloneNode(true) as HTMLElement;
      node.querySelectorAll('[class*="visuallyHidden"], .cod-visually-hidden').forEach((hidden) => hidden.remove());
      return node.textContent?.replace(/\s+/g, " ").trim() ?? "";
    });
}

async function setSettings(change: Record<string, unknown>) {
  const shop = await world.server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const settings = { ...readShopSettings(shop.settings), ...change };
  await world.server.db.shop.update({ where: { domain: SHOP }, data: { settings: JSON.stringify(settings) } });
}

const linkOf = (name: string) => world.server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: name } });
const oddsOf = async (name: string) =>
  world.server.db.orderOdds.findUniqueOrThrow({ where: { linkId: (await linkOf(name)).id } });

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  const platform = sandboxControl(world.sandbox.url);
  await platform.config({ duplicate_window_seconds: 0 });
  await setSettings({ duplicateWindowMinutes: 0 });
  // GIVEN a customer who cancelled two orders on the call
  await world.flow.place([
    { id: 6_300_001, name: "#5001", phone: REFUSER, city: "Casablanca", customerId: 601 },
    { id: 6_300_002, name: "#5002", phone: REFUSER, city: "Casablanca", customerId: 601 },
  ]);
  await world.flow.drain();
  for (const name of ["#5001", "#5002"])
    await platform.advance((await linkOf(name)).leadRef!, { confirmation_status: "canceled" });
  await world.flow.sync();
  // AND the shop holding orders under 50 % of delivery odds
  await setSettings({ deliveryOdds: { policy: "hold_below", minPercent: 50, refusalCost: 10 } });
  // WHEN she orders again, and a new customer orders too
  await world.flow.place([
    { id: 6_300_003, name: "#5003", phone: REFUSER, city: "Casablanca", customerId: 601 },
    { id: 6_300_004, name: "#5004", phone: "0662555999", city: "Rabat", customerId: 602 },
  ]);
  await world.flow.drain();
});
afterAll(() => world?.close());

async function session(viewport?: { width: number; height: number }): Promise<EmbeddedSession> {
  const { server } = world;
  return openEmbeddedSession(
    world.browser,
    { apiKey: server.apiKey, shop: SHOP, locale: "fr", token: await server.mintToken(SHOP) },
    viewport ? { viewport, userAgent: PHONE_UA } : {},
  );
}

describe("delivery odds on the order page and the list, in French", () => {
  it("GIVEN the held order WHEN the merchant opens it THEN the probability, the value, the reasons and what would send it; Envoyer quand même sends it", async () => {
    const held = await linkOf("#5003");
    expect(held.state).toBe("held");
    const odds = await oddsOf("#5003");
    const s = await session();
    try {
      const { page } = s;
      await visit(page, await world.server.embeddedUrl(SHOP, `/app/orders/${held.id}`, { locale: "fr" }));
      await page.getByRole("heading", { name: "Chances de livraison", level: 2, exact: true }).waitFor();
      expect(await visibleText(page, '[data-odds="probability"]')).toBe(norm(fr.percent(odds.probability)));
      // Held by the shop's policy: the badge says so, not a vaguer "risky".
      expect(await visibleText(page, '[data-card="delivery-odds"] [data-odds-badge]')).toBe("Retenue");
      const sign = odds.valueCents! < 0 ? "-" : "+";
      expect(await visibleText(page, '[data-odds="value"]')).toBe(
        norm(`Valeur attendue de l'envoi : ${sign}${fr.money(Math.abs(odds.valueCents!))}`),
      );
      const failed = '[data-odds-reason="customer_failed"]';
      expect(await visibleText(page, `${failed} [class*="Badge"]`)).toBe("Baisse les chances");
      expect(await visibleText(page, `${failed} [data-odds-text]`)).toBe(
        "A refusé, renvoyé ou annulé 2 commandes précédentes",
      );
      expect(await visibleText(page, '[data-odds="release"]')).toBe(
        norm(`Elle serait envoyée à partir de ${fr.percent(0.5)} de chances de livraison.`),
      );
      // The hold is the customer hold's own: its banner says why, with the odds, and so does the timeline.
      expect(await page.getByText("Retenue à cause de ses chances de livraison").count()).toBe(1);
      expect(await visibleText(page, '[data-timeline="customer_hold"]')).toContain("Retenue : chances de livraison");
      expect(
        await page.getByText(`Chances de livraison ${Math.round(odds.probability * 100)} %, sous vos 50 %`).count(),
      ).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await s.screenshot("delivery-odds-order-fr");

      await page.getByRole("button", { name: "Envoyer quand même" }).first().click();
      await page.locator("ui-modal[open]").getByRole("button", { name: "Envoyer quand même" }).click();
      await expect.poll(async () => (await s.toasts()).includes("Commande envoyée quand même")).toBe(true);
      await world.flow.drain();
      expect((await linkOf("#5003")).state).toBe("created");
    } finally {
      await s.close();
    }
  });

  it("GIVEN scored orders WHEN the merchant opens Orders THEN each row shows its odds, level, value and first reason", async () => {
    const s = await session();
    try {
      const { page } = s;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/orders", { locale: "fr" }));
      await page.getByRole("columnheader", { name: "Chances de livraison" }).waitFor();
      const cell = (name: string) => `tr:has([data-order="${name}"]) [data-cell="odds"]`;
      for (const name of ["#5003", "#5004"]) {
        const odds = await oddsOf(name);
        const text = await visibleText(page, cell(name));
        expect(text.startsWith(norm(fr.percent(odds.probability))), text).toBe(true);
        expect(text).toContain(t("fr", `odds.badge.${oddsBadgeOf({ ...odds, level: odds.level as OddsRiskLevel })}`));
        expect(text).toContain(
          norm(`Valeur ${odds.valueCents! < 0 ? "-" : "+"}${fr.money(Math.abs(odds.valueCents!))}`),
        );
      }
      expect(await visibleText(page, `${cell("#5003")} [data-odds-reason]`)).toBe(
        "A refusé, renvoyé ou annulé 2 commandes précédentes",
      );
      expect(await visibleText(page, `${cell("#5004")} [data-odds-reason]`)).toBe("Première commande de ce numéro");
      // Orders sent before the odds existed (none here) or not scored show a dash; the earlier ones were scored too.
      expect(await page.locator('[data-cell="odds"]').count()).toBe(4);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await s.screenshot("delivery-odds-orders-fr");
    } finally {
      await s.close();
    }
  });

  it("GIVEN a phone at 375 px THEN the list's rows and the order's card show the odds without scrolling sideways", async () => {
    const s = await session({ width: 375, height: 812 });
    try {
      const { page } = s;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/orders", { locale: "fr" }));
      const row = page.locator("li", { has: page.locator('[data-order="#5004"]') });
      await row.locator('[data-cell="odds"]').waitFor();
      const box = await row.locator('[data-cell="odds"]').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      expect(await visibleText(page, 'li:has([data-order="#5004"]) [data-odds-reason]')).toBe(
        "Première commande de ce numéro",
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await s.screenshot("delivery-odds-orders-phone-fr");

      await visit(
        page,
        await world.server.embeddedUrl(SHOP, `/app/orders/${(await linkOf("#5004")).id}`, { locale: "fr" }),
      );
      await page.getByRole("heading", { name: "Chances de livraison", level: 2, exact: true }).waitFor();
      const card = await page.locator('[data-card="delivery-odds"]').boundingBox();
      expect(card!.x + card!.width).toBeLessThanOrEqual(375);
      expect(await visibleText(page, '[data-odds="value"]')).toMatch(/^Valeur attendue de l'envoi : [+-]/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await s.screenshot("delivery-odds-order-phone-fr");
    } finally {
      await s.close();
    }
  });

  it("GIVEN another order held for its odds WHEN the merchant switches Settings to send every order THEN one confirmation names it, and it goes only then", async () => {
    await world.flow.place([{ id: 6_300_005, name: "#5005", phone: REFUSER, city: "Casablanca", customerId: 601 }]);
    await world.flow.drain();
    expect((await linkOf("#5005")).state).toBe("held");
    const s = await session();
    try {
      const { page } = s;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/settings", { locale: "fr" }));
      await page.getByRole("heading", { name: t("fr", "settings.title"), level: 1 }).waitFor();
      // Polaris draws the radio over its input: the label is what a merchant clicks.
      await page.getByText(t("fr", "settings.odds.policy.send_all"), { exact: true }).click();
      expect(await page.getByLabel(t("fr", "settings.odds.policy.send_all"), { exact: true }).isChecked()).toBe(true);
      await page.locator('[data-save-bar-button="save"]').click();
      const modal = page.locator("ui-modal[open]");
      await modal.getByText(t("fr", "release.body", { orders: "#5005" })).waitFor();
      // Saved, and nothing sent yet: the order waits for the merchant's word, its odds hold ended.
      expect(
        readShopSettings((await world.server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } })).settings)
          .deliveryOdds.policy,
      ).toBe("send_all");
      expect((await linkOf("#5005")).state).toBe("held");
      await modal.getByRole("button", { name: t("fr", "bulk.confirm", { count: 1, orders: "1" }) }).click();
      await expect.poll(() => s.toasts()).toContain(t("fr", "release.sent", { count: 1 }));
      await world.flow.drain();
      expect((await linkOf("#5005")).state).toBe("created");
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await s.screenshot("delivery-odds-looser-policy-fr");
    } finally {
      await s.close();
    }
  });
});
