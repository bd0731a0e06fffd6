/**
 * Every page of the app in every language it can show, in a real browser
 * against the production build, on a shop with orders in every state:
 *
 * - French: no string that reads as English (a message of the English
 *   catalogue the French one does not have) and no raw code; English: no French.
 * - The pseudo-locales generated from the English catalogue (PSEUDO_LOCALES):
 *   en-XA (accented, 40 % longer) shows no hard-coded string, no number written
 *   by hand and no label cut short; ar-XB (mirrored) runs right to left, its
 *   title on the right, and no inline style names a physical side.
 * - axe-core finds no violation of any impact, in all four.
 * - On a phone (375 px), in French: no page wider than the screen, no text touching its edge (outside
 *   the edge-to-edge cards), no placeholder cut, and axe-core finds no violation either (a table that
 *   scrolls sideways is a region the keyboard can reach).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CUSTOM_NAMES } from "../../app/ad-platforms/conversion";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sandboxControl, startSandbox, type RunningSandbox } from "../../sandbox/index";
import {
  applyWebhookOrder,
  demoCatalogue,
  demoWorld,
  DEMO_SEED,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { deliverWebhook } from "../../scripts/dev/lib/webhook-signing";
import { connectShop } from "../../scripts/dev/lib/connected-shop";
import { messagesOf, polarisStringsOf, type Locale } from "../../app/i18n";
import { DEFAULT_COD_GATEWAY_PATTERNS } from "../../app/leads/cod";
import { EN_XA_CLOSE, EN_XA_OPEN, PDF, RLO } from "../../app/i18n/pseudo";
import {
  launchBrowser,
  openEmbeddedSession,
  PHONE_UA,
  SCREENSHOT_DIR,
  type EmbeddedSession,
  type SessionOptions,
} from "../helpers/browser";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";
import { hardCodedTexts, languageProblems, vocabulary } from "../helpers/language-check";
import { BUILT_IN_DELIVERIES, redated, waitUntil } from "../helpers/built-in-orders";
import {
  clippedLabels,
  cutPlaceholders,
  headingSide,
  physicalSideStyles,
  readPageText,
  textsAtScreenEdge,
} from "../helpers/page-text";
import { axeViolations } from "../helpers/axe";

const SHOP = "atlas-beauty.myshopify.com";
const FRESH = "rif-market.myshopify.com";
/** Built-in orders covering every state an order page shows: created, held (SKU, phone, currency), with anomalies, skipped, cancelled. */
const ORDERS = ["#1001", "#1012", "#1019", "#1025", "#1028", "#1024", "#1030", "#1036", "#1034"];

let sandbox: RunningSandbox;
let admin: RunningShopifyAdmin;
let server: PreviewServer;
let browser: Browser;
/** Path of each page to check, order pages included once the orders are in. */
const pages: { name: string; path: string; shop?: string }[] = [];
/** The shops' own names (cities, products, payment methods): shown as they are in every language. */
const data: string[] = [...DEFAULT_COD_GATEWAY_PATTERNS];
/**
 * Polaris writes a sortable column's label as "sort {direction} by" and fills
 * {direction} with the English words itself (DataTable, IndexTable): no prop
 * lets the app translate them.
 */
