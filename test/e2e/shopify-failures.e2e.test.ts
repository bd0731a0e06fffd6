/**
 * Shopify failing under the admin pages, in a real browser against the production build:
 * the build's Admin API calls go to the Shopify Admin stand-in (the server's preload,
 * SHOPIFY_ADMIN_STAND_IN_URL), whose control API injects each failure: a refused
 * connection, a slow answer, a 5xx, THROTTLED, a 401. Mappings (Products tab), Backfill
 * (its job runs in the server's worker) and the order page each show a critical banner
 * naming what failed, in English and French, pass axe-core in that state, and recover on
 * "Try again" once Shopify does. A walk of every admin page shows no error screen.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../sandbox/index";
import {
  shopifyAdminControl,
  startShopifyAdmin,
  type FaultInput,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { launchBrowser, openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";
import { visit } from "../helpers/e2e-pipeline";
import { t } from "../../app/i18n";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const ORDER_ID = 6_100_000_321;

let sandbox: RunningSandbox;
let standIn: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;
let server: PreviewServer;
let browser: Browser;
let linkId: string;

beforeAll(async () => {
  [sandbox, standIn, browser] = await Promise.all([
    startSandbox({ port: 0, quiet: true }),
    startShopifyAdmin({
      quiet: true,
      app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
    }),
    launchBrowser(),
  ]);
  control = shopifyAdminControl(standIn.url);
  server = await startPreviewServer({
    buildDir: inject("previewBuildDir"),
    sellerApiBaseUrl: sandbox.url,
    shops: [SHOP],
    // The worker runs in the server, as in production: the backfill job meets Shopify there.
    env: { SHOPIFY_ADMIN_STAND_IN_URL: standIn.url, WORKER_IN_PROCESS: "true" },
  });
  await server.db.shop.create({ data: { domain: SHOP } });
  linkId = (
    await server.db.orderLink.create({
      data: {
        shop: SHOP,
        orderId: String(ORDER_ID),
        orderName: "#1321",
        payload: "{}",
        externalRef: `shopify:${ORDER_ID}`,
        state: "created",
        leadRef: "ATB-9",
      },
    })
  ).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await standIn?.close();
  await sandbox?.close();
});

async function resetShopify() {
  await control.clearFaults();
  await control.clearCalls();
  await control.loadShop(SHOP, {
    variants: [
      { id: 501, sku: "ARG-OIL-50", title: "50 ml", productId: 50, productTitle: "Huile d'argan" },
      { id: 502, sku: "AMLOU-250", title: "250 g", productId: 51, productTitle: "Amlou" },
    ],
    orders: [{ id: ORDER_ID, name: "#1321", tags: ["cod-lead-sync"], lines: [{ sku: "ARG-OIL-50", quantity: 1 }] }],
  });
}

/** The banner's title and visible text, and nothing of Shopify's own answer anywhere on the page. */
async function bannerText(page: Page): Promise<string> {
  const banner = page.locator("[data-shopify-failure]").first();
  await banner.waitFor({ timeout: 60_000 });
  const body = await page.locator("body").innerText();
  expect(body).not.toMatch(/Application Error|Service Unavailable|Invalid API key|Throttled/);
  return (await banner.innerText()).trim();
}

interface FailureCase {
  name: string;
  fault: Omit<FaultInput, "shop" | "operation">;
  title: (what: string) => string;
}

const CASES: FailureCase[] = [
  {
    name: "refused connection",
    fault: { kind: "refuse", times: null },
    title: (what) => `Shopify could not be reached while ${what}`,
  },
  {
    name: "HTTP 503",
    fault: { kind: "http_error", status: 503, times: null },
    title: (what) => `Shopify had a server error while ${what}`,
  },
  {
    name: "THROTTLED after the page's waits",
    fault: { kind: "throttled", times: null },
    title: (what) => `Shopify is busy (too many requests) while ${what}`,
  },
  {
    name: "HTTP 401",
    fault: { kind: "unauthorized", times: null },
    title: (what) => `Shopify refused the app's access while ${what}`,
  },
  {
    name: "no answer in time",
    fault: { kind: "slow", delayMs: 8_000, times: null },
    title: (what) => `Shopify did not answer in time while ${what}`,
  },
];

