/**
 * The README's tour of `npm run demo`, walked through the demo's admin preview
 * itself (scripts/dev/demo/preview-server.ts: its frame, its App Bridge
 * stand-in, its proxy to the production server), in French then in English,
 * saving in each page as a merchant would: map a held order's unknown SKU from
 * Products and cities (the editor's save bar), send the order, save Settings
 * (the page's save bar; leaving with unsaved changes asks first), preview an
 * import of past orders, install the second store. No error page; every change
 * still there after a reload of the whole preview. Then, in French, the
 * conversion feed as the demo connects it (Meta's and TikTok's stand-ins): the
 * autopilot delivers parcels, and Analytics counts what each platform was told.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import { sandboxControl, startSandbox, type RunningSandbox } from "../../sandbox/index";
import {
  applyWebhookOrder,
  demoWorld,
  DEMO_SEED,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type ShopifyAdminControl,
} from "../../shopify-admin/index";
import { deliverWebhook } from "../../scripts/dev/lib/webhook-signing";
import { connectShop } from "../../scripts/dev/lib/connected-shop";
import {
  startPreviewServer as startAdminPreview,
  type PreviewServer as AdminPreview,
} from "../../scripts/dev/demo/preview-server";
import { t, type Language, type MessageKey, type MessageParams } from "../../app/i18n";
import { DESKTOP_CHROME_UA, launchBrowser, PHONE_UA, SCREENSHOT_DIR } from "../helpers/browser";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";
import { builtInOrder, waitUntil, type OrderPayload } from "../helpers/built-in-orders";
import { connectDemoFeed, readAcceptedEvents, startAdStandIns, type AdStandIns } from "../../scripts/dev/demo/ad-feed";
import { adStandInControl } from "../../ads-stand-in/index";
import { enqueueJob } from "../../app/queue/jobs.server";
import { syncJobFor } from "../../app/models/job-kinds";

const DEMO = "atlas-beauty.myshopify.com";
const FRESH = "rif-market.myshopify.com";

let sandbox: RunningSandbox;
let admin: RunningShopifyAdmin;
let control: ShopifyAdminControl;
let server: PreviewServer;
let preview: AdminPreview;
let browser: Browser;
let ads: AdStandIns;

async function placeOrder(shop: string, body: OrderPayload) {
  applyWebhookOrder(admin.shop(shop), "orders/create", body);
  const answer = await deliverWebhook(server.url, {
    topic: "orders/create",
    shop,
    secret: PREVIEW_API_SECRET,
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

const linkOf = (shop: string, orderId: number) =>
  server.db.orderLink.findFirst({ where: { shop, orderId: String(orderId) } });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  control = shopifyAdminControl(admin.url);
  ads = await startAdStandIns({ meta: 0, tiktok: 0 });
  admin.shop(DEMO, demoWorld({ nowMs: Date.now(), orders: 60, firstOrderNumber: 1001 - 60 }));
  admin.shop(FRESH, demoWorld({ nowMs: Date.now(), seed: DEMO_SEED + 1, orders: 20 }));
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [],
      env: {
        SHOPIFY_ADMIN_STAND_IN_URL: admin.url,
        META_API_BASE_URL: ads.meta.url,
        TIKTOK_API_BASE_URL: ads.tiktok.url,
        AD_API_ALLOW_PRIVATE_HOSTS: "true",
        WORKER_IN_PROCESS: "true",
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
        LOG_LEVEL: "info",
      },
    }),
    launchBrowser(),
  ]);
  preview = await startAdminPreview({
    port: 0,
    appUrl: server.url,
    shops: [
      { domain: DEMO, storeName: "Atlas Beauty" },
      { domain: FRESH, storeName: "Rif Market" },
    ],
    apiKey: PREVIEW_API_KEY,
    apiSecret: PREVIEW_API_SECRET,
    shopifyAdminUrl: admin.url,
    onUninstall: async (shop) => {
      await control.uninstall(shop);
      const body = JSON.stringify({ id: 1, name: shop, domain: shop, myshopify_domain: shop });
      const answer = await deliverWebhook(server.url, {
        topic: "app/uninstalled",
        shop,
        secret: PREVIEW_API_SECRET,
        body,
      });
      if (answer.status >= 300) throw new Error(`app/uninstalled answered ${answer.status}`);
    },
  });
});

afterAll(async () => {
  await preview?.close();
  await browser?.close();
  await server?.close();
  await admin?.close();
  await ads?.close();
  await sandbox?.close();
});

/** A browser showing the preview as a merchant does: a normal Chrome, nothing but loopback. */
async function merchant(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA, viewport: { width: 1440, height: 900 } });
  await context.route("**/*", (route) =>
    new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort("blockedbyclient"),
  );
  return { context, page: await context.newPage() };
}