const POLARIS_UNTRANSLATED = [/ascending|descending/];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  admin.shop(SHOP, demoWorld({ nowMs: Date.now(), orders: 40, firstOrderNumber: 1001 - 40 }));
  admin.shop(FRESH, demoWorld({ nowMs: Date.now(), seed: DEMO_SEED + 1, orders: 10 }));
  [server, browser] = await Promise.all([
    startPreviewServer({
      buildDir: inject("previewBuildDir"),
      sellerApiBaseUrl: sandbox.url,
      shops: [SHOP, FRESH],
      env: {
        SHOPIFY_ADMIN_STAND_IN_URL: admin.url,
        WORKER_IN_PROCESS: "true",
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
        PSEUDO_LOCALES: "true",
      },
    }),
    launchBrowser(),
  ]);
  await connectShop(server.db, {
    shop: SHOP,
    apiKey: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
    settings: {
      writeBack: { tags: true, fulfillment: true, markPaid: true, cancel: false },
      customerHold: { enabled: true },
    },
  });
  // Orders in every state, as Shopify sends them.
  for (const d of BUILT_IN_DELIVERIES.filter((d) => ORDERS.includes(String(d.payload.name)))) {
    const body = redated(d.payload);
    if (d.topic === "orders/create") applyWebhookOrder(admin.shop(SHOP), "orders/create", body);
    const answer = await deliverWebhook(server.url, {
      topic: d.topic,
      shop: SHOP,
      secret: PREVIEW_API_SECRET,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    await waitUntil(`${d.payload.name} to settle`, async () => {
      const link = await server.db.orderLink.findFirst({ where: { shop: SHOP, orderId: String(d.payload.id) } });
      return link !== null && !["received", "posting", "retrying"].includes(link.state);
    });
  }
  // A lead the platform moved (status change, write-back) and a customer's data request.
  const created = await server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#1001" } });
  await sandboxControl(sandbox.url).advance(created.leadRef!, { confirmation_status: "confirmed" });
  await server.db.job.updateMany({ where: { key: `sync-statuses:${SHOP}` }, data: { runAt: new Date() } });
  // A pass already running when the change was made settles with its next run minutes away: ask again until read.
  await waitUntil("the status change", async () => {
    await server.db.job.updateMany({
      where: { key: `sync-statuses:${SHOP}`, state: { not: "running" } },
      data: { runAt: new Date() },
    });
    return (
      (await server.db.orderLink.findUniqueOrThrow({ where: { id: created.id } })).confirmationStatus === "confirmed"
    );
  });
  await deliverWebhook(server.url, {
    topic: "customers/data_request",
    shop: SHOP,
    secret: PREVIEW_API_SECRET,
    body: JSON.stringify({
      shop_domain: SHOP,
      customer: { id: 4242, phone: "+212612345601" },
      orders_requested: [Number(created.orderId)],
      data_request: { id: 9 },
    }),
  });
  const row = await server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const named = (json: string | null) =>
    (JSON.parse(json ?? "[]") as { name?: string; variants?: { name?: string }[] }[]).flatMap((x) => [
      x.name ?? "",
      ...(x.variants ?? []).map((v) => v.name ?? ""),
    ]);
  data.push(
    ...named(row.citiesJson),
    ...named(row.catalogueJson),
    ...demoCatalogue().products.flatMap((p) => [p.title, ...p.variants.map((v) => v.title)]),
    // The ad platforms' event names, which the feed's settings quote.
    ...Object.values(CUSTOM_NAMES),
  );
  const links = await server.db.orderLink.findMany({ where: { shop: SHOP }, orderBy: { orderName: "asc" } });
  pages.push(
    { name: "Home", path: "/app" },
    { name: "Orders", path: "/app/orders" },
    ...links.map((l) => ({ name: `Order ${l.orderName} (${l.state})`, path: `/app/orders/${l.id}` })),
    { name: "Anomalies", path: "/app/anomalies" },
    { name: "Analytics", path: "/app/analytics" },
    { name: "Products and cities", path: "/app/mappings?tab=products" },
    { name: "SKU mappings", path: "/app/mappings?tab=skus" },
    { name: "City spellings", path: "/app/mappings?tab=cities" },
    { name: "Import and export", path: "/app/mappings?tab=csv" },
    { name: "Activity", path: "/app/activity" },
    { name: "Import past orders", path: "/app/backfill" },
    { name: "Settings", path: "/app/settings" },
    { name: "Page not found", path: "/app/orders/no-such-order" },
    { name: "A store not connected yet", path: "/app", shop: FRESH },
    { name: "Its Settings", path: "/app/settings", shop: FRESH },
  );
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await admin?.close();
  await sandbox?.close();
});

function flatten(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(flatten);
  return [];
}

const catalogue = (locale: Locale) => [...Object.values(messagesOf(locale)), ...flatten(polarisStringsOf(locale))];
const ENGLISH_WORDS = vocabulary(catalogue("en"));

/** Opens each page in `locale` and hands it to `check`; the failures of every page, by page. */
async function everyPage(
  locale: Locale,
  check: (page: Page) => Promise<string[]>,
  options: SessionOptions & { label?: string } = {},
): Promise<Record<string, string[]>> {
  const label = options.label ?? locale;
  const found: Record<string, string[]> = {};
  const sessions = new Map<string, EmbeddedSession>();
  try {
    for (const { name, path, shop = SHOP } of pages) {
      let session = sessions.get(shop);
      if (!session) {
        session = await openEmbeddedSession(
          browser,
          {
            apiKey: server.apiKey,
            shop,
            locale,
            token: await server.mintToken(shop),
          },
          options,
        );
        sessions.set(shop, session);
      }
      const { page } = session;
      // The server's page and the browser's must agree (a mismatch re-renders the whole document).
      const errors: string[] = [];
      const onConsole = (message: { type(): string; text(): string }) => {
        if (message.type() === "error" && /hydrat|did not match|server rendered/i.test(message.text()))
          errors.push(message.text().slice(0, 300));
      };
      page.on("console", onConsole);
      await page.goto(await server.embeddedUrl(shop, path, { locale }), { waitUntil: "networkidle" });
      await page.waitForFunction(() => "__remixRouter" in window && document.readyState === "complete");
      page.off("console", onConsole);
      const problems = [...errors.map((e) => `hydration: ${e}`), ...(await check(page))];
      if (problems.length) found[name] = problems;
      // For a person to look at: test-results/e2e/languages/<locale>-<page>.png
      mkdirSync(join(SCREENSHOT_DIR, "languages"), { recursive: true });
      await page.screenshot({
        path: join(SCREENSHOT_DIR, "languages", `${label}-${name.replace(/[^\w]+/g, "-").toLowerCase()}.png`),
        fullPage: true,
      });
    }
  } finally {
    for (const session of sessions.values()) await session.close();
  }
  // The whole list, as the assertion's diff may shorten it.
  if (Object.keys(found).length > 0) console.error(`[${label}] ${JSON.stringify(found, null, 2)}`);
  return found;
}

