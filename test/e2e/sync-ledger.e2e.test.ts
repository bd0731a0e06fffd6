/**
 * The sync ledger in a real browser against the production build: orders through the
 * real pipeline, then the ledger as a week of reconciliation passes leaves it (Shopify's
 * counts against the app's, a pass that took an order in, latency histograms) and an
 * order stuck for an hour. Home shows the card and the alert with links to the orders;
 * Activity shows the whole ledger, the promise term by term, and "Check now" queues a
 * pass; English and French; axe-core finds nothing.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import { openPhoneSession, PHONE, startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { bucketOf, LATENCY_METRICS } from "../../app/sync/reconcile/latency";
import { formatterFor } from "../../app/i18n";
import { DEFAULT_TIME_ZONE } from "../../app/analytics/days";
import { localTime } from "../../app/time-zone";
import { axeViolations } from "../helpers/axe";
import { textsPastScreenEnd } from "../helpers/page-text";

const SHOP = "atlas-beauty.myshopify.com";
const HOUR = 3600_000;
let world: E2EWorld;
let stuckId: string;
let recoveredId: string;
/** When the reconciliation recovered #6001. */
let recoveredAt: Date;

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  const db = world.server.db;
  await world.flow.place([
    { id: 7_300_001, name: "#6001", phone: "0664000001" },
    { id: 7_300_002, name: "#6002", phone: "0664000002", city: "Xyzzyville" },
  ]);
  await world.flow.drain();
  recoveredId = (await db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: "#6001" } })).id;
  // An order that has waited an hour for the platform.
  const since = new Date(Date.now() - HOUR);
  stuckId = (
    await db.orderLink.create({
      data: {
        shop: SHOP,
        orderId: "7300009",
        orderName: "#6009",
        payload: "{}",
        externalRef: "shopify:7300009",
        state: "retrying",
        reason: "The platform is unavailable",
        createdAt: since,
        orderCreatedAt: since,
      },
    })
  ).id;
  // The ledger as the reconciliation leaves it.
  const now = new Date();
  const figures = {
    at: now.toISOString(),
    windows: {
      day: {
        from: new Date(now.getTime() - 24 * HOUR).toISOString(),
        shopify: { count: 41, precision: "EXACT" },
        app: { sent: 30, held: 5, refused: 1, skipped: 3, cancelled: 1, pending: 0, total: 40 },
      },
      week: {
        from: new Date(now.getTime() - 168 * HOUR).toISOString(),
        shopify: { count: 260, precision: "EXACT" },
        app: { sent: 210, held: 20, refused: 5, skipped: 20, cancelled: 5, pending: 0, total: 260 },
      },
    },
  };
  await db.syncLedger.create({
    data: {
      shop: SHOP,
      coverageFrom: new Date(now.getTime() - 30 * 24 * HOUR),
      watermark: now,
      lastPassAt: now,
      measuredUntil: now,
      figures: JSON.stringify(figures),
    },
  });
  recoveredAt = new Date(now.getTime() - 2 * HOUR);
  await db.reconcilePass.create({
    data: {
      shop: SHOP,
      at: recoveredAt,
      scanned: 12,
      recovered: 1,
      orders: JSON.stringify([{ linkId: recoveredId, orderName: "#6001", what: "recovered" }]),
    },
  });
  const hour = new Date(Math.floor((now.getTime() - 3 * HOUR) / HOUR) * HOUR);
  for (const [metric, seconds, count] of [
    [LATENCY_METRICS.orderToLead, 3, 36],
    [LATENCY_METRICS.orderToLead, 40, 2],
    [LATENCY_METRICS.orderToLead, 200, 2],
    [LATENCY_METRICS.statusToShopify, 1, 50],
  ] as const) {
    await db.syncLatency.create({ data: { shop: SHOP, metric, hour, bucket: bucketOf(seconds), count } });
  }
});
afterAll(() => world?.close());