const app = (page: Page): FrameLocator => page.frameLocator("#app");

/** The app's frame, once React has hydrated it and no navigation is pending. */
async function settled(page: Page) {
  await waitUntil("the app's frame to settle", async () => {
    const frame = page.frames().find((f) => f.url().startsWith("http") && new URL(f.url()).pathname.startsWith("/app"));
    if (!frame) return false;
    return frame
      .evaluate(() => {
        const router = (window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } })
          .__remixRouter;
        return document.readyState === "complete" && router?.state.navigation.state === "idle";
      })
      .catch(() => false);
  });
}

/** The merchant's own words in this language (the catalogue is the only source). */
const words = (lang: Language) => (key: MessageKey, params?: MessageParams) => t(lang, key, params);

async function noErrorPage(page: Page) {
  expect(await app(page).locator("[data-error-failure], [data-error-reference]").count()).toBe(0);
}

/** Through the preview's own navigation (the app's menu, as the admin draws it). */
async function go(page: Page, label: string, heading: string) {
  await page.locator("nav #links a", { hasText: label }).first().click();
  await app(page).getByRole("heading", { name: heading, level: 1 }).waitFor({ timeout: 30_000 });
  await settled(page);
}

/** Import past orders and Activity are maintenance pages: Settings links to them, the menu does not. */
async function goFromSettings(page: Page, w: ReturnType<typeof words>, link: MessageKey, title: MessageKey) {
  await go(page, w("nav.settings"), w("settings.title"));
  await app(page)
    .getByRole("link", { name: w(link) })
    .click();
  await app(page)
    .getByRole("heading", { name: w(title), level: 1 })
    .waitFor({ timeout: 30_000 });
  await settled(page);
}

const goToBackfill = (page: Page, w: ReturnType<typeof words>) =>
  goFromSettings(page, w, "nav.backfill", "backfill.title");

async function toast(page: Page, text: string) {
  await page.locator("#toasts .toast", { hasText: text }).first().waitFor({ timeout: 30_000 });
}

/** Reloads the whole preview (the frame opens the app again, as a reload of the admin does) and comes back to a page. */
async function reloadTo(page: Page, lang: Language, label: string, heading: string) {
  await page.reload({ waitUntil: "load" });
  await app(page).getByRole("heading", { level: 1 }).first().waitFor({ timeout: 30_000 });
  await settled(page);
  await go(page, label, heading);
  expect(await page.locator("#language").inputValue()).toBe(lang);
}

/**
 * test-results/e2e/demo-tour-<lang>-<name>.png; with UPDATE_DOCS_SCREENSHOTS=1 and `docs`, the English
 * one also goes to docs/demo-<name>.png (the demo README's).
 */
async function shot(page: Page, lang: Language, name: string, docs: boolean) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `demo-tour-${lang}-${name}.png`);
  await page.screenshot({ path });
  if (docs && process.env.UPDATE_DOCS_SCREENSHOTS === "1" && lang === "en")
    copyFileSync(path, join(import.meta.dirname, "..", "..", "docs", `demo-${name}.png`));
}

const TOURS: { lang: Language; order: string; sku: string }[] = [
  { lang: "fr", order: "#1019", sku: "ZELLIGE-LAMP-01" },
  { lang: "en", order: "#1021", sku: "RIF-OLIVE-1L" },
];