// The four languages and the phone walk at once, each in its own browser context: a page's wait for the
// network to go idle is mostly idle time, which the others' pages fill. Each walks every
// page sharing the CPU with the three others, so its bound is the whole walk's on a busy machine.
const WALK_BOUND_MS = 900_000;

describe.concurrent("every page", () => {
  it(
    "is entirely in French for a French admin: no English, no raw code, no axe violation",
    async ({ expect }) => {
      const own = catalogue("fr");
      const other = catalogue("en");
      const found = await everyPage("fr", async (page) => {
        const { lang, texts, attributes } = await readPageText(page);
        return [
          ...(lang === "fr" ? [] : [`<html lang="${lang}">`]),
          ...languageProblems([...texts, ...attributes], { own, other }).map((p) => `${p.text} — ${p.why}`),
          ...(await axeViolations(page, { rules: "all" })),
        ];
      });
      expect(found).toEqual({});
    },
    WALK_BOUND_MS,
  );

  it(
    "on a phone (375 px) in French is no wider than the screen, no text touches its edge, no placeholder is cut, and every table scrolls by keyboard: no axe violation",
    async ({ expect }) => {
      const width = 375;
      const found = await everyPage(
        "fr",
        async (page) => {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          return [
            ...(wide > width ? [`the page is ${wide} px wide`] : []),
            ...(await textsAtScreenEdge(page)).map((text) => `touches the screen's edge: ${text}`),
            ...(await cutPlaceholders(page)).map((text) => `placeholder cut: ${text}`),
            ...(await axeViolations(page, { rules: "all" })),
          ];
        },
        { viewport: { width, height: 812 }, userAgent: PHONE_UA, label: "fr-phone" },
      );
      expect(found).toEqual({});
    },
    WALK_BOUND_MS,
  );

  it(
    "is entirely in English for an English admin: no French, no raw code, no axe violation",
    async ({ expect }) => {
      const own = catalogue("en");
      const other = catalogue("fr");
      const found = await everyPage("en", async (page) => {
        const { texts, attributes } = await readPageText(page);
        return [
          ...languageProblems([...texts, ...attributes], { own, other }).map((p) => `${p.text} — ${p.why}`),
          ...(await axeViolations(page, { rules: "all" })),
        ];
      });
      expect(found).toEqual({});
    },
    WALK_BOUND_MS,
  );

  it(
    "in en-XA shows no hard-coded string, no hand-written number and no label cut short",
    async ({ expect }) => {
      const unmarked = (text: string) => text.replace(/⟦[^⟦⟧]*⟧?/g, " ");
      const found = await everyPage("en-XA", async (page) => {
        const { texts, attributes } = await readPageText(page);
        return [
          ...hardCodedTexts([...texts, ...attributes], {
            english: ENGLISH_WORDS,
            unmarked,
            data,
            allow: POLARIS_UNTRANSLATED,
          }).map((p) => `${p.text} — ${p.why}`),
          ...(await clippedLabels(page, EN_XA_OPEN, EN_XA_CLOSE)).map((label) => `cut short: ${label}`),
          ...(await axeViolations(page, { rules: "all" })),
        ];
      });
      expect(found).toEqual({});
    },
    WALK_BOUND_MS,
  );

  it(
    "in ar-XB runs right to left, title on the right, no hard-coded string, no physical side",
    async ({ expect }) => {
      const unmarked = (text: string) => text.replace(new RegExp(`${RLO}[^${PDF}]*${PDF}`, "g"), " ");
      const found = await everyPage("ar-XB", async (page) => {
        const { dir, texts, attributes } = await readPageText(page);
        const side = await headingSide(page);
        return [
          ...(dir === "rtl" ? [] : [`<html dir="${dir}">`]),
          ...(side === "left" ? ["the page's title is on the left"] : []),
          ...hardCodedTexts([...texts, ...attributes], {
            english: ENGLISH_WORDS,
            unmarked,
            data,
            allow: POLARIS_UNTRANSLATED,
          }).map((p) => `${p.text} — ${p.why}`),
          ...(await physicalSideStyles(page)).map((style) => `physical side in style="${style}"`),
          ...(await axeViolations(page, { rules: "all" })),
        ];
      });
      expect(found).toEqual({});
    },
    WALK_BOUND_MS,
  );
});
