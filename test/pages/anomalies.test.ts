/**
 * Anomalies page through authenticate.admin: blocked orders grouped by cause, one
 * fix per group that saves the mapping or alias and resends every order it
 * unblocks, and nothing of another shop's ever shown or changed. One test runs
 * the real pipeline against the sandbox before and after the fix.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxControl, startSandbox, type RunningSandbox } from "../../sandbox/index";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { normalizeCityKey } from "../../app/leads/city-key";
import { fromWebhookOrder, mapOrderToLead, type CatalogueProduct, type City } from "../../app/leads";
import { connectTestShop, testPipeline } from "../helpers/pipeline";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";
import { readyGroupHelp } from "../../app/components/orders/attention-text";
import { t } from "../../app/i18n";

type Route = typeof import("../../app/routes/app.anomalies");

let app: AdminApp;
let route: Route;
let seq = 0;

const seed = (file: string) => readFileSync(join(import.meta.dirname, "..", "..", "sandbox", "seed", file), "utf8");

beforeAll(async () => {
  app = await startAdminApp();
  route = await import("../../app/routes/app.anomalies");
  for (const domain of [SHOP_A, SHOP_B]) {
    await app.db.prisma.shop.create({
      data: { domain, catalogueJson: seed("products.json"), citiesJson: seed("cities.json") },
    });
  }
});
afterAll(() => stopAdminApp(app));
beforeEach(async () => {
  for (const table of ["job", "timelineEvent", "orderLink", "skuMapping", "cityAlias"] as const) {
    await (app.db.prisma[table] as { deleteMany(): Promise<unknown> }).deleteMany();
  }
});

interface FindingSeed {
  code: string;
  severity?: "blocking" | "warning";
  params?: Record<string, string | number | boolean | null>;
  suggestions?: unknown[];
}

async function addLink(
  shop: string,
  state: string,
  findings: FindingSeed[],
  extra: {
    anomalies?: string[];
    cancelled?: boolean;
    payload?: unknown;
    totalCents?: number;
    createdAt?: Date;
    reason?: string;
  } = {},
) {
  seq += 1;
  return app.db.prisma.orderLink.create({
    data: {
      shop,
      orderId: String(5_800_000 + seq),
      orderName: `#${2000 + seq}`,
      payload: JSON.stringify(extra.payload ?? { id: 5_800_000 + seq }),
      externalRef: `shopify:${5_800_000 + seq}`,
      state,
      leadRef: state === "damaged" || state === "created" ? `ATB-${seq}` : null,
      findings: JSON.stringify(
        findings.map((f) => ({ severity: "blocking", field: "x", message: f.code, params: {}, ...f })),
      ),
      anomalies: JSON.stringify((extra.anomalies ?? []).map((code) => ({ code, message: code }))),
      cancelledAt: extra.cancelled ? new Date() : null,
      // As the pipeline stores them: no MAD amount is a null totalClient and 0 cents.
      totalClient: extra.totalCents === undefined ? null : (extra.totalCents / 100).toFixed(2),
      totalCents: extra.totalCents ?? 0,
      ...(extra.createdAt ? { createdAt: extra.createdAt } : {}),
      ...(extra.reason ? { reason: extra.reason } : {}),
    },
  });
}

const sku = (value: string | null, title = "Babouche jaune"): FindingSeed => ({
  code: value ? "sku_unmatched" : "sku_missing",
  params: { sku: value, title, lineItemId: "1", via: "sku" },
  suggestions: [{ kind: "product", productId: 1015, sku: "BABOUCHE-CLS-YEL", name: "Babouches", score: 0.55 }],
});
const city = (input: string, severity: "blocking" | "warning" = "blocking"): FindingSeed => ({
  code: "city_unmatched",
  severity,
  params: { input },
  suggestions: [{ kind: "city", cityId: 101, name: "Casablanca", score: 0.7 }],
});

const groupsOf = async (shop: string) => (await load(route.loader, shop, "/app/anomalies")).groups;

describe("grouping", () => {
  it("groups waiting orders by normalised SKU, city spelling and code, biggest first, leaving the rest out", async () => {
    // GIVEN orders of shop A blocked for a few causes
    await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW")]);
    await addLink(SHOP_A, "held", [sku("babouche-ylw "), sku("BABOUCHE-YLW")]);
    await addLink(SHOP_A, "invalid", [sku("BABOUCHE-YLW"), city("Casa Anfa")]);
    await addLink(SHOP_A, "held", [city("casa  anfa")]);
    await addLink(SHOP_A, "damaged", [city("Casa-Anfa", "warning")], { anomalies: ["unknown_city"] });
    await addLink(SHOP_A, "held", [{ code: "phone_missing" }]);
    await addLink(SHOP_A, "damaged", [], { anomalies: ["inconsistent_total"] });
    await addLink(SHOP_A, "failed", []);
    await addLink(SHOP_A, "held", [sku(null, "Tapis berbère")]);
    // AND orders that wait for nobody: cancelled, sent cleanly with a warning, or another shop's
    await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW")], { cancelled: true });
    await addLink(SHOP_A, "created", [{ code: "city_fuzzy", severity: "warning" }]);
    await addLink(SHOP_B, "held", [sku("BABOUCHE-YLW"), city("Casa Anfa")]);

    // WHEN the merchant opens Anomalies
    const groups = await groupsOf(SHOP_A);

    // THEN each cause is one group with its orders
    expect(groups.map((g) => [g.key, g.count, g.fix])).toEqual([
      ["city:casanfa", 3, "aliasCity"],
      ["sku:BABOUCHE-YLW", 3, "mapSku"],
      ["anomaly:inconsistent_total", 1, "sellerSpace"],
      ["finding:phone_missing", 1, "none"],
      ["state:failed", 1, "resend"],
      ["title:Tapis berbère", 1, "mapVariant"],
    ]);
    const skuGroup = groups.find((g) => g.key === "sku:BABOUCHE-YLW")!;
    expect(skuGroup.label).toBe("BABOUCHE-YLW");
    expect(skuGroup.suggestions).toEqual([
      { kind: "product", productId: 1015, sku: "BABOUCHE-CLS-YEL", name: "Babouches", score: 0.55 },
    ]);
    expect(
      groups
        .find((g) => g.key === "city:casanfa")!
        .orders.map((o) => o.state)
        .sort(),
    ).toEqual(["damaged", "held", "invalid"]);
    // The picker options come with the page, from the cached lists.
    const data = await load(route.loader, SHOP_A, "/app/anomalies");
    expect(data.products.some((p) => p.sku === "BABOUCHE-CLS-YEL")).toBe(true);
    expect(data.cities.some((c) => c.name === "Casablanca")).toBe(true);
    // AND shop B sees only its own
    expect((await groupsOf(SHOP_B)).map((g) => [g.key, g.count])).toEqual([
      ["city:casanfa", 1],
      ["sku:BABOUCHE-YLW", 1],
    ]);
  });
});

describe("money at stake", () => {
  it("GIVEN orders held with no amount in dirhams WHEN the merchant opens Anomalies THEN their group says so instead of a zero at stake, and a group with amounts adds them up", async () => {
    // GIVEN an order in euros (no MAD amount) and two with a phone to fix, 229 and 149 MAD
    await addLink(SHOP_A, "held", [{ code: "currency_not_mad" }]);
    await addLink(SHOP_A, "held", [{ code: "phone_missing" }], { totalCents: 22_900 });
    await addLink(SHOP_A, "held", [{ code: "phone_missing" }], { totalCents: 14_900 });

    // WHEN the merchant opens Anomalies
    const groups = await groupsOf(SHOP_A);

    // THEN the euro order's group counts one order without an amount, the phones' none
    const of = (key: string) => groups.find((g) => g.key === key)!;
    expect([of("finding:currency_not_mad").unknownAmounts, of("finding:currency_not_mad").count]).toEqual([1, 1]);
    expect([of("finding:phone_missing").unknownAmounts, of("finding:phone_missing").amountCents]).toEqual([0, 37_800]);
  });
});

describe("how old", () => {
  it("GIVEN a group with an order 57 days old and one of 2 days, the limit 7 days WHEN the merchant opens Anomalies THEN the group's oldest is 57 days old and the oldest a send of it sends is the 2-day one", async () => {
    const day = 86_400_000;
    const old = new Date(Date.now() - 57 * day);
    const recent = new Date(Date.now() - 2 * day);
    await addLink(SHOP_A, "held", [{ code: "phone_missing" }], { createdAt: old, totalCents: 17_900 });
    await addLink(SHOP_A, "held", [{ code: "phone_missing" }], { createdAt: recent, totalCents: 22_900 });

    const [group] = await groupsOf(SHOP_A);

    expect([group.oldestAt, group.oldestWithinLimitAt]).toEqual([old.toISOString(), recent.toISOString()]);
    expect(group.olderThanLimit).toEqual({ count: 1, amountCents: 17_900 });
  });
});

describe("why ready orders waited", () => {
  it("GIVEN orders held while automatic sending was off WHEN Anomalies shows them ready THEN its help says so; GIVEN one that waited for another reason THEN the help claims neither cause", async () => {
    await addLink(SHOP_A, "held", [], { reason: "Automatic sending is off: the order waits for you" });
    await addLink(SHOP_A, "held", [], { reason: "Automatic sending is off: the order waits for you" });
    const [ready] = await groupsOf(SHOP_A);
    expect([ready.key, ready.readyReasons]).toEqual(["state:ready", ["autoSendOff"]]);
    expect(t("fr", readyGroupHelp(ready.readyReasons))).toMatch(/^L'envoi automatique est désactivé/);

    // AND an order held in the past for a reason that no longer holds it (no finding left)
    await addLink(SHOP_A, "held", [], { reason: "Held: the city was not recognised" });
    const [mixed] = await groupsOf(SHOP_A);
    expect(mixed.readyReasons.sort()).toEqual(["autoSendOff", "other"]);
    const help = t("fr", readyGroupHelp(mixed.readyReasons));
    expect(help).not.toMatch(/envoi automatique|clé/);
    expect(help).toBe("Plus rien ne retient ces commandes : envoyez-les si les clients les attendent encore.");
  });
});

describe("proposals", () => {
  const proven = (productId: number, skuValue: string): FindingSeed => ({
    code: "sku_unmatched",
    params: { sku: "MONTRE-X8", title: "Montre X8", lineItemId: "1", via: "sku" },
    suggestions: [{ kind: "product", productId, sku: skuValue, name: skuValue, score: 1, confidence: "certain" }],
  });

  it("keeps a proven product the group's primary fix only when every order proves the same one", async () => {
    // GIVEN two orders of one SKU that each prove the same variant
    await addLink(SHOP_A, "held", [proven(1007, "SMW-X8-BLK")]);
    await addLink(SHOP_A, "held", [proven(1007, "SMW-X8-BLK")]);
    // THEN the group proves it
    expect((await groupsOf(SHOP_A))[0].suggestions.map((s) => [s.kind === "product" && s.sku, s.confidence])).toEqual([
      ["SMW-X8-BLK", "certain"],
    ]);
    // WHEN a third order of the same SKU proves another variant
    await addLink(SHOP_A, "held", [proven(1007, "SMW-X8-SLV")]);
    // THEN neither is proven for the group: both are choices
    const suggestions = (await groupsOf(SHOP_A))[0].suggestions
      .map((s) => [s.kind === "product" && s.sku, s.confidence])
      .sort();
    expect(suggestions).toEqual([
      ["SMW-X8-BLK", "likely"],
      ["SMW-X8-SLV", "likely"],
    ]);
  });

  it("shows each order of a city group with its address, and each order's page in Shopify", async () => {
    const payload = {
      id: 1,
      shipping_address: { address1: "Douar Ouled Salem", city: "Sebt Gzoula", zip: "46350", province: "Safi" },
      line_items: [],
    };
    await addLink(SHOP_A, "held", [{ ...city("Sebt Gzoula"), suggestions: [] }], { payload });
    await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW")]);
    const groups = await groupsOf(SHOP_A);
    const cityGroup = groups.find((g) => g.kind === "city")!;
    expect(cityGroup.orders[0].address).toEqual({
      address1: "Douar Ouled Salem",
      address2: null,
      city: "Sebt Gzoula",
      zip: "46350",
      province: "Safi",
    });
    expect(cityGroup.orders[0].shopifyUrl).toMatch(/^https:\/\/admin\.shopify\.com\/store\/[^/]+\/orders\/\d+$/);
    const skuGroup = groups.find((g) => g.kind === "sku")!;
    expect(skuGroup.orders[0]).not.toHaveProperty("address");
    expect(skuGroup.orders[0].shopifyUrl).toMatch(/\/orders\/\d+$/);
    expect(skuGroup.itemTitle).toBe("Babouche jaune");
    // The Shopify id behind the link stays on the server.
    expect(JSON.stringify(groups)).not.toContain("shopifyOrderId");
  });

  it("gives the picker what a proposal is judged by: variant, platform price and stock; a city's region", async () => {
    await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW"), city("Casa Anfa")]);
    const data = await load(route.loader, SHOP_A, "/app/anomalies");
    expect(data.products.find((p) => p.sku === "SMW-X8-PNK")).toEqual({
      sku: "SMW-X8-PNK",
      productId: 1007,
      name: "Montre connectée X8 (Rose)",
      productName: "Montre connectée X8",
      variantName: "Rose",
      price: "119.00",
      inStock: false,
    });
    expect(data.cities.find((c) => c.name === "Settat")).toEqual({
      id: 111,
      name: "Settat",
      region: "Casablanca-Settat",
    });
  });
});

describe("fixing a group", () => {
  /** A held order as the pipeline leaves it: a real Shopify payload, its findings, a phone of its own. */
  const order = (id: number, spec: Partial<OrderSpec> = {}) =>
    webhookOrder({ id, phone: `0662${String(id).padStart(6, "0")}`, ...spec });
  const babouche = { items: [{ sku: "BABOUCHE-YLW", price: "199.00", title: "Babouche jaune" }] };

  it("maps an unknown SKU once and sends the orders it frees only on the confirmation that states them, rewriting their findings", async () => {
    const links = [
      await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW")], { payload: order(71, babouche) }),
      await addLink(SHOP_A, "invalid", [sku("babouche-ylw")], { payload: order(72, babouche) }),
    ];
    const other = await addLink(SHOP_B, "held", [sku("BABOUCHE-YLW")], { payload: order(73, babouche) });

    const refused = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixSku",
      key: "sku:BABOUCHE-YLW",
      platformSku: "NOT-IN-CATALOGUE",
    });
    expect(refused).toEqual({ ok: false, intent: "fixSku", error: "unknown_product" });
    expect(await app.db.prisma.skuMapping.count()).toBe(0);

    const result = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixSku",
      key: "sku:BABOUCHE-YLW",
      platformSku: "BABOUCHE-CLS-YEL",
    });

    // THEN the mapping is saved and the two orders it frees are named with their figures, none sent yet
    expect(result).toMatchObject({ ok: true, intent: "fixSku", resent: 0, skipped: 0 });
    const release = (result as { release: { orders: { id: string; amountCents: number }[] } }).release;
    expect(release.orders.map((o) => [o.id, o.amountCents]).sort()).toEqual(
      links.map((l) => [l.id, expect.any(Number)]).sort(),
    );
    const mappings = await app.db.prisma.skuMapping.findMany();
    expect(mappings.map((m) => [m.shop, m.sourceKind, m.sourceKey, JSON.parse(m.targets)])).toEqual([
      [SHOP_A, "sku", "BABOUCHE-YLW", [{ sku: "BABOUCHE-CLS-YEL", quantity: 1 }]],
    ]);
    expect(await app.db.prisma.job.count()).toBe(0);
    const ids = links.map((l) => l.id).join(",");

    // WHEN the freed orders are sent without the count the confirmation stated, or with another count
    for (const count of [undefined, "1"])
      expect(
        await submit(route.action, SHOP_A, "/app/anomalies", {
          intent: "sendReleased",
          ids,
          ...(count ? { count } : {}),
        }),
      ).toEqual({ ok: false, intent: "sendReleased", error: "group_changed" });
    // THEN the server refuses: nothing queued, both still held
    expect(await app.db.prisma.job.count()).toBe(0);
    for (const l of links)
      expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: l.id } })).state).not.toBe("received");

    // WHEN the merchant confirms them
    expect(await submit(route.action, SHOP_A, "/app/anomalies", { intent: "sendReleased", ids, count: "2" })).toEqual({
      ok: true,
      intent: "sendReleased",
      resent: 2,
      skipped: 0,
      sent: 2,
    });
    for (const l of links) {
      const after = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: l.id } });
      expect(after.state).toBe("received");
      // No stale finding: checked again with the new mapping before it left.
      expect(after.findings).not.toContain("sku_unmatched");
      expect(JSON.parse(after.leadJson!).items).toEqual([{ sku: "BABOUCHE-CLS-YEL", quantity: 1 }]);
      expect(await app.db.prisma.timelineEvent.count({ where: { linkId: l.id, kind: "rechecked" } })).toBe(1);
      expect(
        await app.db.prisma.job.count({ where: { key: `post-lead:${SHOP_A}:${l.orderId}`, state: "pending" } }),
      ).toBe(1);
    }
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: other.id } })).state).toBe("held");
    expect(await groupsOf(SHOP_A)).toEqual([]);
  });

  it("learns a city spelling and sends the orders it frees; a lead already on the platform is not sent twice", async () => {
    const held = await addLink(SHOP_A, "held", [city("Xyzzyville")], { payload: order(81, { city: "Xyzzyville" }) });
    const damaged = await addLink(SHOP_A, "damaged", [city("xyzzyville", "warning")], {
      anomalies: ["unknown_city"],
      payload: order(82, { city: "Xyzzyville" }),
    });
    const key = `city:${normalizeCityKey("Xyzzyville")}`;

    expect(await submit(route.action, SHOP_A, "/app/anomalies", { intent: "fixCity", key, cityId: "424242" })).toEqual({
      ok: false,
      intent: "fixCity",
      error: "unknown_city",
    });
    const result = await submit(route.action, SHOP_A, "/app/anomalies", { intent: "fixCity", key, cityId: "101" });

    // The damaged lead stays: it is corrected in the platform's seller space, never sent twice by a fix.
    expect(result).toEqual({ ok: true, intent: "fixCity", resent: 1, skipped: 1 });
    const aliases = await app.db.prisma.cityAlias.findMany();
    expect(aliases.map((a) => [a.shop, a.alias, a.cityId, a.source])).toEqual([
      [SHOP_A, normalizeCityKey("Xyzzyville"), 101, "learned"],
    ]);
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } })).state).toBe("received");
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: damaged.id } })).state).toBe("damaged");
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_A } })).toBe(1);
  });

  it("GIVEN an order held because its city only looks like a delivered one WHEN the merchant picks the right city in Anomalies THEN the spelling is learned and the order goes", async () => {
    const cities = JSON.parse(seed("cities.json")) as City[];
    const payload = order(86, { city: "Ain Aouda" });
    const mapped = mapOrderToLead(fromWebhookOrder(payload), {
      catalogue: JSON.parse(seed("products.json")) as CatalogueProduct[],
      cities,
      now: new Date(),
    });
    expect(mapped.decision).toBe("hold");
    const held = await app.db.prisma.orderLink.create({
      data: {
        shop: SHOP_A,
        orderId: "5899086",
        orderName: "#2986",
        payload: JSON.stringify(payload),
        externalRef: "shopify:5899086",
        state: "held",
        findings: JSON.stringify(mapped.findings),
      },
    });
    const group = (await groupsOf(SHOP_A)).find((g) => g.key === `city:${normalizeCityKey("Ain Aouda")}`)!;
    // Fixable as a spelling, with the city it resembles as a choice (never the one-click fix) beside the address.
    expect(group).toMatchObject({ kind: "city", fix: "aliasCity", label: "Ain Aouda", count: 1 });
    expect(group.suggestions[0]).toMatchObject({ name: "Aïn Harrouda", confidence: "likely" });
    expect(group.suggestions.some((s) => s.confidence === "certain")).toBe(false);
    expect(group.orders[0].address).toMatchObject({ city: "Ain Aouda" });

    // Aïn Aouda is near Rabat: the merchant picks Rabat.
    const rabat = cities.find((c) => c.name === "Rabat")!.id;
    const result = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixCity",
      key: group.key,
      cityId: String(rabat),
    });
    expect(result).toEqual({ ok: true, intent: "fixCity", resent: 1, skipped: 0 });
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } })).state).toBe("received");
    expect((await app.db.prisma.cityAlias.findMany()).map((a) => [a.alias, a.cityId])).toEqual([
      [normalizeCityKey("Ain Aouda"), rabat],
    ]);
  });

  it("rewrites the findings of an order the fix does not free, and leaves it held for what still holds it", async () => {
    // Unknown SKU and no phone: the mapping resolves one of its two problems.
    const both = await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW"), { code: "phone_missing" }], {
      payload: order(91, { ...babouche, phone: null }),
    });
    const result = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixSku",
      key: "sku:BABOUCHE-YLW",
      platformSku: "BABOUCHE-CLS-YEL",
    });
    expect(result).toEqual({ ok: true, intent: "fixSku", resent: 0, skipped: 1 });
    const after = await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: both.id } });
    expect(after.state).toBe("held");
    expect(JSON.parse(after.findings).map((f: { code: string }) => f.code)).toEqual(["phone_missing"]);
    expect((await groupsOf(SHOP_A)).map((g) => g.key)).toEqual(["finding:phone_missing"]);
  });

  it("maps lines without SKU by their Shopify variant", async () => {
    const payload = webhookOrder({ id: 91, items: [{ sku: null, title: "Tapis berbère", variantId: 4455667788 }] });
    const lineItemId = String((payload.line_items as { id: number }[])[0].id);
    await addLink(
      SHOP_A,
      "held",
      [{ code: "sku_missing", params: { sku: null, title: "Tapis berbère", lineItemId } }],
      { payload },
    );

    const result = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixSku",
      key: "title:Tapis berbère",
      platformSku: "TAJINE-30",
    });

    expect(result).toEqual({ ok: true, intent: "fixSku", resent: 1, skipped: 0 });
    const [mapping] = await app.db.prisma.skuMapping.findMany();
    expect([mapping.sourceKind, mapping.sourceKey, JSON.parse(mapping.targets)]).toEqual([
      "variant",
      "4455667788",
      [{ sku: "TAJINE-30", quantity: 1 }],
    ]);
  });

  it("tries failed orders again, never sends flagged leads blindly, and says when the group is gone", async () => {
    await addLink(SHOP_A, "damaged", [], { anomalies: ["inconsistent_total"] });
    await addLink(SHOP_A, "failed", []);

    expect(
      await submit(route.action, SHOP_A, "/app/anomalies", {
        intent: "resendGroup",
        key: "anomaly:inconsistent_total",
      }),
    ).toEqual({
      ok: false,
      intent: "resendGroup",
      error: "not_fixable",
    });
    expect(
      await submit(route.action, SHOP_A, "/app/anomalies", { intent: "resendGroup", key: "state:failed" }),
    ).toMatchObject({ ok: true, resent: 1 });
    expect(
      await submit(route.action, SHOP_A, "/app/anomalies", { intent: "resendGroup", key: "state:failed" }),
    ).toEqual({
      ok: false,
      intent: "resendGroup",
      error: "group_gone",
    });
  });

  it("never touches another shop's orders: shop B's fix of the same cause resends only its own", async () => {
    const a = await addLink(SHOP_A, "held", [sku("BABOUCHE-YLW")], { payload: order(95, babouche) });
    await addLink(SHOP_A, "failed", []);

    expect(
      await submit(route.action, SHOP_B, "/app/anomalies", {
        intent: "fixSku",
        key: "sku:BABOUCHE-YLW",
        platformSku: "BABOUCHE-CLS-YEL",
      }),
    ).toEqual({
      ok: true,
      intent: "fixSku",
      resent: 0,
      skipped: 0,
    });
    expect(
      await submit(route.action, SHOP_B, "/app/anomalies", { intent: "resendGroup", key: "state:failed" }),
    ).toMatchObject({ ok: false, error: "group_gone" });

    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } })).state).toBe("held");
    expect(await app.db.prisma.job.count()).toBe(0);
    expect((await app.db.prisma.skuMapping.findMany()).map((m) => m.shop)).toEqual([SHOP_B]);
  });
});

