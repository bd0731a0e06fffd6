/**
 * A shop with its conversion feed, against real servers on loopback: the
 * sandbox (the platform), the Shopify Admin stand-in (the storefront pixel's
 * registration) and the Meta and TikTok stand-ins; the pipeline's worker on a
 * fresh database. Orders are placed through intake, posted, moved on the
 * sandbox, synced, and their outcomes told.
 */
import { vi } from "vitest";
import { sandboxControl, startSandbox } from "../../sandbox/index";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { adStandInControl, startMetaStandIn, startTikTokStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import type { AdminGraphqlClient } from "../../app/shopify/admin-graphql.server";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { standInAdmin } from "../../scripts/dev/lib/stand-in-admin";

export { SHOP };
export const DATASET = "1234567890123";
export const META_TOKEN = "EAAGm0PX4ZCpsBAfeedtest0123456789";
export const PIXEL = "CABCDEFGHIJ1234567890";
export const TIKTOK_TOKEN = "tt-4b7c0d0e9f1a2b3c4d5e6f7a8b9c";

export interface FeedWorld {
  db: TestDatabase;
  sandboxUrl: string;
  platform: ReturnType<typeof sandboxControl>;
  meta: RunningStandIn;
  tiktok: RunningStandIn;
  metaControl: ReturnType<typeof adStandInControl>;
  tiktokControl: ReturnType<typeof adStandInControl>;
  shopify: RunningShopifyAdmin;
  admin: AdminGraphqlClient;
  pipeline: TestPipeline;
  close(): Promise<void>;
}

export async function startFeedWorld(): Promise<FeedWorld> {
  const db = await useTestDatabaseForApp();
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  const meta = await startMetaStandIn();
  const tiktok = await startTikTokStandIn();
  const shopify = await startShopifyAdmin({ quiet: true });
  shopify.shop(SHOP);
  // The app reaches the stand-ins through its configured base URLs.
  vi.stubEnv("META_API_BASE_URL", meta.url);
  vi.stubEnv("TIKTOK_API_BASE_URL", tiktok.url);
  return {
    db,
    sandboxUrl: sandbox.url,
    platform: sandboxControl(sandbox.url),
    meta,
    tiktok,
    metaControl: adStandInControl(meta.url),
    tiktokControl: adStandInControl(tiktok.url),
    shopify,
    admin: standInAdmin(shopify.url, SHOP),
    pipeline: undefined as unknown as TestPipeline,
    async close() {
      await Promise.all([sandbox.close(), meta.close(), tiktok.close(), shopify.close()]);
      await db.cleanup();
      vi.unstubAllEnvs();
    },
  };
}

/** A fresh shop, platform and stand-ins for each test; the credentials the stand-ins accept. */
export async function resetFeedWorld(world: FeedWorld): Promise<void> {
  const { keys } = await world.platform.reset();
  await world.platform.config({ rate_limit_per_minute: 100_000 });
  for (const table of [
    "adEvent",
    "adClick",
    "adFeed",
    "job",
    "timelineEvent",
    "orderLink",
    "pendingLeadEvent",
  ] as const)
    await (world.db.prisma[table] as unknown as { deleteMany(): Promise<unknown> }).deleteMany();
  await world.metaControl.reset();
  await world.tiktokControl.reset();
  await world.metaControl.credentials({ id: DATASET, token: META_TOKEN, name: "Atlas Beauty COD" });
  await world.tiktokControl.credentials({ id: PIXEL, token: TIKTOK_TOKEN });
  await connectTestShop(world.db.prisma, {
    apiKey: keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: world.sandboxUrl,
  });
  world.pipeline = testPipeline(world.db.prisma);
}

let nextOrderId = 6_660_000_000_000;

/** An order placed at Shopify's checkout in a browser (client_details, checkout_token), or by a form app through the API. */
export function feedOrder(spec: Partial<OrderSpec> & { checkout?: boolean } = {}): Record<string, unknown> {
  const id = spec.id ?? nextOrderId++;
  const order = webhookOrder({
    ...spec,
    id,
    phone: spec.phone ?? `06${String(10000000 + (id % 90_000_000)).padStart(8, "0")}`,
  });
  if (spec.checkout === false) return { ...order, source_name: "4555605" };
  return {
    ...order,
    checkout_token: `chk-${id}`,
    client_details: { browser_ip: "105.66.12.34", user_agent: "Mozilla/5.0 (Linux; Android 14) Mobile" },
  };
}