describe.each(TOURS)("the demo's tour through the admin preview ($lang)", ({ lang, order, sku }) => {
  const w = words(lang);
  let context: BrowserContext;
  let page: Page;
  let held: OrderPayload;

  beforeAll(async () => {
    ({ context, page } = await merchant());
    await page.goto(new URL(`/?shop=${DEMO}&locale=${lang}`, preview.url).href, { waitUntil: "load" });
    await app(page).getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
    await settled(page);
    // Installed by its first opening (token exchange); then connected as the demo connects it.
    if (lang === "fr") {
      await connectShop(server.db, {
        shop: DEMO,
        apiKey: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
        baseUrl: sandbox.url,
        settings: { writeBack: { tags: true, fulfillment: true, markPaid: true, cancel: false } },
      });
    }
    held = builtInOrder(order);
    await placeOrder(DEMO, held);
    await waitUntil(`${order} to be held`, async () => (await linkOf(DEMO, held.id))?.state === "held");
  });
  afterAll(() => context?.close());

  it("maps the held order's unknown SKU from Products and cities, saving with the save bar", async () => {
    await go(page, w("nav.mappings"), w("mappings.title"));
    const frame = app(page);
    await frame.getByLabel(w("mappings.variants.search")).fill(`sku:${sku}`);
    await frame.getByRole("button", { name: w("mappings.variants.searchAction") }).click();
    const row = frame.locator("tr", { hasText: sku });
    await row.waitFor({ timeout: 30_000 });
    await settled(page);
    await row.getByRole("button", { name: w("mappings.map") }).click();
    await frame.getByLabel(w("mappings.editor.pick")).fill("ARG-OIL-50");
    await frame
      .getByRole("option", { name: /ARG-OIL-50/ })
      .first()
      .click();
    // The editor has unsaved changes: App Bridge's save bar saves them.
    await frame.locator('[data-save-bar-button="save"]').click();
    await toast(page, w("mappings.saved"));
    await expect.poll(() => row.locator("[data-status]").getAttribute("data-status")).toBe("mapped");
    await noErrorPage(page);

    await reloadTo(page, lang, w("nav.mappings"), w("mappings.title"));
    await app(page).getByLabel(w("mappings.variants.search")).fill(`sku:${sku}`);
    await app(page)
      .getByRole("button", { name: w("mappings.variants.searchAction") })
      .click();
    await expect
      .poll(() => app(page).locator("tr", { hasText: sku }).locator("[data-status]").getAttribute("data-status"), {
        timeout: 30_000,
      })
      .toBe("mapped");
  });

  it("sends the held order from its page", async () => {
    await go(page, w("nav.orders"), w("orders.title"));
    await app(page).getByRole("link", { name: order, exact: true }).click();
    await app(page)
      .getByRole("heading", { name: w("order.title", { name: order }), level: 1 })
      .waitFor({ timeout: 30_000 });
    await settled(page);
    // Its product is mapped now: sending it is the page's primary action.
    await app(page)
      .getByRole("button", { name: w("order.action.send"), exact: true })
      .first()
      .click();
    await toast(page, w("order.resent"));
    await expect.poll(async () => (await linkOf(DEMO, held.id))?.state, { timeout: 30_000 }).toBe("created");
    await noErrorPage(page);

    await reloadTo(page, lang, w("nav.orders"), w("orders.title"));
    await app(page).getByRole("link", { name: order, exact: true }).click();
    await app(page)
      .getByRole("heading", { name: w("order.title", { name: order }), level: 1 })
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => app(page).locator('[data-field="state"]').textContent(), { timeout: 30_000 })
      .toContain(w("state.created"));
    // Its timeline in this language, from the stored sentences.
    await app(page).getByText(w("timeline.text.received", { order })).first().waitFor();
  }, 120_000);

  it("saves Settings with the save bar, and asks before leaving unsaved changes", async () => {
    await go(page, w("nav.settings"), w("settings.title"));
    const frame = app(page);
    const saveBar = frame.locator('[data-app-bridge-stub="save-bar"]');
    expect(await saveBar.count()).toBe(0);
    const retention = frame.getByLabel(w("settings.retention.label"));
    const value = lang === "fr" ? "400" : "500";
    await retention.fill(value);
    // Polaris draws its own radio over the input: the merchant clicks the choice's label.
    if (lang === "fr")
      await frame.locator("label", { hasText: w("settings.currency.DH", { example: "229\u00a0DH" }) }).click();
    await saveBar.waitFor();

    // Leaving asks first: staying keeps the page and its edits.
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page
      .locator("nav #links a", { hasText: w("nav.orders") })
      .first()
      .click();
    await page.waitForTimeout(500);
    expect(await frame.getByRole("heading", { name: w("settings.title"), level: 1 }).isVisible()).toBe(true);
    expect(await retention.inputValue()).toBe(value);

    await frame.locator('[data-save-bar-button="save"]').click();
    await toast(page, w("settings.saved"));
    await expect.poll(() => saveBar.count()).toBe(0);
    await noErrorPage(page);
    expect(
      JSON.parse((await server.db.shop.findUniqueOrThrow({ where: { domain: DEMO } })).settings).retentionDays,
    ).toBe(Number(value));

    await reloadTo(page, lang, w("nav.settings"), w("settings.title"));
    expect(await app(page).getByLabel(w("settings.retention.label")).inputValue()).toBe(value);
    // The currency name chosen in French applies on every page, in both languages.
    expect(
      await app(page)
        .getByLabel(w("settings.currency.DH", { example: lang === "fr" ? "229\u00a0DH" : "229 DH" }))
        .isChecked(),
    ).toBe(true);
  }, 120_000);

  it("previews an import of past orders", async () => {
    await goToBackfill(page, w);
    await app(page)
      .getByRole("button", { name: w("backfill.dryRun"), exact: true })
      .click();
    await toast(page, w("backfill.started.dry"));
    await app(page).getByText(w("backfill.doneDry")).waitFor({ timeout: 60_000 });
    await noErrorPage(page);

    await reloadTo(page, lang, w("nav.settings"), w("settings.title"));
    await goToBackfill(page, w);
    await app(page).getByText(w("backfill.doneDry")).waitFor({ timeout: 30_000 });
  }, 120_000);

  it("installs the second store from the preview's Store menu", async () => {
    if (lang === "en") {
      // Installed by the French tour: uninstall it first, as Shopify does, then install it again.
      await page.goto(new URL(`/?shop=${FRESH}`, preview.url).href, { waitUntil: "load" });
      await page.getByRole("button", { name: "Uninstall the app" }).click();
      await page.waitForURL(/uninstalled=1/);
      expect((await control.shop(FRESH)).installed).toBe(false);
      await page.goto(new URL(`/?shop=${DEMO}`, preview.url).href, { waitUntil: "load" });
      await settled(page);
    } else {
      expect((await control.shop(FRESH)).installed).toBe(false);
    }
    await Promise.all([
      page.waitForURL(new RegExp(`shop=${FRESH.replace(/\./g, "\\.")}`)),
      page.locator("#shops").selectOption(FRESH),
    ]);
    await app(page)
      .getByRole("heading", { name: w("home.checklist.title") })
      .waitFor({ timeout: 60_000 });
    await settled(page);
    expect((await control.shop(FRESH)).installed).toBe(true);
    await noErrorPage(page);

    await page.reload({ waitUntil: "load" });
    await app(page)
      .getByRole("heading", { name: w("home.checklist.title") })
      .waitFor({ timeout: 60_000 });
    await shot(page, lang, "preview-second-store", true);
    await page.goto(new URL(`/?shop=${DEMO}`, preview.url).href, { waitUntil: "load" });
    await app(page)
      .getByRole("heading", { name: w("app.title"), level: 1 })
      .waitFor({ timeout: 30_000 });
    await settled(page);
    // The tour's own shop, not the demo's 38 orders: docs/demo-admin-preview.png is taken from `npm run demo`.
    await shot(page, lang, "admin-preview", false);
  }, 120_000);

  it("met no error page and no refused action on the way", () => {
    expect(server.output()).not.toMatch(/does not match `origin` header|Aborting the action/);
  });
});

