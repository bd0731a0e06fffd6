/**
 * A merchant's first minutes, in a real browser against the production build and
 * a real sandbox: open Settings, paste a wrong key then the right one and save
 * with the contextual save bar, see the account, find the key verified on Home;
 * the same pages in French. Words come from the catalogues.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startSandbox, type RunningSandbox, type SandboxKey } from "../../sandbox/index";
import { launchBrowser, openEmbeddedSession, PHONE_UA, type EmbeddedSession } from "../helpers/browser";
import { axeViolations } from "../helpers/axe";
import { startPreviewServer, type PreviewServer } from "../helpers/preview-server";
import { t } from "../../app/i18n";

const SHOP = "atlas-beauty.myshopify.com";

let sandbox: RunningSandbox;
let server: PreviewServer;
let browser: Browser;
let atlasKey: SandboxKey;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  atlasKey = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  [server, browser] = await Promise.all([
    startPreviewServer({ buildDir: inject("previewBuildDir"), sellerApiBaseUrl: sandbox.url, shops: [SHOP] }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sandbox?.close();
});

async function open(locale: string, options: Parameters<typeof openEmbeddedSession>[2] = {}): Promise<EmbeddedSession> {
  return openEmbeddedSession(
    browser,
    {
      apiKey: server.apiKey,
      shop: SHOP,
      locale,
      token: await server.mintToken(SHOP),
    },
    options,
  );
}

/** Loads url and waits until React has hydrated the page (handlers attached). */
async function visit(page: Page, url: string) {
  const response = await page.goto(url, { waitUntil: "networkidle" });
  await page.waitForFunction(() => "__remixRouter" in window && document.readyState === "complete");
  return response;
}

// Six entries; the maintenance pages (Activity, Backfill) are reached from Settings.
const NAV = [
  "nav.home",
  "nav.orders",
  "nav.anomalies",
  "nav.cash",
  "nav.analytics",
  "nav.mappings",
  "nav.settings",
] as const;

describe("onboarding in English", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await open("en");
  });
  afterAll(() => session?.close());

  it("verifies the sandbox key from Settings and never sends the key back to the page", async () => {
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/settings", { locale: "en" }));
    await expect
      .poll(() => page.getByRole("heading", { name: t("en", "settings.title"), level: 1 }).isVisible())
      .toBe(true);
    expect(await page.getByText(t("en", "settings.account.none")).isVisible()).toBe(true);
    const saveBar = page.locator('[data-save-bar-button="save"]');
    expect(await saveBar.count()).toBe(0);

    // A mistyped key: not verified (one answer for every failure) and nothing is stored.
    const keyField = page.getByLabel(t("en", "settings.apiKey.label"), { exact: true });
    await keyField.fill(`${atlasKey.key.slice(0, -2)}zz`);
    await saveBar.click();
    await page.getByText(t("en", "settings.key.error.notVerified")).first().waitFor();
    expect((await server.db.shop.findUnique({ where: { domain: SHOP } }))?.sellerApiKeyCipher).toBeNull();

    // The right key.
    await keyField.fill(atlasKey.key);
    await saveBar.click();
    await page.locator('[data-field="name"]', { hasText: "Atlas Beauty SARL" }).waitFor();
    expect(await page.locator('[data-field="id"]').textContent()).toBe("ACC-1001");
    expect(await page.locator('[data-field="prefix"]').textContent()).toBe("ATB");
    expect(await page.locator('[data-field="rate"]').textContent()).toBe("60 calls per minute");
    expect(await page.locator('[data-field="key"]').textContent()).toBe(`•••• ${atlasKey.key.slice(-4)}`);
    expect(await page.getByText(t("en", "settings.key.error.notVerified")).count()).toBe(0);
    expect(await session.toasts()).toEqual(["Key verified: Atlas Beauty SARL"]);
    expect(await keyField.inputValue()).toBe("");
    // Saved: no change left, no save bar.
    await expect.poll(() => saveBar.count()).toBe(0);
    await session.screenshot("settings-key-verified-en");

    // The key is nowhere in the page, nor in anything the server answered.
    expect(await page.content()).not.toContain(atlasKey.key);
    const responses = await session.responses();
    expect(responses.length).toBeGreaterThan(5);
    for (const response of responses) expect(response.body, response.url).not.toContain(atlasKey.key);
    expect(session.refused).toEqual([]);

    const row = await server.db.shop.findUnique({ where: { domain: SHOP } });
    expect(row).toMatchObject({
      sellerAccount: "ACC-1001",
      leadPrefix: "ATB",
      sellerApiKeyLast4: atlasKey.key.slice(-4),
    });
    expect(row?.sellerApiKeyCipher).not.toContain(atlasKey.key);
  });

  it("shows the checklist on Home with the key verified, after the session-token bounce", async () => {
    const { page } = session;
    // Without id_token the server sends the page to /auth/session-token; App Bridge (the stub) comes back with one.
    await visit(page, await server.embeddedUrl(SHOP, "/app", { locale: "en", idToken: false }));
    expect(new URL(page.url()).pathname).toBe("/app");
    expect(new URL(page.url()).searchParams.get("id_token")).toBeTruthy();

    await page.getByRole("heading", { name: t("en", "home.checklist.title") }).waitFor();
    const step = (id: string) => page.locator(`[data-step="${id}"]`);
    expect(await step("enter_key").getAttribute("data-done")).toBe("true");
    expect(await step("key_verified").getAttribute("data-done")).toBe("true");
    expect(await step("key_verified").textContent()).toContain(t("en", "home.step.key_verified.title"));
    expect(await step("catalogue_synced").getAttribute("data-done")).toBe("false");
    expect(await step("first_order_sent").getAttribute("data-done")).toBe("false");
    expect(await page.getByText("2 of 4 steps done").isVisible()).toBe(true);
    expect(await page.getByText("No leads yet", { exact: true }).isVisible()).toBe(true);
    // The app's navigation, for the admin's sidebar.
    expect(await page.locator("ui-nav-menu a").allTextContents()).toEqual(NAV.map((key) => t("en", key)));
    await session.screenshot("home-checklist-en");
    expect(await page.content()).not.toContain(atlasKey.key);
  });
});

