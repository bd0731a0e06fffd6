/**
 * Cash in a real browser against the production build, on the demo's shop: its
 * sixty days of history (parcels owed, paid, never paid, returned) and orders
 * moved through the real pipeline and sandbox (one delivered, one paid by the
 * platform). Home's card and overdue alert, the cash list and its CSV, and the
 * Analytics key figures with their change, in English (the default MAD) and in
 * French with the shop's choice of DH; axe-core
 * finds nothing of any impact on these pages. UPDATE_DOCS_SCREENSHOTS=1 refreshes
 * the README's pictures of Home and Analytics (docs/).
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sandboxControl } from "../../sandbox/index";
import { openEmbeddedSession, type EmbeddedSession } from "../helpers/browser";
import { openPhoneSession, PHONE, startE2EWorld, visit, type E2EWorld } from "../helpers/e2e-pipeline";
import { seedDemoHistory } from "../../scripts/dev/demo/history";
import { signedCents } from "../../app/analytics/contribution";
import { loadCashOverview } from "../../app/analytics/cash-report.server";
import { loadAnalytics } from "../../app/analytics/report.server";
import { formatterFor, t, type MessageKey } from "../../app/i18n";
import { axeViolations } from "../helpers/axe";
import { textsPastScreenEnd } from "../helpers/page-text";

const SHOP = "atlas-beauty.myshopify.com";
const DOCS = join(import.meta.dirname, "..", "..", "docs");

let world: E2EWorld;
/** Money as the pages write it: English in the default MAD, French once the shop chose DH. */
const en = formatterFor("en");
const frDh = formatterFor("fr", { currency: "DH" });

/** The docs' copy of a screenshot, when asked to refresh them. */
async function docsShot(session: EmbeddedSession, name: string, file: string) {
  const shot = await session.screenshot(name);
  if (process.env.UPDATE_DOCS_SCREENSHOTS === "1") copyFileSync(shot, join(DOCS, file));
}

/** What the platform owes, counted from the order rows alone (not the ledger): delivered parcels' seller profit. */
async function owedFromOrderRows(): Promise<{ parcels: number; profitCents: number }> {
  const links = await world.server.db.orderLink.findMany({
    where: { shop: SHOP, state: { in: ["created", "damaged"] }, shippingStatus: "delivered" },
  });
  return { parcels: links.length, profitCents: links.reduce((s, l) => s + signedCents(l.sellerProfit), 0) };
}

beforeAll(async () => {
  world = await startE2EWorld(SHOP, inject("previewBuildDir"));
  await seedDemoHistory(world.server.db, SHOP);
  const { flow, sandbox } = world;
  await flow.place([
    { id: 7_300_001, name: "#6001", phone: "0664000001", city: "Casablanca" },
    { id: 7_300_002, name: "#6002", phone: "0664000002", city: "Rabat" },
  ]);
  await flow.drain();
  const control = sandboxControl(sandbox.url);
  await control.config({ autopilot: false });
  const refOf = async (name: string) =>
    (await world.server.db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderName: name } })).leadRef!;
  for (const name of ["#6001", "#6002"]) {
    const ref = await refOf(name);
    await control.advance(ref, { confirmation_status: "confirmed" });
    await control.advance(ref, { shipping_status: "picked_up" });
    await control.advance(ref, { shipping_status: "shipped" });
    await control.advance(ref, { shipping_status: "delivered" });
  }
  await control.advance(await refOf("#6002"), { shipping_status: "paid" });
  // One cycle: the list says delivered and paid, the details bring the seller profits.
  await flow.sync();
});
afterAll(() => world?.close());