describe("the demo's conversion feed, in French: parcels the autopilot delivers are told to Meta and TikTok", () => {
  const w = words("fr");
  let context: BrowserContext;
  let page: Page;
  const names = ["#1001", "#1002", "#1003", "#1004", "#1005", "#1006", "#1007", "#1008", "#1009", "#1010"];

  beforeAll(async () => {
    ({ context, page } = await merchant());
    await page.goto(new URL(`/?shop=${DEMO}&locale=fr`, preview.url).href, { waitUntil: "load" });
    await app(page).getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
    await settled(page);
    // Connected as `npm run demo` connects it: both tokens verified by their stand-ins, the feed on.
    await connectDemoFeed(server.db, {
      shop: DEMO,
      encryptionKey: process.env.ENCRYPTION_KEY!,
      standIns: ads,
      shopifyAdminUrl: admin.url,
      appUrl: server.url,
    });
  });
  afterAll(() => context?.close());

  it("GIVEN the demo's orders sent WHEN the autopilot delivers their parcels THEN Analytics counts the events each platform accepted", async () => {
    const platform = sandboxControl(sandbox.url);
    await platform.config({ autopilot: true });
    const orders = names.map(builtInOrder);
    for (const order of orders) await placeOrder(DEMO, order);
    await waitUntil(
      "the orders to become leads",
      async () =>
        (await server.db.orderLink.count({
          where: { shop: DEMO, orderId: { in: orders.map((o) => String(o.id)) }, leadRef: { not: null } },
        })) === orders.length,
    );
    // Hours pass on the platform: the autopilot confirms, ships and delivers (or returns, or cancels) each parcel.
    await platform.clock(6 * 3600);
    const refs = new Set(
      (
        await server.db.orderLink.findMany({ where: { shop: DEMO, leadRef: { not: null } }, select: { leadRef: true } })
      ).map((l) => l.leadRef!),
    );
    const deliveredOnPlatform = (await platform.leads("ACC-1001")).filter(
      (l) => refs.has(l.ref) && (l.shipping_status === "delivered" || l.shipping_status === "paid"),
    ).length;
    expect(deliveredOnPlatform).toBeGreaterThan(0);
    // The shop's next status sync, brought forward: the app reads what the autopilot did.
    await enqueueJob(server.db, syncJobFor(DEMO, new Date()));
    let accepted = await readAcceptedEvents(ads);
    const told = (which: "meta" | "tiktok") =>
      [...accepted.values()].flat().filter((e) => e.platform === which && e.event === "CODDelivered").length;
    await waitUntil(
      "Meta's and TikTok's stand-ins to accept every delivery",
      async () => {
        accepted = await readAcceptedEvents(ads);
        const pending = await server.db.adEvent.count({ where: { shop: DEMO, state: "pending" } });
        return pending === 0 && told("meta") === deliveredOnPlatform && told("tiktok") === deliveredOnPlatform;
      },
      180_000,
    );
    // Each outcome was sent once: neither stand-in had to drop a repeat.
    for (const standIn of [ads.meta, ads.tiktok])
      expect((await adStandInControl(standIn.url).received()).duplicates).toBe(0);

    await go(page, w("nav.analytics"), w("analytics.title"));
    const gap = app(page).locator("[data-ad-feed-gap]");
    await gap.waitFor({ timeout: 30_000 });
    expect(await gap.textContent()).toContain(
      w("analytics.adFeed.perPlatform", { meta: String(deliveredOnPlatform), tiktok: String(deliveredOnPlatform) }),
    );
    await noErrorPage(page);
    await gap.scrollIntoViewIfNeeded();
    await shot(page, "fr", "analytics-ad-feed", false);

    await goFromSettings(page, w, "nav.activity", "activity.title");
    const activity = app(page).locator("[data-ad-feed-activity]");
    await activity.waitFor({ timeout: 30_000 });
    const sentOrder = orders.find((o) => accepted.has(String(o.id)))!;
    expect(sentOrder).toBeDefined();
    expect(await activity.getByText(sentOrder.name as string, { exact: true }).count()).toBeGreaterThan(0);
    await noErrorPage(page);
  }, 300_000);
});

describe("the admin preview on a phone (375 px), in French", () => {
  it("GIVEN the preview opened on a phone WHEN it shows Home THEN the app keeps the whole width, its menu reads whole in a strip above it, and nothing scrolls sideways", async () => {
    const context = await browser.newContext({ userAgent: PHONE_UA, viewport: { width: 375, height: 812 } });
    await context.route("**/*", (route) =>
      new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort("blockedbyclient"),
    );
    try {
      const page = await context.newPage();
      await page.goto(new URL(`/?shop=${DEMO}&locale=fr`, preview.url).href, { waitUntil: "load" });
      await app(page).getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect((await page.locator("#app").boundingBox())!.width).toBeGreaterThanOrEqual(374);
      const menu = page.locator("nav #links a");
      await expect.poll(() => menu.count()).toBeGreaterThan(3);
      // Each item whole: the strip scrolls sideways instead of cutting them.
      expect(await menu.evaluateAll((links) => links.filter((a) => a.scrollWidth > a.clientWidth).length)).toBe(0);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, "demo-tour-fr-preview-phone.png") });
      await go(page, t("fr", "nav.orders"), t("fr", "orders.title"));
    } finally {
      await context.close();
    }
  });
});
