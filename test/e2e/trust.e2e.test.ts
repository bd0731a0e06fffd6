/**
 * Nothing the app proposes, sends or counts misleads the merchant, walked in a real browser
 * against the production build, in French, on a phone (375 px) and at 1280 px inside the
 * demo's admin frame (its 240 px menu beside the app): a sent order cancelled in Shopify after
 * its lead was confirmed comes first in "À faire", in the Orders list's "À traiter" and on its
 * page, with what doing nothing costs and the seller space as the only way to stop it; held
 * orders show their amount to collect; an order without an amount in dirhams gets a WhatsApp
 * message without a hole; Home, Analytics and the sync ledger say the same of the same orders;
 * an import of past orders asks first with its figures, and the imported orders keep the day
 * they were placed on Home's chart; Cash is in the menu and its CSV opens in French Excel.
 * axe-core finds nothing of any impact; UPDATE_DOCS_SCREENSHOTS=1 refreshes the README's
 * screenshots (docs/trust-*.png).
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Frame, Page } from "playwright-core";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import {
  applyWebhookOrder,
  demoWorld,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type WebhookOrderPayload,
} from "../../shopify-admin/index";
import { deliverWebhook } from "../../scripts/dev/lib/webhook-signing";
import { connectShop } from "../../scripts/dev/lib/connected-shop";
import {
  startPreviewServer as startAdminPreview,
  type PreviewServer as AdminPreview,
} from "../../scripts/dev/demo/preview-server";
import {
  DESKTOP_CHROME_UA,
  launchBrowser,
  openEmbeddedSession,
  PHONE_UA,
  SCREENSHOT_DIR,
  type EmbeddedSession,
} from "../helpers/browser";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  startPreviewServer,
  storeName,
  type PreviewServer,
} from "../helpers/preview-server";
import { visit } from "../helpers/e2e-pipeline";
import { waitUntil } from "../helpers/built-in-orders";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { testPipeline } from "../helpers/pipeline";
import { formatterFor, t, type MessageKey, type MessageParams } from "../../app/i18n";
import { addDays, DEFAULT_TIME_ZONE, localDay, startOfLocalDay } from "../../app/analytics/days";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const DOCS = join(import.meta.dirname, "..", "..", "docs");
const PHONE = { width: 375, height: 812 };
const tr = (key: MessageKey, params?: MessageParams) => t("fr", key, params);
const format = formatterFor("fr");

let sandbox: RunningSandbox;
let admin: RunningShopifyAdmin;
let server: PreviewServer;
let preview: AdminPreview;
let browser: Browser;
let phone: EmbeddedSession;
let desk: EmbeddedSession;

/** The test's own orders, placed as Shopify places them: in the Admin stand-in, then their signed webhook. */
const ORDERS = {
  /** Sent, confirmed by the platform, then cancelled in Shopify. */
  cancelled: { id: 7_410_001, name: "#9101", phone: "0664100001", city: "Casablanca" },
  /** Held: a landline, 229 MAD to collect. */
  landline: { id: 7_410_002, name: "#9102", phone: "0522123456" },
  /** Held: paid in euros, no amount in dirhams (its message must still read whole). */
  euros: { id: 7_410_003, name: "#9103", phone: "0664100003", city: "Marrakech", firstName: "Karima", currency: "EUR" },
  /** Sent as usual. */
  plain: { id: 7_410_004, name: "#9104", phone: "0664100004", city: "Rabat" },
} satisfies Record<string, OrderSpec>;

const linkOf = (name: string) => server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: name } });

