/**
 * The conversion feed in a real browser against the production build, in
 * French on a phone (375 px, a phone's user agent): Settings connects Meta
 * with a token it refuses (Meta's words shown, nothing kept), then with a good
 * one (kept sealed, shown by its last four characters), the merchant chooses
 * the stage and switches the feed on (the storefront pixel added in the
 * Shopify stand-in); parcels are then delivered and returned on the
 * platform, the feed tells Meta's stand-in, and Analytics and Activity show
 * what was sent. Every step passes axe-core (no violation of any impact) and
 * nothing is wider than the phone.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { adStandInControl, startMetaStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import { t as translate, type MessageKey, type MessageParams } from "../../app/i18n";
import { isSealedSecret } from "../../app/crypto/secret-box.server";
import { launchBrowser, openEmbeddedSession, PHONE_UA, type EmbeddedSession } from "../helpers/browser";
import { e2ePipeline, visit, type E2EPipeline } from "../helpers/e2e-pipeline";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const DATASET = "1234567890123";
const META_TOKEN = "EAAGe2eFeedToken0123456789wxyz";
const PHONE = { width: 375, height: 812 };
const tr = (key: MessageKey, params?: MessageParams) => translate("fr", key, params);

let sandbox: RunningSandbox;
let shopify: RunningShopifyAdmin;
let meta: RunningStandIn;
let server: PreviewServer;
let browser: Browser;
let flow: E2EPipeline;

const widerThanPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  shopify = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  shopify.shop(SHOP);
  meta = await startMetaStandIn();
  await adStandInControl(meta.url).credentials({ id: DATASET, token: META_TOKEN, name: "Atlas Beauty COD" });
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [SHOP],
      env: {
        SHOPIFY_ADMIN_STAND_IN_URL: shopify.url,
        META_API_BASE_URL: meta.url,
        AD_API_ALLOW_PRIVATE_HOSTS: "true",
        // This process runs the feed's job on the server's database: the tokens must open here too.
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      },
    }),
    launchBrowser(),
  ]);
  // The feed's job runs in this process (the server's worker is off): it reaches Meta's stand-in too.
  vi.stubEnv("META_API_BASE_URL", meta.url);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  flow = await e2ePipeline(server.db, { shop: SHOP, apiKey: key.key, sandboxUrl: sandbox.url });
  await sandboxControl(sandbox.url).config({ autopilot: false });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await browser?.close();
  await server?.close();
  await Promise.all([sandbox?.close(), shopify?.close(), meta?.close()]);
});

describe("the conversion feed, in French on a phone", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await openEmbeddedSession(
      browser,
      { apiKey: server.apiKey, shop: SHOP, locale: "fr", token: await server.mintToken(SHOP) },
      { viewport: PHONE, userAgent: PHONE_UA },
    );
  });
  afterAll(() => session?.close());

  it("GIVEN a token Meta refuses WHEN connecting THEN Meta's answer is shown and nothing is kept; GIVEN a good one THEN it is kept sealed", async () => {
    const { page } = session;
    await visit(page, await server.embeddedUrl(SHOP, "/app/settings", { locale: "fr" }));
    await page.getByRole("heading", { name: tr("settings.adFeed.title") }).waitFor();
    await page.getByLabel(tr("settings.adFeed.meta.id")).fill(DATASET);
    await page.getByLabel(tr("settings.adFeed.meta.token")).fill("EAAGnotTheRightToken000000");
    await page.getByRole("button", { name: tr("settings.adFeed.connect", { platform: "Meta" }) }).click();
    const refused = page.getByText(tr("settings.adFeed.error.refused", { platform: "Meta", message: "" }).slice(0, 30));
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/Invalid OAuth access token/);
    expect(await server.db.adFeed.count({ where: { metaTokenCipher: { not: null } } })).toBe(0);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);

    await page.getByLabel(tr("settings.adFeed.meta.token")).fill(META_TOKEN);
    await page.getByRole("button", { name: tr("settings.adFeed.connect", { platform: "Meta" }) }).click();
    await expect
      .poll(async () => (await session.toasts()).includes(tr("settings.adFeed.connectedToast", { platform: "Meta" })))
      .toBe(true);
    await page.getByText(tr("settings.adFeed.connected", { name: "Atlas Beauty COD" })).waitFor();
    const feed = await server.db.adFeed.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(isSealedSecret(feed.metaTokenCipher!)).toBe(true);
    expect(feed.metaTokenLast4).toBe("wxyz");
    // The token is never on the page, not even in the field once saved.
    expect(await page.content()).not.toContain(META_TOKEN);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("ad-feed-connected-fr-phone");
  });

  it("GIVEN Meta connected WHEN the merchant chooses the stage and switches the feed on THEN it is saved and the storefront pixel added", async () => {
    const { page } = session;
    const stage = page.getByLabel(tr("settings.adFeed.stage"));
    await stage.selectOption("shipped");
    await page.getByText(/CODShipped/).waitFor();
    await stage.selectOption("delivered");
    await page.getByText(/CODDelivered/).waitFor();
    await page.getByLabel(tr("settings.adFeed.enabled")).check();
    // These orders come from a COD form app: no checkout, so no consent signal; the merchant sends them all the same.
    await page.getByLabel(tr("settings.adFeed.withoutConsent")).check();
    await page.getByRole("button", { name: tr("settings.adFeed.save") }).click();
    await expect.poll(async () => (await session.toasts()).includes(tr("settings.adFeed.saved"))).toBe(true);
    await page.getByText(tr("settings.adFeed.pixel.added")).waitFor();
    expect(
      await server.db.adFeed.findUniqueOrThrow({
        where: { shop: SHOP },
        select: { enabled: true, stage: true, naming: true, withoutConsentSignal: true },
      }),
    ).toEqual({ enabled: true, stage: "delivered", naming: "custom", withoutConsentSignal: true });
    expect(shopify.shop(SHOP).webPixel).not.toBeNull();
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
  });

  it("GIVEN parcels delivered and one returned WHEN the feed runs THEN Meta is told of the delivered ones, and Analytics and Activity show it", async () => {
    const { page } = session;
    await flow.place([
      { id: 7_300_001, name: "#6001", phone: "0664000001", city: "Casablanca" },
      { id: 7_300_002, name: "#6002", phone: "0664000002", city: "Rabat" },
      { id: 7_300_003, name: "#6003", phone: "0664000003", city: "Casablanca" },
    ]);
    await flow.drain();
    const control = sandboxControl(sandbox.url);
    const links = await server.db.orderLink.findMany({ where: { shop: SHOP }, orderBy: { orderName: "asc" } });
    for (const [i, link] of links.entries()) {
      await control.advance(link.leadRef!, { confirmation_status: "confirmed" });
      await control.advance(link.leadRef!, { shipping_status: "picked_up" });
      await control.advance(link.leadRef!, { shipping_status: "shipped", tracking_number: `TRK-60${i}` });
      await control.advance(link.leadRef!, { shipping_status: i === 2 ? "returned" : "delivered" });
    }
    await flow.sync();
    await flow.pipeline.drain({ kinds: ["ad-feed"], timeoutMs: 120_000 });
    const received = (await adStandInControl(meta.url).received(DATASET)).events.filter((e) => !e.test);
    expect(received.map((e) => [e.eventName, e.eventId]).sort()).toEqual([
      ["CODDelivered", "cod-7300001-delivered"],
      ["CODDelivered", "cod-7300002-delivered"],
    ]);

    await visit(page, await server.embeddedUrl(SHOP, "/app/analytics?period=7", { locale: "fr" }));
    await page.getByRole("heading", { name: tr("analytics.adFeed.title") }).waitFor();
    const gap = await page.locator("[data-ad-feed-gap]").textContent();
    expect(gap).toContain(tr("analytics.adFeed.perPlatform", { meta: "2", tiktok: "0" }));
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("ad-feed-analytics-fr-phone");

    await visit(page, await server.embeddedUrl(SHOP, "/app/activity", { locale: "fr" }));
    await page.getByRole("heading", { name: tr("activity.adFeed.title") }).waitFor();
    const activity = page.locator("[data-ad-feed-activity]");
    expect(await activity.getByText("#6001").count()).toBeGreaterThan(0);
    expect(await activity.getByText("#6002").count()).toBeGreaterThan(0);
    expect(await activity.getByText("#6003").count()).toBe(0);
    expect(await activity.getByText(tr("activity.adFeed.customerDataOnly")).count()).toBe(2);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    // The whole page: every table of Activity scrolls sideways in a region the keyboard reaches.
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("ad-feed-activity-fr-phone");
  });
});