/** Injects the failure, opens the page, checks the banner, then lets Shopify recover and clicks Try again. */
async function failAndRecover(
  page: Page,
  options: {
    path: string;
    operation: string;
    failure: FailureCase;
    what: string;
    locale?: string;
    recovered: (page: Page) => Promise<void>;
  },
) {
  await resetShopify();
  await control.addFault({ ...options.failure.fault, shop: SHOP, operation: options.operation });
  await visit(page, await server.embeddedUrl(SHOP, options.path, { locale: options.locale ?? "en" }));
  expect(await bannerText(page)).toContain(options.failure.title(options.what));

  await control.clearFaults();
  await page.getByRole("button", { name: "Try again" }).first().click();
  await options.recovered(page);
  expect(await page.locator("[data-shopify-failure]").count()).toBe(0);
}

describe("in English", () => {
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

  it.each(CASES)("Mappings, Products tab: $name shows the banner and Try again lists the variants", async (failure) => {
    await failAndRecover(session.page, {
      path: "/app/mappings",
      operation: "ProductVariantsPage",
      failure,
      what: "loading your products",
      recovered: (page) =>
        page.getByText("Huile d'argan - 50 ml").or(page.getByText("ARG-OIL-50")).first().waitFor({ timeout: 60_000 }),
    });
  });

  it.each(CASES)(
    "order page: $name shows the banner in the Shopify card, the rest of the order, and Try again shows Shopify's state",
    async (failure) => {
      await failAndRecover(session.page, {
        path: `/app/orders/${linkId}`,
        operation: "OrderShopifyStatus",
        failure,
        what: "loading this order from Shopify",
        recovered: (page) => page.getByText("cod-lead-sync", { exact: true }).waitFor({ timeout: 60_000 }),
      });
      await session.page.getByRole("heading", { name: /#1321/, level: 1 }).waitFor();
    },
  );

  // A backfill job waits up to 30 s for Shopify (jobs have a longer limit than pages): the slow case is covered
  // by the job's own tests, not here.
  it.each(CASES.filter((c) => c.fault.kind !== "slow" && c.fault.kind !== "throttled"))(
    "Backfill: $name stops the job, the page says what failed, and Try again runs it to the end",
    async (failure) => {
      const { page } = session;
      await server.db.job.deleteMany({ where: { kind: "backfill" } });
      await resetShopify();
      await control.addFault({ ...failure.fault, shop: SHOP, operation: "OrdersPage" });
      await visit(page, await server.embeddedUrl(SHOP, "/app/backfill", { locale: "en" }));
      await page.getByRole("button", { name: t("en", "backfill.dryRun"), exact: true }).click();
      // The server's worker runs the job; the page polls its state.
      expect(await bannerText(page)).toContain(failure.title(t("en", "shopifyError.what.backfillOrders")));

      await control.clearFaults();
      await page.getByRole("button", { name: "Try again" }).click();
      await page.getByText(/^Finished /).waitFor({ timeout: 60_000 });
      expect(await page.locator("[data-shopify-failure]").count()).toBe(0);
    },
  );

  it("a throttled backfill page is a wait the job reschedules itself, not a failure", async () => {
    const { page } = session;
    await server.db.job.deleteMany({ where: { kind: "backfill" } });
    await resetShopify();
    await control.addFault({ kind: "throttled", shop: SHOP, operation: "OrdersPage", times: 1 });
    await visit(page, await server.embeddedUrl(SHOP, "/app/backfill", { locale: "en" }));
    await page.getByRole("button", { name: t("en", "backfill.dryRun"), exact: true }).click();
    await page.getByText(/^Finished /).waitFor({ timeout: 60_000 });
    expect(await page.locator("[data-shopify-failure]").count()).toBe(0);
    const calls = await control.calls({ shop: SHOP, operation: "OrdersPage" });
    expect([calls[0].throttled, calls.at(-1)?.throttled]).toEqual([true, false]);
  });

  it("the banner state passes axe-core", async () => {
    const { page } = session;
    await resetShopify();
    await control.addFault({ kind: "http_error", status: 503, shop: SHOP, times: null });
    await visit(page, await server.embeddedUrl(SHOP, "/app/mappings", { locale: "en" }));
    await bannerText(page);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    expect(await page.title()).toBe(`${t("en", "mappings.title")} · COD Lead Sync`);
    await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${linkId}`, { locale: "en" }));
    await bannerText(page);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    expect(await page.title()).toBe("Order #1321 · COD Lead Sync");
    await control.clearFaults();
  });
});

describe("en français", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
  });
  afterAll(() => session?.close());

  it("Correspondances et commande : le bandeau dit ce qui a échoué, passe axe-core, et Réessayer rétablit la page", async () => {
    const { page } = session;
    await resetShopify();
    await control.addFault({ kind: "refuse", shop: SHOP, operation: "ProductVariantsPage", times: null });
    await visit(page, await server.embeddedUrl(SHOP, "/app/mappings", { locale: "fr" }));
    expect(await bannerText(page)).toContain("Shopify était injoignable pendant le chargement de vos produits");
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await control.clearFaults();
    await page.getByRole("button", { name: "Réessayer" }).click();
    await page.getByText("ARG-OIL-50").first().waitFor({ timeout: 60_000 });

    await control.addFault({ kind: "slow", delayMs: 8_000, shop: SHOP, operation: "OrderShopifyStatus", times: null });
    await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${linkId}`, { locale: "fr" }));
    expect(await bannerText(page)).toContain(
      "Shopify n'a pas répondu à temps pendant le chargement de cette commande depuis Shopify",
    );
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await control.clearFaults();
    await page.getByRole("button", { name: "Réessayer" }).click();
    await page.getByText("cod-lead-sync", { exact: true }).waitFor({ timeout: 60_000 });
  });

  it("Reprise : une erreur 401 arrête la tâche, le bandeau le dit, et Réessayer la mène au bout", async () => {
    const { page } = session;
    await server.db.job.deleteMany({ where: { kind: "backfill" } });
    await resetShopify();
    await control.addFault({ kind: "unauthorized", shop: SHOP, operation: "OrdersPage", times: null });
    await visit(page, await server.embeddedUrl(SHOP, "/app/backfill", { locale: "fr" }));
    await page.getByRole("button", { name: t("fr", "backfill.dryRun"), exact: true }).click();
    expect(await bannerText(page)).toContain(
      "Shopify a refusé l'accès de l'application pendant la lecture de vos commandes pour l'import",
    );
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await control.clearFaults();
    await page.getByRole("button", { name: "Réessayer" }).click();
    await page.getByText(/^Terminé le /).waitFor({ timeout: 60_000 });
  });
});