describe("sync ledger", () => {
  let session: EmbeddedSession;
  afterAll(() => session?.close());

  it("shows Home's card and its alert for the stuck order, linked, in English", async () => {
    session = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await world.server.mintToken(SHOP),
    });
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app", { locale: "en" }));
    const card = page.locator('[data-sync-ledger="home"]');
    await card.waitFor();
    expect(await card.getByText("Orders placed in Shopify: 41").count()).toBe(1);
    // (Polaris adds the tone's name for screen readers.)
    expect(await card.locator('[data-accounted="missing"]').textContent()).toMatch(/1 not seen yet$/);
    expect(
      await card.getByText("30 sent · 5 held · 1 refused or failed · 3 skipped · 1 cancelled · 0 in progress").count(),
    ).toBe(1);
    // On the shop's clock, in the reader's format ("Nov 26, 12:41").
    const lastAt = formatterFor("en").dateTime(localTime(recoveredAt, DEFAULT_TIME_ZONE));
    expect(
      await card.getByText(`Recovered by the reconciliation: 1 (last at ${lastAt})`, { exact: true }).count(),
    ).toBe(1);
    // 36 of 40 within 5 s, 38 within 45 s: p50 5 s, p95 45 s.
    expect(await card.getByText("Order to lead: half within 5 s, 95 % within 45 s").count()).toBe(1);
    // 38 of 40 within 60 s is 95 %: kept; all within 6 minutes.
    expect(await card.locator("[data-promise-verdict]").getAttribute("data-promise-verdict")).toBe("kept");
    const alert = page.locator("[data-sync-ledger-alert]");
    expect(await alert.getAttribute("data-sync-ledger-alert")).toBe("1");
    expect(await alert.getByText("1 order has not reached your COD platform for over 30 minutes").count()).toBe(1);
    expect(await alert.getByRole("link", { name: "#6009" }).getAttribute("href")).toContain(`/app/orders/${stuckId}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("shows the whole ledger on Activity, and Check now queues a pass, in French", async () => {
    const fr = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await world.server.mintToken(SHOP),
    });
    try {
      const { page } = fr;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/activity", { locale: "fr" }));
      const section = page.locator('[data-sync-ledger="activity"]');
      await section.waitFor();
      expect(await section.getByRole("heading", { name: "Synchronisation avec Shopify" }).count()).toBe(1);
      const row = (label: string) => section.locator("tr", { hasText: label });
      expect(await row("Commandes passées dans Shopify").locator("td").allTextContents()).toEqual(["41", "260"]);
      expect(await row("Pas encore vues").locator("td").allTextContents()).toEqual([
        "1 pas encore vue",
        "Toutes prises en compte",
      ]);
      expect(await row("Commandes reprises par la réconciliation").locator("td").allTextContents()).toEqual(["1", "1"]);
      expect(await section.getByText("Leads en 60 s : 95 % (promis 95 %)").count()).toBe(1);
      expect(
        await section.locator("[data-ledger-pass]").getByRole("link", { name: "#6001" }).getAttribute("href"),
      ).toContain(`/app/orders/${recoveredId}`);
      expect(await section.locator('[data-stuck-order="#6009"]').textContent()).toMatch(
        /^#6009 : la plateforme ne peut pas encore la prendre depuis 6\d min$/,
      );
      expect(await axeViolations(page)).toEqual([]);

      await section.getByRole("button", { name: "Vérifier maintenant" }).click();
      await expect.poll(() => fr.toasts()).toContain("Une vérification auprès de Shopify a été lancée.");
      const job = await world.server.db.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
      expect(job.state).toBe("pending");
      expect(job.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await fr.close();
    }
  });

  it("GIVEN a phone at 375 px WHEN Activity shows the ledger, the jobs and the calls THEN the jobs and the calls stack one block per row, any other wide table scrolls in a region the keyboard reaches, and axe-core finds nothing", async () => {
    const phone = await openPhoneSession(world, SHOP, "fr");
    try {
      const { page } = phone;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/activity", { locale: "fr" }));
      await page.locator('[data-sync-ledger="activity"]').waitFor();
      // The jobs and the calls, the widest tables, are stacked: a block per row, nothing to scroll sideways.
      await page.locator("ul[data-jobs-table] > li").first().waitFor();
      await page.locator("ul[data-calls-table] > li").first().waitFor();
      expect(await page.locator("table[data-jobs-table], [data-jobs-table] table").count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // The ledger's figures sit beside their labels on the screen: its labels wrap instead of pushing them out of sight.
      expect(await textsPastScreenEnd(page, '[data-sync-ledger="activity"]')).toEqual([]);
      // Any table still wider than the phone scrolls inside a named region the keyboard can reach.
      const regions = await page.locator("table").evaluateAll((tables) =>
        tables.map((table) => {
          const region = table.closest('[role="region"]') as HTMLElement | null;
          return {
            wide: table.scrollWidth > (table.parentElement?.clientWidth ?? 0),
            named: Boolean(region?.getAttribute("aria-label")),
            focusable: region?.tabIndex === 0,
          };
        }),
      );
      expect(regions.filter((r) => r.wide && (!r.named || !r.focusable))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await phone.screenshot("activity-fr-phone");
    } finally {
      await phone.close();
    }
  });
});