describe("in French", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await open("fr");
  });
  afterAll(() => session?.close());

  it("shows Settings in French, with French field errors and a French toast", async () => {
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/settings", { locale: "fr" }));
    await page.getByRole("heading", { name: "Paramètres", level: 1 }).waitFor();
    expect(await page.getByRole("heading", { name: "Compte connecté" }).isVisible()).toBe(true);
    expect(await page.locator('[data-field="rate"]').textContent()).toBe("60 appels par minute");
    expect(await page.getByLabel("Clé de la plateforme", { exact: true }).isVisible()).toBe(true);
    // Technical settings are under Advanced.
    expect(await page.getByRole("heading", { name: "Avancé" }).isVisible()).toBe(true);

    const interval = page.getByLabel(t("fr", "settings.statusSync.label"));
    await interval.fill("0");
    await page.locator('[data-save-bar-button="save"]').click();
    await page.getByText("Doit être au moins 1.").waitFor();
    expect(await page.getByText("Certains paramètres sont à corriger : rien n'a été enregistré").isVisible()).toBe(
      true,
    );
    // The edit stays on the page, the save bar too.
    expect(await interval.inputValue()).toBe("0");

    await interval.fill("15");
    await page.locator('[data-save-bar-button="save"]').click();
    await expect.poll(() => session.toasts()).toEqual(["Paramètres enregistrés"]);
    expect(await page.getByText("Doit être au moins 1.").count()).toBe(0);
    const row = await server.db.shop.findUnique({ where: { domain: SHOP } });
    expect(JSON.parse(row!.settings).statusSyncMinutes).toBe(15);
    await session.screenshot("settings-fr");
  });

  it("shows Home and its navigation in French", async () => {
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app", { locale: "fr" }));
    await page.getByRole("heading", { name: "Configurer COD Lead Sync" }).waitFor();
    expect(await page.getByText("2 étapes sur 4 terminées").isVisible()).toBe(true);
    expect(await page.locator('[data-step="key_verified"]').textContent()).toContain("Plateforme connectée");
    expect(await page.locator("ui-nav-menu a").allTextContents()).toEqual(NAV.map((key) => t("fr", key)));
    await session.screenshot("home-fr");
  });
});

