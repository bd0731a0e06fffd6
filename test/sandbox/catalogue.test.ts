import { describe, expect, it } from "vitest";
import { type CitiesBody, type ProductsBody, useSandbox } from "./helpers";

const sb = useSandbox();

describe("GET /v1/products", () => {
  it("GIVEN the first seller THEN public products plus its own private ones, never another seller's", async () => {
    const res = await sb.call<ProductsBody>("GET", "/v1/products");
    expect(res.status).toBe(200);
    const skus = res.body.data.map((p) => p.sku);
    expect(skus).toEqual(
      expect.arrayContaining(["ARG-OIL-50", "SMW-X8", "ATLS-HONEY-500", "ATLS-SAFFRON-2G", "ATLS-GIFTBOX"]),
    );
    expect(skus).not.toContain("RIF-OLIVE-1L");
    expect(
      res.body.data
        .filter((p) => p.private)
        .map((p) => p.sku)
        .sort(),
    ).toEqual(["ATLS-GIFTBOX", "ATLS-HONEY-500", "ATLS-SAFFRON-2G"]);
  });

  it("GIVEN the second seller THEN its own private product and none of the first's", async () => {
    const res = await sb.call<ProductsBody>("GET", "/v1/products", { key: sb.keys[1].key });
    const skus = res.body.data.map((p) => p.sku);
    expect(res.body.data.filter((p) => p.private).map((p) => p.sku)).toEqual(["RIF-OLIVE-1L"]);
    expect(skus.some((s) => s.startsWith("ATLS-"))).toBe(false);
    expect(skus).toContain("ARG-OIL-50");
  });

  it("shows platform prices, stock and variants, and no other price", async () => {
    const res = await sb.call<ProductsBody>("GET", "/v1/products");
    const watch = res.body.data.find((p) => p.sku === "SMW-X8");
    expect(watch).toMatchObject({ id: 1007, platform_price: "119.00", in_stock: true, private: false });
    expect(watch?.variants).toEqual([
      { id: 100701, sku: "SMW-X8-BLK", name: "Noir", in_stock: true },
      { id: 100702, sku: "SMW-X8-SLV", name: "Argent", in_stock: true },
      { id: 100703, sku: "SMW-X8-PNK", name: "Rose", in_stock: false },
    ]);
    expect(res.body.data.find((p) => p.sku === "SHAVER-3D")?.in_stock).toBe(false);
    for (const p of res.body.data) {
      expect(Object.keys(p).sort()).toEqual(["id", "in_stock", "name", "platform_price", "private", "sku", "variants"]);
      expect(p.platform_price).toMatch(/^\d+\.\d{2}$/);
    }
  });
});

describe("GET /v1/cities", () => {
  it("lists the delivered cities with their delivery fees", async () => {
    const res = await sb.call<CitiesBody>("GET", "/v1/cities");
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(98);
    expect(res.body.data[0]).toEqual({ id: 101, name: "Casablanca", delivery_fee: "20.00" });
    expect(res.body.data.find((c) => c.name === "Kénitra")?.delivery_fee).toBe("30.00");
    for (const c of res.body.data) expect(c.delivery_fee).toMatch(/^\d+\.\d{2}$/);
  });
});
