/**
 * The conversion feed in a real browser against the production build, in
 * French on a phone (375 px, a phone's user agent): Settings connects Meta,
 * then TikTok, each first with a token the platform refuses (its words shown,
 * nothing kept), then with a good one (kept sealed, shown by its last four
 * characters, never rendered back), the merchant chooses the stage and
 * switches the feed on (the storefront pixel added in the Shopify stand-in);
 * parcels are then delivered and returned on the platform, the feed tells
 * both stand-ins, and Analytics (per platform) and Activity show what was
 * sent. Every step passes axe-core (no violation of any impact) and nothing
 * is wider than the phone.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { adStandInControl, startMetaStandIn, startTikTokStandIn, type RunningStandIn } from "../../ads-stand-in/index";
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
const PIXEL = "CE2EFEEDPIXEL0000001";
const TIKTOK_TOKEN = "tt-e2e-feed-token-0123456789abcd";
const PHONE = { width: 375, height: 812 };
const tr = (key: MessageKey, params?: MessageParams) => translate("fr", key, params);

let sandbox: RunningSandbox;
let shopify: RunningShopifyAdmin;
let meta: RunningStandIn;
let tiktok: RunningStandIn;
let server: PreviewServer;
let browser: Browser;
let flow: E2EPipeline;

const widerThanPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

type Platform = "meta" | "tiktok";
const nameOf = (platform: Platform) => tr(`adFeed.platform.${platform}`);

/** Types an id and a token in the platform's form and asks to connect it. */
async function connect(page: Page, platform: Platform, id: string, token: string) {
  await page.getByLabel(tr(`settings.adFeed.${platform}.id`)).fill(id);
  await page.getByLabel(tr(`settings.adFeed.${platform}.token`)).fill(token);
  await page.getByRole("button", { name: tr("settings.adFeed.connect", { platform: nameOf(platform) }) }).click();
}