describe("once set up", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await open("en");
  });
  afterAll(() => session?.close());

  it("shows alerts, figures and the 14-day chart", async () => {
    // GIVEN a synced catalogue and a few leads over the last days (times in the merchant's zone)
    const day = 24 * 3600_000;
    const now = Date.now();
    await server.db.shop.update({
      where: { domain: SHOP },
      data: { catalogueFetchedAt: new Date(), citiesFetchedAt: new Date(), lastStatusSyncAt: new Date() },
    });
    // The pipeline paused the shop: its key was just rejected.
    await server.db.shop.update({
      where: { domain: SHOP },
      data: { pausedReason: "key_rejected", pausedAt: new Date() },
    });
    const leads: [number, string, string | null, string | null, string][] = [
      [0, "created", "confirmed", "delivered", "249.00"],
      [0, "created", "new", "pending", "120.00"],
      [1, "created", "confirmed", "shipped", "99.90"],
      [2, "damaged", "new", "pending", "80.00"],
      [3, "created", "canceled", "pending", "150.00"],
      [5, "created", "confirmed", "paid", "310.50"],
      [9, "created", "confirmed", "returned", "75.00"],
      [12, "created", "confirmed", "delivered", "199.00"],
      [1, "held", null, null, "60.00"],
    ];
    for (const [i, [daysAgo, state, confirmationStatus, shippingStatus, totalClient]] of leads.entries()) {
      await server.db.orderLink.create({
        data: {
          shop: SHOP,
          orderId: `gid://shopify/Order/${9000 + i}`,
          orderName: `#${9000 + i}`,
          payload: "{}",
          externalRef: `shopify:${9000 + i}`,
          state,
          leadRef: state === "held" ? null : `ATB-${9000 + i}`,
          confirmationStatus,
          shippingStatus,
          totalClient,
          statusFinal: shippingStatus === "paid" || shippingStatus === "returned" || confirmationStatus === "canceled",
          createdAt: new Date(now - daysAgo * day - 60_000),
        },
      });
    }
    // Written directly, not through the pipeline: recount the analytics rollups Home reads.
    const { rebuildRollups } = await import("../../app/analytics/rollups.server");
    await rebuildRollups(server.db, SHOP);

    // WHEN the merchant opens Home
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app", { locale: "en" }));

    // THEN the pause is the first thing said, with its next step
    await page.getByText(t("en", "home.alert.paused.title")).waitFor();
    expect(await page.getByText(/Reason: key rejected by the platform/).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Open settings" }).getAttribute("href")).toBe("/app/settings");
    // AND the checklist shows the key step to redo, above the 30-day figures from all of the above
    await page.getByRole("heading", { name: "Leads per day, last 14 days" }).waitFor();
    expect(await page.locator('[data-step="key_verified"]').getAttribute("data-done")).toBe("false");
    // Each figure is a link to the orders it counts (the value, and words for screen readers).
    const figure = (name: string) => page.locator(`[data-figure="${name}"] a > span`).first().textContent();
    expect(await figure("last30.sent")).toBe("8");
    expect(await figure("last30.held")).toBe("1");
    expect(await figure("last30.collected")).toBe("758.50 MAD");
    expect(await page.locator("svg[role=img] rect").count()).toBeGreaterThanOrEqual(7);
    await session.screenshot("home-figures-en");
  });
});

describe("on a phone (375 px), in French, the platform not connected", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await open("fr", { viewport: { width: 375, height: 812 }, userAgent: PHONE_UA });
  });
  afterAll(() => session?.close());

  it("GIVEN the key step to redo WHEN Home shows the checklist THEN each step's button reads whole inside its card", async () => {
    const { page } = session;
    await server.db.shop.update({
      where: { domain: SHOP },
      data: { pausedReason: "key_rejected", pausedAt: new Date() },
    });
    await visit(page, await server.embeddedUrl(SHOP, "/app", { locale: "fr" }));
    const checklist = page.locator("[data-checklist]");
    await checklist.getByRole("heading", { name: t("fr", "home.checklist.title") }).waitFor();
    expect(await page.locator('[data-step="key_verified"]').getAttribute("data-done")).toBe("false");
    const card = (await checklist.boundingBox())!;
    const buttons = checklist.locator("[data-step] a, [data-step] button");
    expect(await buttons.count()).toBeGreaterThan(0);
    expect(await buttons.allTextContents()).toContain(t("fr", "home.step.key_verified.action"));
    // One primary action: the first step left to do; every other step's button is secondary.
    const undone = await checklist
      .locator('[data-step][data-done="false"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-step")));
    const primaries = checklist.locator("[data-step] .Polaris-Button--variantPrimary");
    expect(await primaries.count()).toBe(1);
    expect(await checklist.locator(`[data-step="${undone[0]}"] .Polaris-Button--variantPrimary`).count()).toBe(1);
    for (const box of await buttons.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, cut: el.scrollWidth > el.clientWidth };
      }),
    )) {
      expect(box.left).toBeGreaterThanOrEqual(card.x);
      expect(box.right).toBeLessThanOrEqual(card.x + card.width);
      expect(box.cut).toBe(false);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeViolations(page, { within: "[data-checklist]", rules: "all" })).toEqual([]);
    await session.screenshot("home-checklist-fr-phone");
  });
});