describe("a walk of every admin page", () => {
  it("shows no error screen, in either language", async () => {
    await resetShopify();
    for (const locale of ["en", "fr"]) {
      const session = await openEmbeddedSession(browser, {
        apiKey: server.apiKey,
        shop: SHOP,
        locale,
        token: await server.mintToken(SHOP),
      });
      try {
        for (const path of [
          "/app",
          "/app/orders",
          `/app/orders/${linkId}`,
          "/app/anomalies",
          "/app/mappings",
          "/app/mappings?tab=skus",
          "/app/mappings?tab=cities",
          "/app/mappings?tab=csv",
          "/app/activity",
          "/app/backfill",
          "/app/settings",
        ]) {
          await visit(session.page, await server.embeddedUrl(SHOP, path, { locale }));
          const text = await session.page.locator("body").innerText();
          expect(text, path).not.toMatch(/Application Error|Unexpected Server Error/);
          expect(await session.page.locator("[data-error-failure]").count(), path).toBe(0);
          expect(await session.page.locator("h1").count(), path).toBeGreaterThan(0);
        }
      } finally {
        await session.close();
      }
    }
  }, 120_000);
});

describe("an unexpected failure", () => {
  it("is a Polaris page with a reference the server logged, never Application Error nor the error's text", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
    // The order page's timeline cannot be read: its loader throws a database error.
    await server.db.$executeRawUnsafe(`ALTER TABLE "TimelineEvent" RENAME TO "TimelineEvent_away"`);
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${linkId}`, { locale: "fr" }));
      const reference = await page
        .locator("[data-error-reference]")
        .getAttribute("data-error-reference", { timeout: 60_000 });
      expect(reference).toMatch(/^[0-9a-f]{8}$/);
      const body = await page.locator("body").innerText();
      // What failed (showing the page), what it means (nothing changed), the reference; the navigation stays.
      expect(body).toContain(t("fr", "errorPage.load.title"));
      expect(body).toContain(t("fr", "errorPage.load.body", { page: t("fr", "nav.orders") }));
      expect(body).toContain(`donnez cette référence au support : ${reference}`);
      expect(await page.locator("ui-nav-menu a").count()).toBeGreaterThan(5);
      expect(body).not.toMatch(/Application Error|TimelineEvent|prisma|postgres|does not exist/i);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await expect.poll(() => server.output()).toContain(`[error ${reference}] GET /app/orders/${linkId} failed:`);
    } finally {
      await server.db.$executeRawUnsafe(`ALTER TABLE "TimelineEvent_away" RENAME TO "TimelineEvent"`);
      await session.close();
    }
  });

  it("after a failed save says the change was not saved, how to check, and keeps the app's navigation", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await server.mintToken(SHOP),
    });
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, `/app/orders/${linkId}`, { locale: "fr" }));
      // Sending the order again queues a job: its table cannot be written.
      await server.db.$executeRawUnsafe(`ALTER TABLE "Job" RENAME TO "Job_away"`);
      await page
        .getByRole("button", { name: t("fr", "order.resend") })
        .first()
        .click();
      // Its lead exists: sending again asks first, and the merchant confirms the second lead.
      await page
        .getByRole("dialog")
        .getByRole("button", { name: t("fr", "order.secondLead.confirm") })
        .click();
      const reference = await page
        .locator("[data-error-reference]")
        .getAttribute("data-error-reference", { timeout: 60_000 });
      expect(await page.locator("[data-error-failure]").getAttribute("data-error-failure")).toBe("save");
      const body = await page.locator("body").innerText();
      expect(body).toContain(t("fr", "errorPage.save.title"));
      expect(body).toContain(t("fr", "errorPage.save.body", { page: t("fr", "nav.orders") }));
      expect(body).not.toContain(t("fr", "errorPage.load.body", { page: t("fr", "nav.orders") }));
      expect(await page.getByRole("button", { name: t("fr", "errorPage.save.reload") }).isVisible()).toBe(true);
      expect(await page.locator("ui-nav-menu a").count()).toBeGreaterThan(5);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await expect.poll(() => server.output()).toContain(`[error ${reference}] POST /app/orders/${linkId} failed:`);
    } finally {
      await server.db.$executeRawUnsafe(`ALTER TABLE "Job_away" RENAME TO "Job"`);
      await session.close();
    }
  });

  it("on a page whose loader is not wrapped, is still the Polaris page (the app layout's boundary), with a reference", async () => {
    const session = await openEmbeddedSession(browser, {
      apiKey: server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await server.mintToken(SHOP),
    });
    // Activity reads the API call log: its loader throws a database error.
    await server.db.$executeRawUnsafe(`ALTER TABLE "ApiCall" RENAME TO "ApiCall_away"`);
    try {
      const { page } = session;
      await visit(page, await server.embeddedUrl(SHOP, "/app/activity", { locale: "en" }));
      const reference = await page
        .locator("[data-error-reference]")
        .getAttribute("data-error-reference", { timeout: 60_000 });
      expect(reference).toMatch(/^[0-9a-f]{8}$/);
      const body = await page.locator("body").innerText();
      expect(body).toContain(t("en", "errorPage.load.title"));
      expect(body).not.toMatch(/Application Error|ApiCall|prisma|postgres|does not exist/i);
      expect(await page.title()).toBe(`${t("en", "errorPage.load.title")} · COD Lead Sync`);
      expect(await page.locator("ui-nav-menu a").count()).toBeGreaterThan(5);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    } finally {
      await server.db.$executeRawUnsafe(`ALTER TABLE "ApiCall_away" RENAME TO "ApiCall"`);
      await session.close();
    }
  });
});