async function shopify(topic: "orders/create" | "orders/cancelled", body: Record<string, unknown>) {
  applyWebhookOrder(admin.shop(SHOP), topic, body as unknown as WebhookOrderPayload);
  const answer = await deliverWebhook(server.url, {
    topic,
    shop: SHOP,
    secret: PREVIEW_API_SECRET,
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

/** Visible text, hidden accessibility labels left out. */
async function visibleText(target: Page | Frame, selector: string): Promise<string> {
  return target
    .locator(selector)
    .first()
    .evaluate((element) => {
      const node = element.cloneNode(true) as HTMLElement;
      node.querySelectorAll('[class*="visuallyHidden"], .cod-visually-hidden').forEach((hidden) => hidden.remove());
      return node.textContent?.trim() ?? "";
    });
}

/** test-results/e2e/trust-<name>.png; with UPDATE_DOCS_SCREENSHOTS=1 also docs/trust-<name>.png (the README's). */
async function docsShot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `trust-${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === "1") copyFileSync(path, join(DOCS, `trust-${name}.png`));
}

const url = async (path: string) => server.embeddedUrl(SHOP, path, { locale: "fr" });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  // 40 past orders over 60 days in Shopify, for the import.
  admin.shop(SHOP, demoWorld({ nowMs: Date.now(), orders: 40, firstOrderNumber: 801 }));
  await shopifyAdminControl(admin.url).install(SHOP, { accessToken: `shpat_e2e_${storeName(SHOP)}` });
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [SHOP],
      // The server's own worker posts the orders and runs the import against the Admin stand-in.
      env: {
        SHOPIFY_ADMIN_STAND_IN_URL: admin.url,
        WORKER_IN_PROCESS: "true",
        RECONCILE_INTERVAL_SECONDS: "3600",
        // The test seals the seller key as the server reads it.
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      },
    }),
    launchBrowser(),
  ]);
  await connectShop(server.db, {
    shop: SHOP,
    apiKey: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
    settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } },
  });
  preview = await startAdminPreview({
    port: 0,
    appUrl: server.url,
    shops: [{ domain: SHOP, storeName: "Atlas Beauty" }],
    apiKey: PREVIEW_API_KEY,
    apiSecret: PREVIEW_API_SECRET,
    shopifyAdminUrl: admin.url,
    locale: "fr",
  });

  for (const spec of Object.values(ORDERS)) await shopify("orders/create", webhookOrder(spec));
  let states = "";
  await waitUntil(
    "the orders to settle",
    async () => {
      const links = await Promise.all(Object.values(ORDERS).map((o) => linkOf(o.name).catch(() => null)));
      states = links.map((l) => l?.state).join();
      return states === "created,held,held,created";
    },
    90_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (states: ${states})`);
  });
  // The platform confirms the first order; the status sync reads it; then Shopify cancels it.
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const sent = await linkOf(ORDERS.cancelled.name);
  await sandboxControl(sandbox.url).advance(sent.leadRef!, { confirmation_status: "confirmed" });
  const pipeline = testPipeline(server.db);
  const shopRow = await server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  await syncShopStatuses(pipeline.deps, shopRow, pipeline.deps.connect(shopRow).client);
  await pipeline.tellLeadEvents();
  expect((await linkOf(ORDERS.cancelled.name)).confirmationStatus).toBe("confirmed");
  await shopify("orders/cancelled", { ...webhookOrder(ORDERS.cancelled), cancelled_at: new Date().toISOString() });
  expect((await linkOf(ORDERS.cancelled.name)).mismatch).toBe("cancelled");

  const token = await server.mintToken(SHOP);
  [phone, desk] = await Promise.all([
    openEmbeddedSession(
      browser,
      { apiKey: server.apiKey, shop: SHOP, locale: "fr", token },
      { viewport: PHONE, userAgent: PHONE_UA },
    ),
    openEmbeddedSession(browser, { apiKey: server.apiKey, shop: SHOP, locale: "fr", token }),
  ]);
}, 240_000);

afterAll(async () => {
  await phone?.close();
  await desk?.close();
  await preview?.close();
  await browser?.close();
  await server?.close();
  await admin?.close();
  await sandbox?.close();
});

