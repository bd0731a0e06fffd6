/**
 * Mappings page: Shopify variants read from a local fake of the Admin GraphQL API and
 * matched against the cached catalogue; SKU mappings, bundles and city aliases saved
 * through the action; CSV export and import (all or nothing); every call scoped to
 * the session's shop.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startShopifyAdmin as startFakeAdminApi,
  variantRecord as fakeVariant,
  type RunningShopifyAdmin as FakeAdminApi,
} from "../../shopify-admin/index";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { fromWebhookOrder, mapOrderToLead } from "../../app/leads";

type MappingsRoute = typeof import("../../app/routes/app.mappings");
type ExportRoute = typeof import("../../app/routes/app.mappings.export");

let app: AdminApp;
let api: FakeAdminApi;
let route: MappingsRoute;
let exportRoute: ExportRoute;
const seed = (name: string) => readFileSync(new URL(`../../sandbox/seed/${name}`, import.meta.url), "utf8");

beforeAll(async () => {
  app = await startAdminApp();
  api = await startFakeAdminApi();
  await api.installFetchRewrite();
  route = await import("../../app/routes/app.mappings");
  exportRoute = await import("../../app/routes/app.mappings.export");
  for (const domain of [SHOP_A, SHOP_B]) {
    await app.db.prisma.shop.create({
      data: {
        domain,
        catalogueJson: seed("products.json"),
        catalogueFetchedAt: new Date(),
        citiesJson: seed("cities.json"),
        citiesFetchedAt: new Date(),
      },
    });
  }
});
afterAll(async () => {
  await api?.close();
  await stopAdminApp(app);
});
beforeEach(async () => {
  await app.db.prisma.skuMapping.deleteMany();
  await app.db.prisma.cityAlias.deleteMany();
  api.requests.length = 0;
  api.state.throttleNext = 0;
});

const save = (shop: string, fields: Record<string, string>) => submit(route.action, shop, "/app/mappings", fields);
const mapping = (shop: string, sourceKind: string, sourceKey: string, targets: unknown[], label = "") =>
  save(shop, { intent: "saveMapping", sourceKind, sourceKey, targets: JSON.stringify(targets), label });
const statusOf = (error: unknown) => (error instanceof Response ? error.status : error);
const exportCsv = async (shop: string, kind: string) => {
  const response = (await load(exportRoute.loader, shop, `/app/mappings/export?kind=${kind}`)) as Response;
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  // The bytes as downloaded: Response.text() would drop the BOM spreadsheets need.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
};

describe("Shopify variants", () => {
  beforeAll(() => {
    api.state.productVariants.push(
      fakeVariant({ id: 501, sku: "ARG-OIL-50", title: "50 ml", productId: 50, productTitle: "Huile d'argan" }),
      fakeVariant({ id: 502, sku: "ARGAN-XL", title: "XL", productId: 50, productTitle: "Huile d'argan" }),
      fakeVariant({ id: 503, sku: null, title: "Default Title", productId: 51, productTitle: "Amlou maison" }),
      fakeVariant({
        id: 504,
        sku: "PACK-RAMADAN",
        title: "Default Title",
        productId: 52,
        productTitle: "Pack Ramadan",
      }),
      fakeVariant({ id: 505, sku: "OLD-1", title: "Default Title", productId: 53, productTitle: "Ancien produit" }),
    );
  });

  it("lists a page of variants matched by SKU, by the shop's mappings, or not at all", async () => {
    // GIVEN a bundle mapping for the Ramadan pack and a mapping to an item the platform dropped
    await mapping(
      SHOP_A,
      "sku",
      "pack-ramadan",
      [
        { sku: "AMLOU-250", quantity: 2 },
        { sku: "SAVON-NOIR-200", quantity: 1 },
      ],
      "Pack",
    );
    await mapping(SHOP_A, "variant", "gid://shopify/ProductVariant/505", [{ sku: "GONE-1", quantity: 1 }]);

    // WHEN the page loads
    const data = await load(route.loader, SHOP_A, "/app/mappings");

    // THEN each variant says how it reaches the catalogue
    expect(data.variants).toMatchObject({ ok: true, hasNextPage: false });
    const rows = data.variants?.ok ? data.variants.rows : [];
    expect(rows.map((r) => [r.variantId, r.status])).toEqual([
      ["501", "matched"],
      ["502", "unmatched"],
      ["503", "no_sku"],
      ["504", "mapped"],
      ["505", "mapping_broken"],
    ]);
    expect(rows[0].items).toEqual([{ sku: "ARG-OIL-50", name: "Huile d'argan cosmétique 50 ml", quantity: 1 }]);
    expect(rows[3].items.map((i) => [i.sku, i.quantity])).toEqual([
      ["AMLOU-250", 2],
      ["SAVON-NOIR-200", 1],
    ]);
    expect(rows[3].mappingId).toBe(data.mappings.find((m) => m.sourceKey === "PACK-RAMADAN")?.id);
    expect(rows[1].suggestions.length).toBeGreaterThan(0);
    // AND Shopify was asked once, as the shop, for a page of 25
    expect(api.requests.map((r) => [r.shop, r.operationName, r.variables.first, r.variables.query ?? null])).toEqual([
      [SHOP_A, "ProductVariantsPage", 25, null],
    ]);
    expect(data.catalogue.find((o) => o.sku === "SMW-X8-PNK")).toMatchObject({ productId: 1007, inStock: false });
  });

  it("searches and pages with Shopify's cursor", async () => {
    const data = await load(route.loader, SHOP_A, "/app/mappings?q=sku:ARGAN-XL&after=abc");
    expect(api.requests.at(-1)?.variables).toMatchObject({ query: "sku:ARGAN-XL", after: "abc" });
    expect(data.query).toBe("sku:ARGAN-XL");
  });

  it("shows Shopify's throttle as a wait, not an error page", async () => {
    // More THROTTLED answers than the page waits out (test/pages/shopify-failures.test.ts has the short wait).
    api.state.throttleNext = 3;
    const data = await load(route.loader, SHOP_A, "/app/mappings");
    expect(data.variants).toEqual({ ok: false, error: "throttled", retryAfterSeconds: expect.any(Number) });
    expect(
      data.variants && !data.variants.ok && data.variants.error === "throttled" && data.variants.retryAfterSeconds,
    ).toBeGreaterThanOrEqual(1);
    expect(data.catalogue.length).toBeGreaterThan(0);
  });

  it("asks Shopify nothing on the other tabs", async () => {
    for (const tab of ["skus", "cities", "csv"]) {
      const data = await load(route.loader, SHOP_A, `/app/mappings?tab=${tab}`);
      expect(data.tab).toBe(tab);
      expect(data.variants).toBeNull();
    }
    expect(api.requests).toEqual([]);
  });
});

describe("SKU mappings and bundles", () => {
  it("creates a mapping, turns it into a bundle, and deletes it", async () => {
    const created = await mapping(
      SHOP_A,
      "variant",
      "46000000000001",
      [{ sku: "smw-x8-blk", quantity: 1 }],
      "Montre noire",
    );
    expect(created).toMatchObject({ intent: "saveMapping", ok: true, id: expect.any(String) });
    const id = created.intent === "saveMapping" && created.ok ? created.id : "";

    const bundled = await save(SHOP_A, {
      intent: "saveMapping",
      id,
      sourceKind: "variant",
      sourceKey: "46000000000001",
      targets: JSON.stringify([
        { sku: "SMW-X8-BLK", quantity: 1 },
        { product_id: 1004, quantity: 3 },
      ]),
      label: "Montre + savons",
    });
    expect(bundled).toMatchObject({ ok: true });

    const { mappings } = await load(route.loader, SHOP_A, "/app/mappings?tab=skus");
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({
      sourceKind: "variant",
      sourceKey: "46000000000001",
      label: "Montre + savons",
      complete: true,
      targets: [
        { kind: "sku", key: "SMW-X8-BLK", quantity: 1, name: "Montre connectée X8 (Noir)" },
        { kind: "product", key: "1004", quantity: 3, name: "Savon noir eucalyptus 200 g" },
      ],
    });

    expect(await save(SHOP_A, { intent: "deleteMapping", id: mappings[0].id })).toEqual({
      intent: "deleteMapping",
      ok: true,
    });
    expect(await app.db.prisma.skuMapping.count()).toBe(0);
  });

  it("moves a mapping to a new source when edited, and answers field errors", async () => {
    const created = await mapping(SHOP_A, "sku", "OLD-SKU", [{ sku: "AMLOU-250", quantity: 1 }]);
    const id = created.intent === "saveMapping" && created.ok ? created.id : "";
    await save(SHOP_A, {
      intent: "saveMapping",
      id,
      sourceKind: "sku",
      sourceKey: "new-sku",
      targets: JSON.stringify([{ sku: "AMLOU-250", quantity: 1 }]),
    });
    expect((await app.db.prisma.skuMapping.findMany()).map((m) => m.sourceKey)).toEqual(["NEW-SKU"]);

    expect(await mapping(SHOP_A, "sku", "X", [])).toMatchObject({ ok: false, error: { field: "targets" } });
    expect(await mapping(SHOP_A, "sku", "X", [{ sku: "AMLOU-250", quantity: 0 }])).toMatchObject({
      ok: false,
      error: { field: "targets[0].quantity" },
    });
    expect(await mapping(SHOP_A, "variant", "not-an-id", [{ sku: "AMLOU-250", quantity: 1 }])).toMatchObject({
      ok: false,
      error: { field: "sourceKey" },
    });
    expect(
      await save(SHOP_A, { intent: "saveMapping", sourceKind: "sku", sourceKey: "X", targets: "{oops" }),
    ).toMatchObject({ ok: false });
    expect(await app.db.prisma.skuMapping.count()).toBe(1);
  });
});

describe("city aliases", () => {
  it("adds an alias for a delivered city and deletes it", async () => {
    const added = await save(SHOP_A, { intent: "saveAlias", alias: "Casa Anfa", cityId: "101" });
    expect(added).toMatchObject({ intent: "saveAlias", ok: true });
    const { aliases } = await load(route.loader, SHOP_A, "/app/mappings?tab=cities");
    expect(aliases).toEqual([expect.objectContaining({ cityId: 101, cityName: "Casablanca", source: "manual" })]);

    expect(await save(SHOP_A, { intent: "deleteAlias", id: aliases[0].id })).toEqual({
      intent: "deleteAlias",
      ok: true,
    });
    expect(await app.db.prisma.cityAlias.count()).toBe(0);
  });

  it("refuses a city the platform does not deliver, and a spelling with no place name", async () => {
    expect(await save(SHOP_A, { intent: "saveAlias", alias: "Atlantis", cityId: "999" })).toMatchObject({
      ok: false,
      error: { field: "cityId" },
    });
    expect(await save(SHOP_A, { intent: "saveAlias", alias: "12 rue", cityId: "101" })).toMatchObject({
      ok: false,
      error: { field: "alias" },
    });
    expect(await app.db.prisma.cityAlias.count()).toBe(0);
  });
});

describe("shops stay apart", () => {
  it("answers 404 for another shop's mapping or alias, and lists only the shop's own", async () => {
    const created = await mapping(SHOP_A, "sku", "A-ONLY", [{ sku: "AMLOU-250", quantity: 1 }]);
    const id = created.intent === "saveMapping" && created.ok ? created.id : "";
    const alias = await save(SHOP_A, { intent: "saveAlias", alias: "Dar Bida", cityId: "101" });
    const aliasId = alias.intent === "saveAlias" && alias.ok ? alias.id : "";

    expect(statusOf(await save(SHOP_B, { intent: "deleteMapping", id }).catch((e: unknown) => e))).toBe(404);
    expect(
      statusOf(
        await save(SHOP_B, {
          intent: "saveMapping",
          id,
          sourceKind: "sku",
          sourceKey: "A-ONLY",
          targets: JSON.stringify([{ sku: "GHASSOUL-500", quantity: 1 }]),
        }).catch((e: unknown) => e),
      ),
    ).toBe(404);
    expect(statusOf(await save(SHOP_B, { intent: "deleteAlias", id: aliasId }).catch((e: unknown) => e))).toBe(404);

    const b = await load(route.loader, SHOP_B, "/app/mappings?tab=skus");
    expect(b.mappings).toEqual([]);
    expect(b.aliases).toEqual([]);
    expect(await exportCsv(SHOP_B, "sku_mappings")).not.toContain("A-ONLY");
    // A's rows are untouched
    expect(await app.db.prisma.skuMapping.findUnique({ where: { id } })).toMatchObject({
      shop: SHOP_A,
      targets: JSON.stringify([{ sku: "AMLOU-250", quantity: 1 }]),
    });
    expect(await app.db.prisma.cityAlias.count({ where: { shop: SHOP_A } })).toBe(1);
  });
});

describe("CSV", () => {
  it("exports SKU mappings one row per bundle item, and importing the export gives the same rows", async () => {
    await mapping(
      SHOP_A,
      "sku",
      "PACK-RAMADAN",
      [
        { sku: "AMLOU-250", quantity: 2 },
        { product_id: 1004, quantity: 1 },
      ],
      'Pack "Ramadan", grand',
    );
    await mapping(SHOP_A, "variant", "46000000000001", [{ sku: "SMW-X8-BLK", quantity: 1 }], "=HYPERLINK(1)");
    await mapping(SHOP_A, "sku", "-ARG", [{ sku: "ARG-OIL-50", quantity: 3 }]);

    const exported = await exportCsv(SHOP_A, "sku_mappings");
    expect(exported.split("\r\n")).toEqual([
      "\uFEFFkind,source,platform_sku,platform_product_id,quantity,label",
      'sku,PACK-RAMADAN,AMLOU-250,,2,"Pack ""Ramadan"", grand"',
      'sku,PACK-RAMADAN,,1004,1,"Pack ""Ramadan"", grand"',
      "variant,46000000000001,SMW-X8-BLK,,1,'=HYPERLINK(1)",
      "sku,'-ARG,ARG-OIL-50,,3,",
      "",
    ]);
    const before = (await app.db.prisma.skuMapping.findMany({ orderBy: { sourceKey: "asc" } })).map(
      ({ sourceKind, sourceKey, targets, label }) => ({
        sourceKind,
        sourceKey,
        targets,
        label,
      }),
    );

    await app.db.prisma.skuMapping.deleteMany();
    expect(await save(SHOP_A, { intent: "importCsv", csv: exported })).toEqual({
      intent: "importCsv",
      ok: true,
      kind: "sku_mappings",
      saved: 3,
      rows: 4,
      release: { orders: [], stillHeld: 0, staleOrderDays: 7 },
    });

    const after = (await app.db.prisma.skuMapping.findMany({ orderBy: { sourceKey: "asc" } })).map(
      ({ sourceKind, sourceKey, targets, label }) => ({
        sourceKind,
        sourceKey,
        targets,
        label,
      }),
    );
    expect(after).toEqual(before);
    expect(await exportCsv(SHOP_A, "sku_mappings")).toBe(exported);
  });

  it("round-trips city aliases, and reads a semicolon file with a city given by name", async () => {
    await save(SHOP_A, { intent: "saveAlias", alias: "Casa Anfa", cityId: "101" });
    await save(SHOP_A, { intent: "saveAlias", alias: "الرباط العاصمة", cityId: "102" });
    await app.db.prisma.cityAlias.updateMany({ where: { cityId: 102 }, data: { source: "learned" } });
    const exported = await exportCsv(SHOP_A, "city_aliases");
    expect(exported.split("\r\n")[0]).toBe("\uFEFFalias,city_id,city_name,source");
    expect(exported).toContain(",101,Casablanca,manual");
    expect(exported).toContain(",102,Rabat,learned");

    await app.db.prisma.cityAlias.deleteMany();
    expect(await save(SHOP_A, { intent: "importCsv", csv: exported })).toMatchObject({
      ok: true,
      kind: "city_aliases",
      saved: 2,
    });
    expect(await exportCsv(SHOP_A, "city_aliases")).toBe(exported);

    expect(
      await save(SHOP_A, { intent: "importCsv", csv: "alias;city_id;city_name;source\nSidi Maarouf;;casablanca;\n" }),
    ).toMatchObject({
      ok: true,
      saved: 1,
    });
    expect(await app.db.prisma.cityAlias.count({ where: { shop: SHOP_A, cityId: 101 } })).toBe(2);
  });

  it("reports every bad row by line number and saves nothing, not even the good rows", async () => {
    const csv = [
      "kind,source,platform_sku,platform_product_id,quantity,label",
      "sku,GOOD-1,AMLOU-250,,1,ok",
      "box,X,AMLOU-250,,1,",
      "variant,abc,AMLOU-250,,1,",
      "sku,TWO,AMLOU-250,1004,1,",
      "sku,ZERO,AMLOU-250,,0,",
      "",
      "sku,NONE,,,1,",
      "sku,GOOD-1,SAVON-NOIR-200,,1,other label",
    ].join("\n");
    const result = await save(SHOP_A, { intent: "importCsv", csv });
    expect(result).toMatchObject({ intent: "importCsv", ok: false, kind: "sku_mappings" });
    const errors = result.intent === "importCsv" && !result.ok ? result.errors : [];
    expect(errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [3, "kind", "bad_kind"],
      [4, "source", "bad_variant_id"],
      [5, "platform_sku", "two_targets"],
      [6, "quantity", "bad_quantity"],
      [8, "platform_sku", "no_target"],
      [9, "label", "label_conflict"],
    ]);
    expect(await app.db.prisma.skuMapping.count()).toBe(0);

    const aliases = await save(SHOP_A, {
      intent: "importCsv",
      csv: "alias,city_id\nCasa Anfa,101\nAtlantis,999\ncasa  anfa,101\n",
    });
    expect(
      aliases.intent === "importCsv" && !aliases.ok ? aliases.errors.map((e) => [e.row, e.code]) : aliases,
    ).toEqual([
      [3, "unknown_city"],
      [4, "duplicate_alias"],
    ]);
    expect(await app.db.prisma.cityAlias.count()).toBe(0);

    const header = await save(SHOP_A, { intent: "importCsv", csv: "sku,target\nA,B\n" });
    expect(header).toMatchObject({ ok: false, kind: null, errors: [{ row: 1, code: "unknown_header" }] });
    const quote = await save(SHOP_A, { intent: "importCsv", csv: 'kind,source,platform_sku,quantity\nsku,"A,B\n' });
    expect(quote).toMatchObject({ ok: false, errors: [{ row: 2, code: "unclosed_quote" }] });
  });
});

describe("a saved fix releases the orders waiting on it", () => {
  /** An order held as the pipeline holds it: a real payload, the mapper's findings with the shop's rules of now. */
  async function heldOrder(shop: string, id: number, items: OrderSpec["items"], city = "Casablanca") {
    const payload = webhookOrder({ id, name: `#${id}`, phone: `0663${String(id).padStart(6, "0")}`, items, city });
    const row = await app.db.prisma.shop.findUniqueOrThrow({ where: { domain: shop } });
    const result = mapOrderToLead(fromWebhookOrder(payload), {
      now: new Date(),
      catalogue: JSON.parse(row.catalogueJson!),
      cities: JSON.parse(row.citiesJson!),
      catalogueFetchedAt: new Date(),
      citiesFetchedAt: new Date(),
    });
    expect(result.decision).toBe("hold");
    return app.db.prisma.orderLink.create({
      data: {
        shop,
        orderId: String(id),
        orderName: `#${id}`,
        payload: JSON.stringify(payload),
        externalRef: `shopify:${id}`,
        state: "held",
        findings: JSON.stringify(result.findings),
      },
    });
  }
  beforeEach(async () => {
    await app.db.prisma.job.deleteMany();
    await app.db.prisma.timelineEvent.deleteMany();
    await app.db.prisma.orderLink.deleteMany();
  });

  it("maps a variant from the Products tab: the orders it frees are named, their findings rewritten at once, sent on one confirmation", async () => {
    const items = [{ sku: "NOT-ON-PLATFORM-9", title: "Lampe zellige", variantId: 5501, price: "300.00" }];
    const freed = [await heldOrder(SHOP_A, 880_001, items), await heldOrder(SHOP_A, 880_002, items)];
    // Held for the same product and something else too (no phone): rechecked, still held.
    const stillHeld = await heldOrder(SHOP_A, 880_003, [{ ...items[0] }]);
    await app.db.prisma.orderLink.update({
      where: { id: stillHeld.id },
      data: { payload: JSON.stringify(webhookOrder({ id: 880_003, phone: null, items })) },
    });
    const otherShop = await heldOrder(SHOP_B, 880_004, items);

    const result = await mapping(SHOP_A, "variant", "5501", [{ sku: "ARG-OIL-100", quantity: 1 }], "Lampe zellige");

    expect(result).toMatchObject({ intent: "saveMapping", ok: true, release: { stillHeld: 1 } });
    const release = (result as { release: { orders: { id: string; orderName: string }[] } }).release;
    expect(release.orders.map((o) => o.orderName).sort()).toEqual(["#880001", "#880002"]);
    // No order page can show the stale "not in the catalogue" finding any more, sent or not.
    for (const link of await app.db.prisma.orderLink.findMany({ where: { shop: SHOP_A } })) {
      expect(link.findings, link.orderName).not.toContain("sku_unmatched");
      expect(link.state).toBe("held");
    }
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: otherShop.id } })).findings).toContain(
      "sku_unmatched",
    );

    // Without the count their confirmation stated, more than one order is not sent.
    const ids = [...release.orders.map((o) => o.id), otherShop.id].join(",");
    expect(await save(SHOP_A, { intent: "sendReleased", ids })).toEqual({
      intent: "sendReleased",
      ok: false,
      error: "group_changed",
    });
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_A } })).toBe(0);
    // One confirmation sends them, and only the shop's own, still waiting ones.
    const sent = await save(SHOP_A, { intent: "sendReleased", ids, count: "3" });
    expect(sent).toEqual({ intent: "sendReleased", ok: true, sent: 2 });
    expect(
      (await app.db.prisma.orderLink.findMany({ where: { id: { in: freed.map((l) => l.id) } } })).map((l) => l.state),
    ).toEqual(["received", "received"]);
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_A, state: "pending" } })).toBe(2);
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: otherShop.id } })).state).toBe("held");
  });

  it("learns a city spelling from the Cities tab and names the orders it frees", async () => {
    const held = await heldOrder(SHOP_A, 881_001, undefined, "Xyzzyville");
    const result = await save(SHOP_A, { intent: "saveAlias", alias: "Xyzzyville", cityId: "101" });
    expect(result).toMatchObject({
      intent: "saveAlias",
      ok: true,
      release: { orders: [{ id: held.id, orderName: "#881001" }], stillHeld: 0 },
    });
    expect((await app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } })).findings).not.toContain(
      "city_unmatched",
    );
  });
});
