/**
 * Pairing two of a merchant's stores in a real browser against the production
 * build: the first store's Settings creates a one-time code (English), the
 * second store's Settings takes it (French), both list the other, Activity logs
 * it, and the first store ends the pairing. Every step passes axe-core.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import { connectShop } from "../../scripts/dev/lib/connected-shop";
import { launchBrowser, openEmbeddedSession } from "../helpers/browser";
import { visit } from "../helpers/e2e-pipeline";
import { startPreviewServer, type PreviewServer } from "../helpers/preview-server";
import { axeViolations } from "../helpers/axe";

const ATLAS = "atlas-beauty.myshopify.com";
const SOUK = "atlas-souk.myshopify.com";

let sandbox: RunningSandbox;
let server: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [ATLAS, SOUK],
      env: { ENCRYPTION_KEY: process.env.ENCRYPTION_KEY! },
    }),
    launchBrowser(),
  ]);
  // Both stores verified on the sandbox (the default address) with keys of one seller account, both sharing.
  const control = sandboxControl(sandbox.url);
  const keys: Record<string, string> = {
    [ATLAS]: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
    [SOUK]: (await control.createKey({ account: "ACC-1001", name: "atlas-souk", store: SOUK })).key,
  };
  for (const shop of [ATLAS, SOUK]) {
    await connectShop(server.db, { shop, apiKey: keys[shop], baseUrl: "", settings: { shareCustomerRecords: true } });
    await server.db.shop.update({
      where: { domain: shop },
      data: { sellerApiBaseUrl: null, sellerAccount: "ACC-1001" },
    });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sandbox?.close();
});

describe("pairing two stores from their Settings pages", () => {
  let code = "";

  it("creates a one-time code in the first store (English)", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: ATLAS,
      locale: "en",
      token: await server.mintToken(ATLAS),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(ATLAS, "/app/settings"));
      await page.getByRole("heading", { name: "Your other stores", level: 2 }).waitFor();
      expect(await page.getByText("No store is paired with this one.").count()).toBe(1);
      await page.getByRole("button", { name: "Create a pairing code" }).click();
      await page.locator("[data-pairing-code]").waitFor();
      code = (await page.locator("[data-pairing-code]").textContent())?.trim() ?? "";
      expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      expect(await page.getByText(/It works once/).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("store-pairing-code-en");
    } finally {
      await session.close();
    }
  });

  it("takes the code in the second store (French), which then lists the first as sharing, and logs it", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SOUK,
      locale: "fr",
      token: await server.mintToken(SOUK),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SOUK, "/app/settings", { locale: "fr" }));
      await page.getByRole("heading", { name: "Vos autres boutiques", level: 2 }).waitFor();
      await page.getByLabel("Code reçu de votre autre boutique").fill(code.toLowerCase());
      await page.getByRole("button", { name: "Associer", exact: true }).click();
      await expect.poll(async () => (await session.toasts()).includes(`Associée à ${ATLAS}`)).toBe(true);
      await page.locator(`[data-paired-store="${ATLAS}"]`).waitFor();
      expect(await page.getByText("Partage actif").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await session.screenshot("store-pairing-paired-fr");

      await visit(page, await server.embeddedUrl(SOUK, "/app/activity", { locale: "fr" }));
      await page.getByRole("heading", { name: "Partage avec vos autres boutiques", level: 2 }).waitFor();
      expect(await page.locator("[data-audit-kind='pairing.joined']").allTextContents()).toEqual([
        `Associée à ${ATLAS} : son code a été saisi ici`,
      ]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it("ends the pairing from the first store, for both", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: ATLAS,
      locale: "en",
      token: await server.mintToken(ATLAS),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(ATLAS, "/app/settings"));
      await page.locator(`[data-paired-store="${SOUK}"]`).waitFor();
      expect(await page.getByText("Sharing", { exact: true }).count()).toBe(1);
      await page.getByRole("button", { name: "End pairing" }).click();
      await expect.poll(async () => (await session.toasts()).includes(`Pairing with ${SOUK} ended`)).toBe(true);
      await page.getByText("No store is paired with this one.").waitFor();
      expect(await server.db.storePairing.count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
