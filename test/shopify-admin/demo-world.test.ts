/**
 * The demo shop world: a fixed-seed catalogue and 60 days of orders, loadable through
 * the control API and the CLI, that backfill-style queries page through.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDERS_PAGE, PRODUCT_VARIANTS_PAGE } from "../../app/shopify/documents";
import { ORDERS_PER_PAGE, ordersQuery } from "../../app/sync/backfill/progress";
import {
  demoCatalogue,
  demoWorld,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { graphql } from "./helpers";

const SHOP = "demo-argan.myshopify.com";
const NOW = "2026-11-20T12:00:00.000Z";
const DAY = 86_400_000;
let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  control = shopifyAdminControl(admin.url);
});
afterAll(() => admin?.close());

type OrderNode = {
  id: string;
  createdAt: string;
  cancelledAt: string | null;
  displayFinancialStatus: string;
  paymentGatewayNames: string[];
  shippingAddress: { city: string; countryCodeV2: string };
  lineItems: { nodes: { sku: string | null; quantity: number; variant: { id: string } | null }[] };
};

describe("the demo world", () => {
  it("is the same for the same seed and time, and differs for another seed", () => {
    const a = demoWorld({ nowMs: Date.parse(NOW) });
    const b = demoWorld({ nowMs: Date.parse(NOW) });
    const strip = (w: typeof a) =>
      w.orders!.map((o) => [
        o.id,
        o.createdAt,
        o.displayFinancialStatus,
        o.lineItems.map((l) => l.sku),
        (o.shippingAddress as { city: string }).city,
      ]);
    expect(strip(a)).toEqual(strip(b));
    expect(strip(demoWorld({ nowMs: Date.parse(NOW), seed: 7 }))).not.toEqual(strip(a));
  });

  it("has a catalogue with platform SKUs, SKUs to map, a variant without SKU, a bundle and an archived product", () => {
    const platform = new Set(
      (
        JSON.parse(readFileSync("sandbox/seed/products.json", "utf8")) as { sku: string; variants: { sku: string }[] }[]
      ).flatMap((p) => [p.sku, ...p.variants.map((v) => v.sku)]),
    );
    const { products, skusOnPlatform } = demoCatalogue();
    const variants = products.flatMap((p) => p.variants);
    for (const sku of skusOnPlatform) expect(platform.has(sku), sku).toBe(true);
    expect(
      variants
        .filter((v) => v.sku && platform.has(v.sku))
        .map((v) => v.sku)
        .sort(),
    ).toEqual([...skusOnPlatform].sort());
    const unknown = variants.filter((v) => v.sku && !platform.has(v.sku)).map((v) => v.sku);
    expect(unknown).toEqual(
      expect.arrayContaining(["DJELLABA-BRODEE-M", "ARGAN-BIO-30", "PACK-RAMADAN", "jlb-sandal-41 "]),
    );
    expect(variants.filter((v) => v.sku === null).map((v) => v.displayName)).toEqual(["Amlou maison - Default Title"]);
    expect(products.filter((p) => p.productType === "Bundle").map((p) => p.variants[0].sku)).toEqual(["PACK-RAMADAN"]);
    expect(products.filter((p) => p.status === "ARCHIVED").map((p) => p.title)).toEqual([
      "Crème solaire SPF 50 (ancienne formule)",
    ]);
  });

  it("loads through the control API and serves its variants and orders", async () => {
    const summary = await control.loadShop(SHOP, { world: "demo", now: NOW });
    expect(summary).toMatchObject({ loaded: true, products: 14, variants: 20, orders: 360 });
    const page = await graphql(admin.url, SHOP, PRODUCT_VARIANTS_PAGE, { first: 50, query: "sku:PACK-RAMADAN" });
    expect(page.body.data).toMatchObject({
      productVariants: { nodes: [{ sku: "PACK-RAMADAN", product: { title: "Pack Ramadan" } }] },
    });
    const active = await graphql(admin.url, SHOP, PRODUCT_VARIANTS_PAGE, { first: 50, query: "product_status:active" });
    expect((active.body.data!.productVariants as { nodes: unknown[] }).nodes).toHaveLength(19);
  });

  it("spreads several hundred orders over 60 days: COD and card, many cities, some cancelled or refunded", async () => {
    const orders = await control.orders(SHOP);
    expect(orders).toHaveLength(360);
    const times = orders.map((o) => Date.parse(o.createdAt));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Date.parse(NOW) - 60 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.parse(NOW));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const world = demoWorld({ nowMs: Date.parse(NOW) }).orders!;
    const gateways = new Set(world.map((o) => (o.paymentGatewayNames as string[])[0]));
    expect(gateways).toEqual(new Set(["Cash on Delivery (COD)", "shopify_payments"]));
    const cod = world.filter((o) => (o.paymentGatewayNames as string[])[0].includes("COD")).length;
    expect(cod / world.length).toBeGreaterThan(0.6);
    expect(cod / world.length).toBeLessThan(0.9);
    expect(new Set(world.map((o) => (o.shippingAddress as { province: string }).province)).size).toBeGreaterThanOrEqual(
      6,
    );
    expect(world.filter((o) => o.cancelledAt).length).toBeGreaterThanOrEqual(5);
    expect(world.filter((o) => String(o.displayFinancialStatus).includes("REFUNDED")).length).toBeGreaterThanOrEqual(5);
    // Open COD orders can be fulfilled: one OPEN fulfilment order holding every line.
    const open = orders.filter((o) => o.fulfillmentOrders[0].status === "OPEN");
    expect(open.length).toBeGreaterThan(100);
    for (const o of open)
      expect(o.fulfillmentOrders[0].lineItems.map((l) => l.remainingQuantity)).toEqual(
        o.lineItems.map((l) => l.quantity),
      );
  });

  it("pages through the last 30 days as the backfill does, each order once and only those of the range", async () => {
    const to = NOW.slice(0, 10);
    const from = new Date(Date.parse(NOW) - 29 * DAY).toISOString().slice(0, 10);
    const query = ordersQuery(from, to);
    const seen: OrderNode[] = [];
    let after: string | null = null;
    let pages = 0;
    let throttled = 0;
    for (;;) {
      const answer = await graphql(admin.url, SHOP, ORDERS_PAGE, { first: ORDERS_PER_PAGE, after, query });
      const cost = answer.body.extensions!.cost;
      if (Array.isArray(answer.body.errors) && answer.body.errors[0].extensions?.code === "THROTTLED") {
        // As the app does: wait what the cost says (here on the stand-in's clock), then ask again.
        throttled += 1;
        await control.advanceClock(
          (cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable) / cost.throttleStatus.restoreRate,
        );
        continue;
      }
      expect(answer.body.errors).toBeUndefined();
      const data = answer.body.data as {
        orders: { nodes: OrderNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      };
      seen.push(...data.orders.nodes);
      pages += 1;
      if (!data.orders.pageInfo.hasNextPage) break;
      after = data.orders.pageInfo.endCursor;
    }
    const expected = (await control.orders(SHOP)).filter(
      (o) =>
        o.createdAt >= `${from}T00:00:00` && o.createdAt < new Date(Date.parse(`${to}T00:00:00Z`) + DAY).toISOString(),
    );
    expect(expected.length).toBeGreaterThan(120);
    expect(seen.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    expect(pages).toBe(Math.ceil(expected.length / ORDERS_PER_PAGE));
    // Each page asks ~930 points and spends ~50: the bucket runs dry within the run.
    expect(throttled).toBeGreaterThan(0);
    expect(seen.every((o) => o.shippingAddress.countryCodeV2 === "MA" && o.lineItems.nodes.length > 0)).toBe(true);
    expect(seen.some((o) => o.lineItems.nodes.some((l) => l.sku === null))).toBe(true);
  });

  it("is loaded by the CLI's --demo-shop flag", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "shopify-admin/cli.ts", "--port", "0", "--demo-shop", SHOP],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let out = "";
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect(out).toContain(`shop ${SHOP} demo world: 14 products, 20 variants, 360 orders`);
      expect(await shopifyAdminControl(url).shop(SHOP)).toMatchObject({ loaded: true, orders: 360 });
    } finally {
      child.kill("SIGTERM");
    }
  });
});
