import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidCityAliasError, InvalidSkuMappingError, mapOrderToLead, matchCity } from "../../app/leads";
import { deleteCityAlias, listCityAliases, saveCityAlias } from "../../app/models/city-alias.server";
import { deleteSkuMapping, listSkuMappings, upsertSkuMapping } from "../../app/models/sku-mapping.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { cities, cityId, context, line, order, withAddress } from "./helpers";

const SHOP = "atlas-beauty.myshopify.com";
const OTHER = "rif-market.myshopify.com";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.cleanup();
});

describe("SKU mappings", () => {
  it("stores a mapping under the key the matcher looks up, and replaces it on upsert", async () => {
    const created = await upsertSkuMapping(db.prisma, SHOP, {
      sourceKind: "sku",
      sourceKey: " pack ramadan-1 ",
      targets: [{ sku: " AMLOU-250 ", quantity: 2 }],
      label: "Ramadan pack",
    });
    expect(created).toMatchObject({
      sourceKind: "sku",
      sourceKey: "PACKRAMADAN-1",
      targets: [{ sku: "AMLOU-250", quantity: 2 }],
      targetsValid: true,
    });

    const replaced = await upsertSkuMapping(db.prisma, SHOP, {
      sourceKind: "sku",
      sourceKey: "PACKRAMADAN-1",
      targets: [
        { product_id: 1003, quantity: 1 },
        { sku: "ROSE-WATER-250", quantity: 1 },
      ],
    });
    expect(replaced.id).toBe(created.id);
    expect(replaced.label).toBeNull();
    const listed = await listSkuMappings(db.prisma, SHOP);
    expect(listed.filter((m) => m.sourceKey === "PACKRAMADAN-1")).toHaveLength(1);
  });

  it("keeps variant ids as digits, from a gid too", async () => {
    const m = await upsertSkuMapping(db.prisma, SHOP, {
      sourceKind: "variant",
      sourceKey: "gid://shopify/ProductVariant/44123456789001",
      targets: [{ sku: "ARG-OIL-50", quantity: 1 }],
    });
    expect(m.sourceKey).toBe("44123456789001");
  });

  it.each([
    [{ sourceKind: "variant", sourceKey: "abc", targets: [{ sku: "X", quantity: 1 }] }, "sourceKey"],
    [{ sourceKind: "sku", sourceKey: "  ", targets: [{ sku: "X", quantity: 1 }] }, "sourceKey"],
    [{ sourceKind: "sku", sourceKey: "A", targets: [] }, "targets"],
    [{ sourceKind: "sku", sourceKey: "A", targets: [{ sku: "X", quantity: 0 }] }, "targets[0].quantity"],
    [{ sourceKind: "sku", sourceKey: "A", targets: [{ sku: "X", product_id: 3, quantity: 1 }] }, "targets[0]"],
    [{ sourceKind: "other", sourceKey: "A", targets: [{ sku: "X", quantity: 1 }] }, "sourceKind"],
  ])("refuses %j naming the field", async (input, field) => {
    // @ts-expect-error: deliberately malformed input, as a form could post it
    const attempt = upsertSkuMapping(db.prisma, SHOP, input);
    await expect(attempt).rejects.toBeInstanceOf(InvalidSkuMappingError);
    await expect(attempt).rejects.toMatchObject({ field });
  });

  it("scopes every read and delete by shop", async () => {
    const mine = await upsertSkuMapping(db.prisma, SHOP, {
      sourceKind: "sku",
      sourceKey: "SHARED",
      targets: [{ sku: "ARG-OIL-50", quantity: 1 }],
    });
    const theirs = await upsertSkuMapping(db.prisma, OTHER, {
      sourceKind: "sku",
      sourceKey: "SHARED",
      targets: [{ sku: "RIF-OLIVE-1L", quantity: 1 }],
    });
    expect((await listSkuMappings(db.prisma, OTHER)).map((m) => m.id)).toEqual([theirs.id]);
    expect(await deleteSkuMapping(db.prisma, OTHER, mine.id)).toBe(false);
    expect(await deleteSkuMapping(db.prisma, SHOP, mine.id)).toBe(true);
    expect((await listSkuMappings(db.prisma, SHOP)).some((m) => m.id === mine.id)).toBe(false);
    expect(await listSkuMappings(db.prisma, OTHER)).toHaveLength(1);
  });

  it("flags a row whose stored targets cannot be read, and the mapper ignores it", async () => {
    await db.prisma.skuMapping.create({
      data: { shop: SHOP, sourceKind: "sku", sourceKey: "ARG-OIL-50", targets: "{oops" },
    });
    const rows = await listSkuMappings(db.prisma, SHOP);
    expect(rows.find((r) => r.sourceKey === "ARG-OIL-50")).toMatchObject({ targetsValid: false, targets: [] });
    const result = mapOrderToLead(order({ lineItems: [line({ sku: "ARG-OIL-50" })] }), context({ skuMappings: rows }));
    expect(result.lead?.items).toEqual([{ sku: "ARG-OIL-50", quantity: 1 }]);
  });

  it("feeds the mapper: a stored bundle is applied to an order", async () => {
    await upsertSkuMapping(db.prisma, SHOP, {
      sourceKind: "variant",
      sourceKey: "900",
      targets: [
        { sku: "TEA-GLASS-6", quantity: 1 },
        { sku: "TEAPOT-INOX-1L", quantity: 1 },
      ],
    });
    const result = mapOrderToLead(
      order({
        currentTotal: { amount: "300.00", currencyCode: "MAD" },
        lineItems: [line({ variantId: "900", sku: "TEA-SET" })],
      }),
      context({ skuMappings: await listSkuMappings(db.prisma, SHOP) }),
    );
    expect(result.lead?.items).toEqual([
      { sku: "TEA-GLASS-6", quantity: 1 },
      { sku: "TEAPOT-INOX-1L", quantity: 1 },
    ]);
  });
});