describe("a cancelled order that still ships", () => {
  it("is the first thing in À faire, with the delivery fee at stake, and opens its page", async () => {
    const page = phone.page;
    await visit(page, await url("/app"));
    await page.locator('[data-section="inbox"]').waitFor();
    const causes = await page
      .locator("[data-inbox]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-inbox")));
    expect(causes[0]).toBe("mismatch");
    expect(await visibleText(page, '[data-inbox="mismatch"] a')).toBe(tr("home.inbox.cause.mismatch", { count: 1 }));
    // Casablanca's delivery fee in the platform's cities (the sandbox's): 20 MAD.
    expect(await visibleText(page, '[data-inbox="mismatch"] [data-inbox-amount]')).toBe(
      tr("home.inbox.feesAtStake", { amount: format.money(2000) }),
    );
    // Held orders count with their amount to collect: the landline's 229 MAD, never "0 MAD".
    expect(await visibleText(page, '[data-inbox="phone"] [data-inbox-amount]')).toBe(format.money(22_900));
    // The order paid in euros has no amount in dirhams: the line says so instead of "0 MAD".
    expect(await visibleText(page, '[data-inbox="other"] [data-inbox-amount]')).toBe(tr("home.inbox.amountUnknown"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    await docsShot(page, "home-phone");

    await page.locator('[data-inbox="mismatch"] a').click();
    const banner = page.locator('[data-next-action="stopLead"]');
    await banner.waitFor();
    const ref = (await linkOf(ORDERS.cancelled.name)).leadRef!;
    // The title's badge says what is true, never the platform's "Confirmée" alone; that stays readable beside it.
    const platformWord = tr("stage.platform", { stage: tr("stage.confirmed").toLocaleLowerCase("fr") });
    expect(await visibleText(page, '[data-shopify-stop="cancelled"]')).toBe(
      `${tr("order.shopify.cancelled")} ${platformWord}`,
    );
    expect(await visibleText(page, "[data-platform-stage]")).toBe(platformWord);
    expect(await visibleText(page, '[data-stop-lead="what"]')).toBe(tr("next.stopLead.what.cancelled", { ref }));
    expect(await visibleText(page, '[data-stop-lead="cost"]')).toBe(
      tr("next.stopLead.cost", { fee: format.money(2000) }),
    );
    expect(await visibleText(page, '[data-stop-lead="way"]')).toBe(tr("next.stopLead.way", { ref }));
    // No address of the seller space yet: the page says where to give it.
    expect(await page.locator('[data-stop-lead="no-address"]').count()).toBe(1);
    // On a phone, calling the customer is at the top, before the timeline.
    const contact = await page.locator("[data-contact-top]").boundingBox();
    const timeline = await page.locator("[data-timeline]").first().boundingBox();
    expect(contact).not.toBeNull();
    expect(contact!.y).toBeLessThan(timeline!.y);
    expect(await page.locator("[data-contact-top] [data-contact-call] a").getAttribute("href")).toBe(
      `tel:+212${ORDERS.cancelled.phone.slice(1)}`,
    );
    // One row per event: the platform's answer sits in the send's row; no raw code in a sentence.
    expect(await page.locator('[data-timeline="answered"]').count()).toBe(0);
    expect(await visibleText(page, '[data-timeline="posted"]')).toContain(tr("timeline.text.leadCreated", { ref }));
    const words = await visibleText(page, "main");
    expect(words).not.toMatch(/cod:|shopify:\d|\(#\d+\)|il y a 0 minute/);
    expect(await axeViolations(page)).toEqual([]);
    await docsShot(page, "order-cancelled-phone", { fullPage: true });
  }, 180_000);

  it("is in the Orders list's À traiter, which no column cuts inside the admin frame at 1280 px", async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(new URL(`/?shop=${SHOP}&locale=fr`, preview.url).href, { waitUntil: "load" });
      const app = page.frameLocator("#app");
      await app.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
      // Cash is in the app's menu, as the admin draws it.
      expect(await page.locator("nav #links a").allTextContents()).toContain(tr("nav.cash"));
      await page
        .locator("nav #links a", { hasText: tr("nav.orders") })
        .first()
        .click();
      await app.getByRole("heading", { name: tr("orders.title"), level: 1 }).waitFor({ timeout: 30_000 });
      await app.getByRole("tab", { name: tr("orders.tab.attention") }).click();
      await app.locator(`[data-order="${ORDERS.cancelled.name}"]`).waitFor({ timeout: 30_000 });
      const frame = page.frames().find((f) => new URL(f.url()).pathname === "/app/orders")!;
      expect(await visibleText(frame, `tr:has([data-order="${ORDERS.cancelled.name}"]) [data-attention]`)).toBe(
        tr("attention.mismatch.cancelled"),
      );
      // Its status says cancelled in Shopify, as on its page, not the platform's "Confirmée".
      expect(await visibleText(frame, `tr:has([data-order="${ORDERS.cancelled.name}"]) [data-stage]`)).toBe(
        tr("order.shopify.cancelled"),
      );
      // Every "À traiter" cell lies inside the table's visible width: nothing to scroll to.
      const cut = await frame.evaluate(() => {
        const table = document.querySelector("table")!.closest('[class*="ScrollContainer"]') ?? document.body;
        const right = Math.min(table.getBoundingClientRect().right, document.documentElement.clientWidth);
        return [...document.querySelectorAll('[data-cell="attention"]')]
          .map((cell) => cell.getBoundingClientRect().right)
          .filter((edge) => edge > right + 0.5);
      });
      expect(cut).toEqual([]);
      // Held orders show their amount; the landline's row says 229 MAD.
      expect(await visibleText(frame, `tr:has([data-order="${ORDERS.landline.name}"]) [data-cell="amount"]`)).toBe(
        format.money(22_900),
      );
      expect(await axeViolations(frame)).toEqual([]);
      await docsShot(page, "orders-frame");
    } finally {
      await context.close();
    }
  }, 180_000);
});