/** The platform's refusal, in its own words, as the form shows it. */
async function refusalShown(page: Page, platform: Platform) {
  const refused = page.getByText(
    tr("settings.adFeed.error.refused", { platform: nameOf(platform), message: "" }).slice(0, 30),
  );
  await refused.waitFor();
  return refused.textContent();
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  shopify = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  shopify.shop(SHOP);
  meta = await startMetaStandIn();
  await adStandInControl(meta.url).credentials({ id: DATASET, token: META_TOKEN, name: "Atlas Beauty COD" });
  tiktok = await startTikTokStandIn();
  await adStandInControl(tiktok.url).credentials({ id: PIXEL, token: TIKTOK_TOKEN });
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [SHOP],
      env: {
        SHOPIFY_ADMIN_STAND_IN_URL: shopify.url,
        META_API_BASE_URL: meta.url,
        TIKTOK_API_BASE_URL: tiktok.url,
        AD_API_ALLOW_PRIVATE_HOSTS: "true",
        // This process runs the feed's job on the server's database: the tokens must open here too.
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      },
    }),
    launchBrowser(),
  ]);
  // The feed's job runs in this process (the server's worker is off): it reaches the stand-ins too.
  vi.stubEnv("META_API_BASE_URL", meta.url);
  vi.stubEnv("TIKTOK_API_BASE_URL", tiktok.url);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  flow = await e2ePipeline(server.db, { shop: SHOP, apiKey: key.key, sandboxUrl: sandbox.url });
  await sandboxControl(sandbox.url).config({ autopilot: false });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await browser?.close();
  await server?.close();
  await Promise.all([sandbox?.close(), shopify?.close(), meta?.close(), tiktok?.close()]);
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
    await connect(page, "meta", DATASET, "EAAGnotTheRightToken000000");
    expect(await refusalShown(page, "meta")).toMatch(/Invalid OAuth access token/);
    expect(await server.db.adFeed.count({ where: { metaTokenCipher: { not: null } } })).toBe(0);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);

    await connect(page, "meta", DATASET, META_TOKEN);
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

  it("GIVEN a token TikTok refuses WHEN connecting THEN TikTok's answer is shown and nothing is kept; GIVEN a good one THEN it is kept sealed and never shown again", async () => {
    const { page } = session;
    await connect(page, "tiktok", PIXEL, "tt-not-the-right-token-000000");
    expect(await refusalShown(page, "tiktok")).toMatch(/The access token is invalid or has been revoked/);
    expect(await server.db.adFeed.count({ where: { tiktokTokenCipher: { not: null } } })).toBe(0);
    // Meta's connection is untouched by TikTok's refusal.
    expect(await server.db.adFeed.count({ where: { metaTokenCipher: { not: null } } })).toBe(1);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);

    await connect(page, "tiktok", PIXEL, TIKTOK_TOKEN);
    await expect
      .poll(async () => (await session.toasts()).includes(tr("settings.adFeed.connectedToast", { platform: "TikTok" })))
      .toBe(true);
    const feed = await server.db.adFeed.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(feed.tiktokPixelCode).toBe(PIXEL);
    expect(isSealedSecret(feed.tiktokTokenCipher!)).toBe(true);
    expect(feed.tiktokTokenLast4).toBe("abcd");
    // Shown by its last four characters only: not in the field, not anywhere in the page.
    await page.getByText(tr("settings.adFeed.tokenSaved", { last4: "abcd", date: "" }).split(",")[0]).waitFor();
    expect(await page.getByLabel(tr("settings.adFeed.tiktok.token")).inputValue()).toBe("");
    expect(await page.content()).not.toContain(TIKTOK_TOKEN);
    // TikTok's answer names no pixel: the badge beside its heading still says it is connected, not "TikTok" again.
    const tiktokBadge = page
      .getByRole("heading", { name: tr("settings.adFeed.tiktok.title"), level: 3 })
      .locator("xpath=following-sibling::*[1]");
    // Polaris puts the tone's name ("Réussite") before the text, for screen readers.
    expect(await tiktokBadge.textContent()).toMatch(/^(Réussite)?Connecté$/);
    await page.reload({ waitUntil: "load" });
    await page.getByRole("heading", { name: tr("settings.adFeed.title") }).waitFor();
    expect(await page.content()).not.toContain(TIKTOK_TOKEN);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
  });

  it("GIVEN Meta and TikTok connected WHEN the merchant chooses the stage and switches the feed on THEN it is saved and the storefront pixel added", async () => {
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

  it("GIVEN parcels delivered and one returned WHEN the feed runs THEN Meta and TikTok are told of the delivered ones, and Analytics and Activity show it", async () => {
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
    for (const [standIn, target] of [
      [meta, DATASET],
      [tiktok, PIXEL],
    ] as const) {
      const received = (await adStandInControl(standIn.url).received(target)).events.filter((e) => !e.test);
      expect(received.map((e) => [e.eventName, e.eventId]).sort()).toEqual([
        ["CODDelivered", "cod-7300001-delivered"],
        ["CODDelivered", "cod-7300002-delivered"],
      ]);
    }

    await visit(page, await server.embeddedUrl(SHOP, "/app/analytics?period=7", { locale: "fr" }));
    await page.getByRole("heading", { name: tr("analytics.adFeed.title") }).waitFor();
    const gap = await page.locator("[data-ad-feed-gap]").textContent();
    expect(gap).toContain(tr("analytics.adFeed.perPlatform", { meta: "2", tiktok: "2" }));
    // Counted by the feed since it was switched on, and said so: the funnel above counts every delivery of the period.
    expect(gap).toMatch(/depuis que le flux est activé, 2 commandes ont atteint\s«\sLivrée\s»/);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("ad-feed-analytics-fr-phone");

    await visit(page, await server.embeddedUrl(SHOP, "/app/activity", { locale: "fr" }));
    await page.getByRole("heading", { name: tr("activity.adFeed.title") }).waitFor();
    const activity = page.locator("[data-ad-feed-activity]");
    expect(await activity.getByText("#6001").count()).toBeGreaterThan(0);
    expect(await activity.getByText("#6002").count()).toBeGreaterThan(0);
    expect(await activity.getByText("#6003").count()).toBe(0);
    // Each delivered order, told to each platform.
    expect(await activity.getByText(tr("activity.adFeed.customerDataOnly")).count()).toBe(4);
    expect(await activity.getByText(tr("adFeed.platform.tiktok"), { exact: true }).count()).toBe(2);
    expect(await widerThanPhone(page)).toBeLessThanOrEqual(PHONE.width);
    // The whole page: every table of Activity scrolls sideways in a region the keyboard reaches.
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("ad-feed-activity-fr-phone");
  });
});