describe("cash in English", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    session = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "en",
      token: await world.server.mintToken(SHOP),
    });
  });
  afterAll(() => session?.close());

  it("Home says what the platform owes and for how long, and alerts on parcels unpaid past the threshold", async () => {
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app", { locale: "en" }));
    const cash = await loadCashOverview(world.server.db, SHOP);
    // The ledger agrees with the order rows, the pipeline's delivered parcel #6001 included.
    expect({ parcels: cash.owed.parcels, profitCents: cash.owed.profitCents }).toEqual(await owedFromOrderRows());
    expect(
      await world.server.db.cashParcel.findFirst({
        where: { shop: SHOP, orderName: "#6001" },
        select: { state: true },
      }),
    ).toEqual({ state: "owed" });
    expect(
      await world.server.db.cashParcel.findFirst({
        where: { shop: SHOP, orderName: "#6002" },
        select: { state: true },
      }),
    ).toEqual({ state: "paid" });

    const card = page.locator("[data-cash-card]");
    await card.waitFor();
    expect(await card.locator('[data-cash="owed"]').textContent()).toBe(
      `Owed by the platform: ${en.money(cash.owed.profitCents, { whole: true })}`,
    );
    // The card's "of which" and the alert below name the same parcels, in the same words.
    expect(await card.locator('[data-cash="overdue"]').textContent()).toBe(
      `of which ${en.money(cash.overdue.profitCents, { whole: true })} overdue (delivered more than 14 days ago)`,
    );

    const alert = page.locator('[data-cash-alert="overdue"]');
    expect(cash.overdue.parcels).toBeGreaterThan(0);
    expect(
      await alert
        .getByText(
          `Payment overdue: ${cash.overdue.parcels} parcel${cash.overdue.parcels === 1 ? "" : "s"} delivered more than 14 days ago`,
        )
        .isVisible(),
    ).toBe(true);
    expect(
      await alert
        .getByText(`The platform owes you ${en.money(cash.overdue.profitCents, { whole: true })} for them.`, {
          exact: false,
        })
        .isVisible(),
    ).toBe(true);
    expect(
      await axeViolations(page, { within: ["[data-cash-card]", '[data-cash-alert="overdue"]'], rules: "all" }),
    ).toEqual([]);
    await docsShot(session, "home-cash-en", "home.png");

    // The alert's action opens the overdue parcels.
    await alert.getByRole("link", { name: "See the overdue parcels" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("minAge")).toBe("15");
    await page.getByRole("heading", { name: "Cash", level: 1 }).waitFor();
    expect(await page.locator("[data-parcel]").count()).toBe(Math.min(50, cash.overdue.parcels));
    expect(await page.locator("[data-cash-count]").textContent()).toBe(
      `${cash.overdue.parcels} parcel${cash.overdue.parcels === 1 ? "" : "s"}`,
    );
  });

  it("the cash list shows each view and downloads it as CSV", async () => {
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app/cash", { locale: "en" }));
    await page.getByRole("heading", { name: "Cash", level: 1 }).waitFor();
    const cash = await loadCashOverview(world.server.db, SHOP);
    expect(await page.locator('[data-cash-total="owed"]').textContent()).toBe(
      `Owed by the platform: ${en.money(cash.owed.profitCents, { whole: true })}`,
    );
    // Oldest delivery first: the first row has waited longest.
    const ages = (await page.locator('[data-cash-table="owed"] tbody tr td:nth-child(4)').allTextContents()).map((a) =>
      Number.parseInt(a, 10),
    );
    expect(ages.length).toBeGreaterThan(1);
    expect([...ages].sort((a, b) => b - a)).toEqual(ages);
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("cash-list-en");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export these parcels (CSV)" }).click(),
    ]);
    const [header, ...rows] = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\r\n");
    // Headers and states in the reader's words (the BOM before them went with trim()).
    expect(header).toBe(
      "Order,Shopify order id,Lead,State,Delivered on,Paid on,Returned on,Days since delivery,Amount to collect (MAD),Seller profit (MAD)",
    );
    expect(rows).toHaveLength(cash.owed.parcels);
    expect(rows.every((r) => r.split(",")[3] === t("en", "csv.state.owed"))).toBe(true);
    expect(rows.some((r) => r.startsWith("#6001,"))).toBe(true);

    // The paid parcels: #6002 among them, paid today.
    await page.getByRole("button", { name: "Paid", exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("state")).toBe("paid");
    await page.locator('[data-cash-table="paid"]').waitFor();
    expect(await page.locator('[data-parcel="#6002"]').count()).toBe(1);
  });

  it("Analytics puts money first: key figures with their change against the previous period", async () => {
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=30", { locale: "en" }));
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    const report = await loadAnalytics(world.server.db, SHOP, new URLSearchParams("period=30"));
    expect(await page.locator('[data-figure="collected"]').textContent()).toBe(en.money(report.current.collectedCents));
    expect(await page.locator('[data-figure="owed"]').textContent()).toBe(
      en.money(report.cash.current.owedAtEnd.profitCents, { whole: true }),
    );
    expect(await page.locator('[data-previous="owed"]').textContent()).toBe(
      `against ${en.money(report.cash.previous.owedAtEnd.profitCents, { whole: true })} in the previous period`,
    );
    // A shop growing month on month: more collected than the month before, said with an arrow and a percentage.
    expect(report.current.collectedCents).toBeGreaterThan(report.previous.collectedCents);
    const growth =
      ((report.current.collectedCents - report.previous.collectedCents) / report.previous.collectedCents) * 100;
    expect(await page.locator('[data-change="collected"]').textContent()).toBe(
      `↑ ${(Math.round(growth * 10) / 10).toFixed(1).replace(/\.0$/, "")}%`,
    );
    for (const id of ["profit", "confirmationRate", "deliveryRate", "returnRate"]) {
      expect(await page.locator(`[data-change="${id}"]`).textContent(), id).toMatch(
        /^(↑|↓) \d+(\.\d)?( pts|%)$|^No change$/,
      );
    }
    expect(await page.locator('[data-figure="confirmationRate"] span').getAttribute("title")).toBe(
      `${report.current.confirmationRate.part} confirmed of ${report.current.confirmationRate.whole} sent`,
    );
    // The funnel drawn, widest first; the weeks named; the period's cash.
    const widths = await page
      .locator("[data-funnel-bar]")
      .evaluateAll((bars) => bars.map((b) => b.getBoundingClientRect().width));
    expect(widths).toHaveLength(5);
    expect([...widths].sort((a, b) => b - a)).toEqual(widths);
    expect(await page.locator("[data-week]").first().textContent()).toMatch(
      /^W\d{1,2} · \d{1,2}(-\d{1,2} [A-Z][a-z]{2}| [A-Z][a-z]{2}-\d{1,2} [A-Z][a-z]{2})$/,
    );
    expect(await page.locator('[data-cash-period="paid"]').textContent()).toBe(
      `Paid by the platform in this period: ${en.money(report.cash.current.paid.profitCents, { whole: true })}`,
    );
    await page.locator('[data-chart="collected"] svg').first().waitFor();
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await docsShot(session, "analytics-cash-en", "analytics.png");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export the cash ledger (CSV)" }).click(),
    ]);
    const rows = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\r\n")
      .slice(1);
    expect(rows.length).toBeGreaterThan(50);
    expect(new Set(rows.map((r) => r.split(",")[3]))).toEqual(
      new Set(["owed", "paid", "returned"].map((state) => t("en", `csv.state.${state}` as MessageKey))),
    );
  });
});