describe("city aliases", () => {
  it("saves a merchant's fix normalised, and later orders match it", async () => {
    const o = withAddress(order(), { city: "Bouknadel Plage" });
    expect(mapOrderToLead(o, context()).decision).toBe("hold");

    const saved = await saveCityAlias(db.prisma, SHOP, {
      alias: "  BOUKNADEL-plage ",
      cityId: cityId("Salé"),
      source: "learned",
    });
    expect(saved).toMatchObject({ alias: "bouknadelplage", source: "learned", cityId: cityId("Salé") });

    const aliases = await listCityAliases(db.prisma, SHOP);
    const result = mapOrderToLead(o, context({ cityAliases: aliases }));
    expect(result).toMatchObject({ decision: "send", lead: { city: cityId("Salé") }, city: { via: "shop_alias" } });
    expect(matchCity("Bouknadel plage", cities, aliases)).toMatchObject({ status: "matched", via: "shop_alias" });
  });

  it("re-points an existing spelling instead of duplicating it", async () => {
    const first = await saveCityAlias(db.prisma, SHOP, { alias: "Hay Salam Agadir", cityId: cityId("Inezgane") });
    const second = await saveCityAlias(db.prisma, SHOP, {
      alias: "hay-salam agadir",
      cityId: cityId("Agadir"),
      source: "manual",
    });
    expect(second.id).toBe(first.id);
    expect(second.cityId).toBe(cityId("Agadir"));
    expect((await listCityAliases(db.prisma, SHOP)).filter((a) => a.alias === first.alias)).toHaveLength(1);
  });

  it.each([
    [{ alias: "Quartier", cityId: 101 }, "alias"],
    [{ alias: "", cityId: 101 }, "alias"],
    [{ alias: "Bouknadel", cityId: 0 }, "cityId"],
    [{ alias: "Bouknadel", cityId: 1.5 }, "cityId"],
  ])("refuses %j naming the field", async (input, field) => {
    const attempt = saveCityAlias(db.prisma, SHOP, input);
    await expect(attempt).rejects.toBeInstanceOf(InvalidCityAliasError);
    await expect(attempt).rejects.toMatchObject({ field });
  });

  it("scopes every read and delete by shop", async () => {
    const mine = await saveCityAlias(db.prisma, SHOP, { alias: "Sidi Rahal", cityId: cityId("Had Soualem") });
    expect((await listCityAliases(db.prisma, OTHER)).some((a) => a.id === mine.id)).toBe(false);
    expect(await deleteCityAlias(db.prisma, OTHER, mine.id)).toBe(false);
    expect(await deleteCityAlias(db.prisma, SHOP, mine.id)).toBe(true);
    expect((await listCityAliases(db.prisma, SHOP)).some((a) => a.id === mine.id)).toBe(false);
  });
});