describe("held orders and the message to the customer", () => {
  it("shows each held order's amount on a phone, and #9103's WhatsApp message has no hole", async () => {
    const page = phone.page;
    await visit(page, await url("/app/orders?state=held,invalid,failed&mismatch=1"));
    await page.locator(`[data-order="${ORDERS.euros.name}"]`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const row = (name: string) => page.locator("li", { has: page.locator(`[data-order="${name}"]`) });
    expect(await row(ORDERS.landline.name).locator('[data-cell="amount"]').textContent()).toBe(format.money(22_900));
    const whatsapp = (await row(ORDERS.euros.name).locator("[data-contact-whatsapp] a").getAttribute("href"))!;
    const message = new URL(whatsapp).searchParams.get("text")!;
    expect(message).toBe(
      `Bonjour Karima Bennani, nous avons bien reçu votre commande ${ORDERS.euros.name}, à livrer à Marrakech. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !`,
    );
    // The "À traiter" text of each row stays on the phone's screen.
    for (const box of await page
      .locator('[data-cell="attention"]')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});

describe("one definition per figure", () => {
  it("Home, Analytics and the sync ledger say the same of the same orders, each naming its period", async () => {
    // The ledger as a reconciliation pass counts it now (Shopify's side left out: the figures are the app's).
    const { ledgerFigures } = await import("../../app/sync/reconcile/measure.server");
    const now = new Date();
    const figures = await ledgerFigures(server.db, SHOP, now, new Date(now.getTime() - 30 * 86_400_000), {
      day: null,
      week: null,
    });
    await server.db.syncLedger.upsert({
      where: { shop: SHOP },
      create: {
        shop: SHOP,
        coverageFrom: new Date(now.getTime() - 30 * 86_400_000),
        watermark: now,
        lastPassAt: now,
        measuredUntil: now,
        figures: JSON.stringify(figures),
      },
      update: { lastPassAt: now, figures: JSON.stringify(figures) },
    });
    const page = desk.page;
    await visit(page, await url("/app"));
    await page.locator('[data-figure="last30.confirmationRate"]').waitFor();
    const home = {
      todaySent: await visibleText(page, '[data-figure="today.sent"] a'),
      rate: await visibleText(page, '[data-figure="last30.confirmationRate"] a'),
      rateCounts: await visibleText(page, '[data-figure-counts="last30.confirmationRate"]'),
      delivery: await visibleText(page, '[data-figure="last30.deliveryRate"] a'),
      collected: await visibleText(page, '[data-figure="last30.collected"] a'),
    };
    const today = localDay(DEFAULT_TIME_ZONE, now);
    expect(await visibleText(page, '[data-period-days="today"]')).toBe(
      tr("home.period.placedOn", { day: format.dayMonth(today) }),
    );
    // The ledger names its window, and counts the same orders sent as Home's today (all placed in both).
    expect(await visibleText(page, '[data-ledger-window="day"]')).toContain(
      tr("syncLedger.placedSince", { from: "" }).trim(),
    );
    const sentToday = Number(home.todaySent);
    expect(sentToday).toBe(2);
    expect(await visibleText(page, '[data-ledger-breakdown="day"]')).toContain(
      tr("syncLedger.breakdown", { sent: sentToday, held: 2, refused: 0, skipped: 0, cancelled: 0, pending: 0 }).split(
        " · ",
      )[0],
    );
    expect(await axeViolations(page)).toEqual([]);

    // Analytics, the last 30 days: the same rates and money, with the same counts.
    await visit(page, await url("/app/analytics?period=30"));
    await page.locator('[data-figure="confirmationRate"]').waitFor();
    expect(await visibleText(page, '[data-figure="confirmationRate"]')).toBe(home.rate);
    expect(await page.locator('[data-figure="confirmationRate"] span').getAttribute("title")).toBe(home.rateCounts);
    expect(await visibleText(page, '[data-figure="deliveryRate"]')).toBe(home.delivery);
    expect(await visibleText(page, '[data-figure="collected"]')).toBe(home.collected);
    // Analytics for today alone: the orders sent are Home's today.
    await visit(page, await url(`/app/analytics?from=${today}&to=${today}`));
    await page.locator('[data-step-count="sent"]').waitFor();
    expect(await visibleText(page, '[data-step-count="sent"]')).toBe(home.todaySent);
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});

describe("an import of past orders", () => {
  it("asks first with how many, how old and how much, then keeps each order's placed date on Home's chart", async () => {
    const page = desk.page;
    const linksBefore = await server.db.orderLink.count({ where: { shop: SHOP } });
    await visit(page, await url("/app/backfill"));
    // Only a preview at first: nothing is imported before its figures are confirmed.
    expect(await page.getByRole("button", { name: tr("backfill.dryRun") }).count()).toBe(1);
    await page.getByRole("button", { name: tr("backfill.dryRun") }).click();
    const run = page.getByRole("button", { name: tr("backfill.runThisRange") });
    await run.waitFor({ timeout: 60_000 });
    expect(await server.db.orderLink.count({ where: { shop: SHOP } })).toBe(linksBefore);
    const preview = JSON.parse(
      (await server.db.job.findUniqueOrThrow({ where: { key: `backfill:${SHOP}` } })).payload,
    ) as { counts: Record<string, number>; oldestOrderAt: string };
    expect(preview.counts.wouldWait).toBeGreaterThan(0);

    await run.click();
    const modal = page.locator("ui-modal[open]");
    await modal.waitFor();
    const body = await visibleText(page, "ui-modal[open] [data-modal-body]");
    expect(body).toContain(
      tr("bulk.olderWait", {
        count: preview.counts.wouldWait,
        orders: format.integer(preview.counts.wouldWait),
        amount: format.money(preview.counts.wouldWaitCents),
        days: 7,
      }),
    );
    expect(body).toContain(
      tr("backfill.confirm.send", {
        count: preview.counts.wouldSend,
        orders: format.integer(preview.counts.wouldSend),
        amount: format.money(preview.counts.wouldSendCents),
      }),
    );
    expect(body).toContain(tr("backfill.confirm.datesOnly"));
    expect(await axeViolations(page)).toEqual([]);
    await docsShot(page, "import-confirm");
    // Asked, not yet imported.
    expect(await server.db.orderLink.count({ where: { shop: SHOP } })).toBe(linksBefore);
    await modal
      .locator("button", {
        hasText: tr("backfill.confirm.action", {
          count: preview.counts.scanned - preview.counts.alreadySent - preview.counts.alreadyInApp,
        }),
      })
      .click();
    await waitUntil(
      "the import to finish and its orders to settle",
      async () => {
        const job = await server.db.job.findUnique({ where: { key: `backfill:${SHOP}` } });
        if (!job || !JSON.parse(job.payload).finishedAt || JSON.parse(job.payload).dryRun) return false;
        const moving = await server.db.orderLink.count({
          where: { shop: SHOP, importedAt: { not: null }, state: { in: ["received", "posting", "retrying"] } },
        });
        // And the analytics counted them (the worker tells recorded lead events within seconds).
        return moving === 0 && (await server.db.pendingLeadEvent.count()) === 0;
      },
      120_000,
    );

    // Each imported order is dated the day it was placed, and waits for the merchant's word when it is old.
    const imported = await server.db.orderLink.findMany({ where: { shop: SHOP, importedAt: { not: null } } });
    expect(imported.length).toBeGreaterThan(0);
    for (const link of imported) expect(link.createdAt.getTime()).toBe(link.orderCreatedAt!.getTime());
    const old = imported.filter((l) => Date.now() - l.createdAt.getTime() > 8 * 86_400_000);
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((l) => l.state !== "created" && l.state !== "damaged")).toBe(true);

    // Home's chart counts the imported leads on the days they were placed; today counts only today's orders.
    await visit(page, await url("/app"));
    await page.locator("[data-chart-day]").first().waitFor();
    const sentOn = (day: string) =>
      server.db.orderLink.count({
        where: {
          shop: SHOP,
          state: { in: ["created", "damaged"] },
          createdAt: {
            gte: startOfLocalDay(DEFAULT_TIME_ZONE, day),
            lt: startOfLocalDay(DEFAULT_TIME_ZONE, addDays(day, 1)),
          },
        },
      });
    const importedSent = imported.filter((l) => l.state === "created" || l.state === "damaged");
    const today = localDay(DEFAULT_TIME_ZONE, new Date());
    for (const link of importedSent) {
      const day = localDay(DEFAULT_TIME_ZONE, link.createdAt);
      if (day === today) continue;
      expect(Number(await page.locator(`[data-chart-day="${day}"]`).getAttribute("data-chart-total")), day).toBe(
        await sentOn(day),
      );
    }
    expect(await visibleText(page, '[data-figure="today.sent"] a')).toBe(String(await sentOn(today)));
    // The old ones wait in "À faire", to be sent knowingly.
    expect(await page.locator('[data-inbox="stale"]').count()).toBe(1);
    await docsShot(page, "home-after-import", { fullPage: true });

    // An imported order's timeline says when it was placed and that it was imported.
    const sample = imported[0];
    await visit(page, await url(`/app/orders/${sample.id}`));
    await page.locator('[data-timeline="placed"]').waitFor();
    expect(await page.locator('[data-timeline="imported"]').count()).toBe(1);
    expect(await page.locator('[data-timeline="received"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});

describe("Cash", () => {
  it("exports a CSV French Excel reads: ';' between fields, decimal commas, French headers", async () => {
    const page = desk.page;
    await visit(page, await url("/app/cash"));
    const csv = await page.evaluate(() => fetch("/app/cash/export?state=owed&locale=fr").then((r) => r.text()));
    const [header] = csv.split("\r\n");
    expect(header.replace(/^\uFEFF/, "")).toBe(
      [
        "csv.column.order",
        "csv.column.orderId",
        "csv.column.leadRef",
        "csv.column.state",
        "csv.column.deliveredOn",
        "csv.column.paidOn",
        "csv.column.returnedOn",
        "csv.column.daysSinceDelivery",
        "csv.column.amountToCollect",
        "csv.column.profit",
      ]
        .map((key) => tr(key as MessageKey))
        .join(";"),
    );
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});