describe("cash in French", () => {
  let session: EmbeddedSession;
  beforeAll(async () => {
    // The shop writes dirhams as DH (Settings): every amount follows, the cash pages' included.
    const shop = await world.server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    await world.server.db.shop.update({
      where: { domain: SHOP },
      data: { settings: JSON.stringify({ ...JSON.parse(shop.settings), currencyLabel: "DH" }) },
    });
    session = await openEmbeddedSession(world.browser, {
      apiKey: world.server.apiKey,
      shop: SHOP,
      locale: "fr",
      token: await world.server.mintToken(SHOP),
    });
  });
  afterAll(() => session?.close());

  it("Home, the alert and the cash list read in French, in DH", async () => {
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app", { locale: "fr" }));
    const cash = await loadCashOverview(world.server.db, SHOP);
    const card = page.locator("[data-cash-card]");
    await card.waitFor();
    expect(await card.locator('[data-cash="owed"]').textContent()).toBe(
      `Dû par la plateforme : ${frDh.money(cash.owed.profitCents, { whole: true })}`,
    );
    expect(await card.locator('[data-cash="overdue"]').textContent()).toBe(
      `dont ${frDh.money(cash.overdue.profitCents, { whole: true })} en retard (livrés il y a plus de 14 jours)`,
    );
    const alert = page.locator('[data-cash-alert="overdue"]');
    expect(
      await alert
        .getByText(
          `Paiement en retard : ${cash.overdue.parcels} colis livré${cash.overdue.parcels < 2 ? "" : "s"} il y a plus de 14 jours`,
        )
        .isVisible(),
    ).toBe(true);
    expect(
      await axeViolations(page, { within: ["[data-cash-card]", '[data-cash-alert="overdue"]'], rules: "all" }),
    ).toEqual([]);
    await session.screenshot("home-cash-fr");

    await card.getByRole("link", { name: "Voir les colis en retard" }).click();
    await page.getByRole("heading", { name: "Encaissements", level: 1 }).waitFor();
    expect(await page.locator("[data-cash-count]").textContent()).toBe(`${cash.overdue.parcels} colis`);
    // The list names its window as the alert and the card do.
    expect(await page.locator("p", { has: page.locator("[data-cash-count]") }).textContent()).toBe(
      `${cash.overdue.parcels} colis · Livrés il y a plus de 14 jours`,
    );
    expect(await page.locator('[data-cash-table="owed"] th').first().textContent()).toBe("Commande");
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("cash-list-fr");
  });

  it("GIVEN a phone at 375 px WHEN the merchant reads the cash page in French THEN its headline and age bands are whole dirhams alike, nothing wider than the screen", async () => {
    const phone = await openPhoneSession(world, SHOP, "fr");
    try {
      const { page } = phone;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/cash", { locale: "fr" }));
      await page.getByRole("heading", { name: "Encaissements", level: 1 }).waitFor();
      const cash = await loadCashOverview(world.server.db, SHOP);
      // The demo's seller profits carry centimes: the totals read rounded, as the whole amounts beside them.
      expect(cash.owed.profitCents % 100).not.toBe(0);
      expect(await page.locator('[data-cash-total="owed"]').textContent()).toBe(
        `Dû par la plateforme : ${frDh.money(cash.owed.profitCents, { whole: true })}`,
      );
      const bands = await page.locator("[data-age-band]").allTextContents();
      expect(bands).toHaveLength(4);
      for (const text of [await page.locator('[data-cash-total="owed"]').textContent(), ...bands])
        expect(text, "no centimes in a total").not.toMatch(/\d,\d\d\u00a0DH/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // Each parcel reads whole on the screen: its days, amount and profit without swiping a table sideways.
      expect(await textsPastScreenEnd(page)).toEqual([]);
      const first = page.locator("[data-parcel-card]").first();
      expect(await first.locator("dt").allTextContents()).toEqual([
        "Livré le",
        "Jours depuis la livraison",
        "Montant encaissé",
        "Bénéfice vendeur",
      ]);
      expect(await first.locator("dd").last().textContent()).toMatch(
        /^\d[\d\u202f]*(,\d\d)?\u00a0DH$|^Pas encore communiqué$/,
      );
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await phone.screenshot("cash-list-fr-phone");
    } finally {
      await phone.close();
    }
  });

  it("GIVEN a phone at 375 px WHEN the merchant reads Analytics in French THEN what the platform owes, its profit and what it paid read in whole dirhams, as on the cash page", async () => {
    const phone = await openPhoneSession(world, SHOP, "fr");
    try {
      const { page } = phone;
      await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=30", { locale: "fr" }));
      await page.getByRole("heading", { name: "Analyses", level: 1 }).waitFor();
      const report = await loadAnalytics(world.server.db, SHOP, new URLSearchParams("period=30"));
      // The demo's seller profits carry centimes: the sums read rounded, as the cash page's.
      expect(report.cash.current.owedAtEnd.profitCents % 100).not.toBe(0);
      expect(await page.locator('[data-figure="owed"]').textContent()).toBe(
        frDh.money(report.cash.current.owedAtEnd.profitCents, { whole: true }),
      );
      const sums = [
        await page.locator('[data-figure="profit"]').textContent(),
        await page.locator('[data-previous="owed"]').textContent(),
        await page.locator('[data-cash-period="paid"]').textContent(),
        await page.locator('[data-cash-period="returned"]').textContent(),
      ];
      for (const text of sums) expect(text, "no centimes in a sum").not.toMatch(/\d,\d\d\u00a0DH/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await axeViolations(page, { rules: "all" })).toEqual([]);
      await phone.screenshot("analytics-cash-fr-phone");
    } finally {
      await phone.close();
    }
  });

  it("Analytics: the key figures and their change, and the weeks as S47 · 16-22 nov", async () => {
    const { page } = session;
    await visit(page, await world.server.embeddedUrl(SHOP, "/app/analytics?period=30", { locale: "fr" }));
    await page.getByRole("heading", { name: "Analyses", level: 1 }).waitFor();
    const report = await loadAnalytics(world.server.db, SHOP, new URLSearchParams("period=30"));
    expect(await page.locator('[data-figure="owed"]').textContent()).toBe(
      frDh.money(report.cash.current.owedAtEnd.profitCents, { whole: true }),
    );
    expect(await page.locator('[data-change="collected"]').textContent()).toMatch(/^↑ \d+(,\d)?\u202f%$/);
    expect(await page.locator('[data-previous="collected"]').textContent()).toBe(
      `contre ${frDh.money(report.previous.collectedCents, { whole: true })} sur la période précédente`,
    );
    for (const id of ["confirmationRate", "deliveryRate", "returnRate"]) {
      expect(await page.locator(`[data-change="${id}"]`).textContent(), id).toMatch(/^(↑|↓) \d+(,\d)? pts$|^Inchangé$/);
    }
    expect(await page.locator("[data-week]").first().textContent()).toMatch(
      /^S\d{1,2} · \d{1,2}(-\d{1,2} [a-zéû]{3,4}| [a-zéû]{3,4}-\d{1,2} [a-zéû]{3,4})$/,
    );
    await page.locator('[data-chart="collected"] svg').first().waitFor();
    expect(await axeViolations(page, { rules: "all" })).toEqual([]);
    await session.screenshot("analytics-cash-fr");
  });
});