describe("with the pipeline and the sandbox", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  });
  afterAll(() => sandbox?.close());

  it("holds orders with an unknown SKU; after one fix and its confirmation the platform holds their leads, an order older than the limit waits for the merchant's word", async () => {
    const control = sandboxControl(sandbox.url);
    const { keys } = await control.reset();
    const key = keys.find((k) => k.account === "ACC-1001")!;
    await connectTestShop(app.db.prisma, {
      shop: SHOP_A,
      apiKey: key.key,
      baseUrl: sandbox.url,
      settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } },
    });
    const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
    const pipeline = testPipeline(app.db.prisma);
    // GIVEN two recent orders and one placed 30 days ago (the limit is 7), all with an unknown SKU
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const orders = [0, 1, 2].map((i) =>
      webhookOrder({
        id: 5_810_000 + i,
        phone: `066100000${i}`,
        items: [{ sku: "BABOUCHE-YLW", price: "199.00", title: "Babouche jaune" }],
        ...(i === 2 ? { createdAt: monthAgo } : {}),
      }),
    );
    for (const order of orders) await app.db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP_A, order));
    await pipeline.drain({ kinds: ["post-lead"] });
    expect((await groupsOf(SHOP_A)).map((g) => [g.key, g.count])).toEqual([["sku:BABOUCHE-YLW", 3]]);

    // WHEN the merchant maps the SKU
    const result = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "fixSku",
      key: "sku:BABOUCHE-YLW",
      platformSku: "BABOUCHE-CLS-YEL",
    });
    // THEN nothing is sent yet: the three freed orders come back for the confirmation, the old one marked
    expect(result).toMatchObject({ ok: true, resent: 0, release: { staleOrderDays: 7 } });
    const release = (result as { release: { orders: { id: string; orderName: string; olderThanLimit: boolean }[] } })
      .release;
    const byOrder = await app.db.prisma.orderLink.findMany({ where: { shop: SHOP_A }, orderBy: { orderId: "asc" } });
    expect(release.orders.map((o) => [o.id, o.olderThanLimit]).sort()).toEqual(
      byOrder.map((l, i) => [l.id, i === 2]).sort(),
    );
    await pipeline.drain({ kinds: ["post-lead"] });
    expect(await control.leads("ACC-1001")).toEqual([]);

    // WHEN the merchant confirms the three, without a word for the old one's age
    const sent = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "sendReleased",
      ids: release.orders.map((o) => o.id).join(","),
      count: "3",
    });
    expect(sent).toMatchObject({ ok: true, resent: 3 });
    await pipeline.drain({ kinds: ["post-lead"] });

    // THEN the two recent ones are leads, and the old one waits for the merchant's word
    const links = await app.db.prisma.orderLink.findMany({ where: { shop: SHOP_A }, orderBy: { orderId: "asc" } });
    expect(links.map((l) => l.state)).toEqual(["created", "created", "held"]);
    expect(links[2].reason).toMatch(/^Placed /);
    const leads = await control.leads("ACC-1001");
    expect(leads).toHaveLength(2);
    for (const link of links.slice(0, 2)) {
      const lead = leads.find((l) => l.external_ref === link.externalRef);
      expect(lead).toMatchObject({ damaged: false, items: [{ sku: "BABOUCHE-CLS-YEL", quantity: 1 }] });
    }
    expect((await groupsOf(SHOP_A)).map((g) => [g.key, g.count])).toEqual([["state:stale", 1]]);
  });

  it("checks the catalogue again: a product added in the seller space frees its orders, one still missing says so", async () => {
    // GIVEN a shop whose cached catalogue predates the babouches (the merchant has since added them)
    const control = sandboxControl(sandbox.url);
    const { keys } = await control.reset();
    await connectTestShop(app.db.prisma, {
      shop: SHOP_A,
      apiKey: keys.find((k) => k.account === "ACC-1001")!.key,
      baseUrl: sandbox.url,
      settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } },
    });
    const before = (JSON.parse(seed("products.json")) as { sku: string }[]).filter((p) => p.sku !== "BABOUCHE-CLS");
    await app.db.prisma.shop.update({
      where: { domain: SHOP_A },
      data: { catalogueJson: JSON.stringify(before), catalogueFetchedAt: new Date() },
    });
    const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
    const pipeline = testPipeline(app.db.prisma);
    const orders = [
      webhookOrder({
        id: 5_820_001,
        phone: "0661000011",
        items: [{ sku: "BABOUCHE-CLS-YEL", price: "199.00", title: "Babouches jaunes" }],
      }),
      webhookOrder({
        id: 5_820_002,
        phone: "0661000012",
        items: [{ sku: "ZELLIGE-LAMP-01", price: "450.00", title: "Lampe zellige artisanale" }],
      }),
    ];
    for (const order of orders) await app.db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP_A, order));
    await pipeline.drain({ kinds: ["post-lead"] });
    const groups = await groupsOf(SHOP_A);
    expect(groups.map((g) => [g.key, g.suggestions])).toEqual([
      ["sku:BABOUCHE-CLS-YEL", []],
      ["sku:ZELLIGE-LAMP-01", []],
    ]);

    // WHEN the merchant checks the catalogue again for the babouches
    const found = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "checkCatalogue",
      key: "sku:BABOUCHE-CLS-YEL",
    });
    // THEN the catalogue is read from the platform and the order is sent
    expect(found).toMatchObject({ ok: true, intent: "checkCatalogue", resent: 1 });
    await pipeline.drain({ kinds: ["post-lead"] });
    const sent = await app.db.prisma.orderLink.findFirstOrThrow({ where: { shop: SHOP_A, orderId: "5820001" } });
    expect(sent.state).toBe("created");
    expect(
      JSON.parse((await app.db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP_A } })).catalogueJson!),
    ).toContainEqual(expect.objectContaining({ sku: "BABOUCHE-CLS" }));

    // WHEN the merchant checks again for the lamp, which the platform still lacks
    const missing = await submit(route.action, SHOP_A, "/app/anomalies", {
      intent: "checkCatalogue",
      key: "sku:ZELLIGE-LAMP-01",
    });
    // THEN nothing is sent and the group stays, saying the product is not on the platform
    expect(missing).toMatchObject({ ok: true, resent: 0 });
    expect((await groupsOf(SHOP_A)).map((g) => g.key)).toEqual(["sku:ZELLIGE-LAMP-01"]);
  });

  it("says so when the platform cannot be asked again", async () => {
    await app.db.prisma.shop.update({ where: { domain: SHOP_B }, data: { sellerApiKeyCipher: null } });
    await addLink(SHOP_B, "held", [sku("ZELLIGE-LAMP-01")]);
    expect(
      await submit(route.action, SHOP_B, "/app/anomalies", { intent: "checkCatalogue", key: "sku:ZELLIGE-LAMP-01" }),
    ).toEqual({ ok: false, intent: "checkCatalogue", error: "not_connected" });
    expect(
      await submit(route.action, SHOP_B, "/app/anomalies", { intent: "checkCatalogue", key: "city:casanfa" }),
    ).toEqual({ ok: false, intent: "checkCatalogue", error: "not_fixable" });
  });
});
