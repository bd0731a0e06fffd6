/**
 * The conversion feed's part of Settings, through the route with real session
 * tokens: connecting Meta and TikTok (a refused token is a clear error naming
 * the platform's answer and saves nothing; a good one is verified and sealed),
 * switching the feed on (the storefront pixel registered on the Shopify
 * stand-in, its collect URL scoped to the shop) and off (the pixel removed,
 * what waited cancelled). The tokens never appear in a page, an answer or a
 * log line.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adStandInControl, startMetaStandIn, startTikTokStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { isSealedSecret } from "../../app/crypto/secret-box.server";
import { log } from "../../app/runtime/logger.server";
import { load, SHOP_A, startAdminApp, stopAdminApp, submit, type AdminApp } from "../pages/helpers";

type SettingsRoute = typeof import("../../app/routes/app.settings");

const DATASET = "1234567890123";
const META_TOKEN = "EAAGm0PX4ZCpsBAsettings0123456789";
const WRONG_TOKEN = "EAAGwrong0000000000000000000000";
const PIXEL = "CABCDEFGHIJ1234567890";
const TIKTOK_TOKEN = "tt-settings-4b7c0d0e9f1a2b3c4d5e";

let app: AdminApp;
let route: SettingsRoute;
let meta: RunningStandIn;
let tiktok: RunningStandIn;
let shopify: RunningShopifyAdmin;
const lines: string[] = [];

beforeAll(async () => {
  meta = await startMetaStandIn();
  tiktok = await startTikTokStandIn();
  shopify = await startShopifyAdmin({ quiet: true });
  shopify.shop(SHOP_A);
  app = await startAdminApp({ META_API_BASE_URL: meta.url, TIKTOK_API_BASE_URL: tiktok.url });
  // The settings action's Admin calls (webPixelCreate) go to the stand-in.
  await shopify.installFetchRewrite();
  route = await import("../../app/routes/app.settings");
  await adStandInControl(meta.url).credentials({ id: DATASET, token: META_TOKEN, name: "Atlas Beauty COD" });
  await adStandInControl(tiktok.url).credentials({ id: PIXEL, token: TIKTOK_TOKEN });
  for (const level of ["info", "warn", "error"] as const)
    vi.spyOn(log, level).mockImplementation(
      (line: unknown, fields?: unknown) => void lines.push(`${String(line)} ${JSON.stringify(fields ?? {})}`),
    );
});
afterAll(async () => {
  vi.restoreAllMocks();
  await stopAdminApp(app);
  await Promise.all([meta?.close(), tiktok?.close(), shopify?.close()]);
});

const connect = (platform: string, id: string, token: string) =>
  submit(route.action, SHOP_A, "/app/settings", { intent: "adFeedConnect", platform, id, token });
const saveFeed = (fields: Record<string, string>) =>
  submit(route.action, SHOP_A, "/app/settings", {
    intent: "adFeedSave",
    enabled: "true",
    stage: "delivered",
    naming: "custom",
    negativeOutcomes: "false",
    withoutConsentSignal: "false",
    ...fields,
  });

describe("conversion feed settings", () => {
  it("GIVEN nothing connected WHEN the feed is switched on THEN it asks to connect a platform first", async () => {
    expect(await saveFeed({})).toEqual({ intent: "adFeedSave", ok: false, error: "connect_first" });
  });

  it("GIVEN a token Meta refuses WHEN connecting THEN a clear error with Meta's answer, nothing saved", async () => {
    const answer = await connect("meta", DATASET, WRONG_TOKEN);
    expect(answer).toEqual({
      intent: "adFeedConnect",
      platform: "meta",
      ok: false,
      error: "refused",
      platformMessage: "Invalid OAuth access token - Cannot parse access token",
    });
    expect(await app.db.prisma.adFeed.count()).toBe(0);
    expect(await connect("meta", "pixel-12", META_TOKEN)).toMatchObject({ ok: false, error: "invalid_id" });
    expect(await connect("meta", DATASET, "short")).toMatchObject({ ok: false, error: "invalid_token" });
  });

  it("GIVEN good tokens WHEN connecting THEN each is verified, sealed at rest, and shown by its last four characters only", async () => {
    expect(await connect("meta", DATASET, META_TOKEN)).toMatchObject({
      ok: true,
      view: { meta: { id: DATASET, name: "Atlas Beauty COD", tokenLast4: "6789" } },
    });
    expect(await connect("tiktok", PIXEL.toLowerCase(), TIKTOK_TOKEN)).toMatchObject({
      ok: true,
      view: { tiktok: { id: PIXEL, tokenLast4: "4d5e" } },
    });
    const row = await app.db.prisma.adFeed.findUniqueOrThrow({ where: { shop: SHOP_A } });
    expect(isSealedSecret(row.metaTokenCipher!)).toBe(true);
    expect(isSealedSecret(row.tiktokTokenCipher!)).toBe(true);
    // A blank token checks the saved one again, only for the id it was verified with.
    expect(await connect("meta", DATASET, "")).toMatchObject({ ok: true });
    expect(await connect("meta", "999999999", "")).toMatchObject({ ok: false, error: "token_required" });
    // TikTok's check is one test event, never counted.
    expect((await adStandInControl(tiktok.url).received()).events.every((e) => e.test)).toBe(true);
  });

  it("GIVEN platforms connected WHEN the feed is switched on and off THEN the storefront pixel is added with the shop's collect URL, then removed", async () => {
    const on = await saveFeed({ stage: "shipped", negativeOutcomes: "true" });
    expect(on).toMatchObject({ intent: "adFeedSave", ok: true, pixelFailure: null, view: { pixelRegistered: true } });
    const feed = await app.db.prisma.adFeed.findUniqueOrThrow({ where: { shop: SHOP_A } });
    expect(feed).toMatchObject({ enabled: true, stage: "shipped", negativeOutcomes: true });
    expect(JSON.parse(shopify.shop(SHOP_A).webPixel!.settings)).toEqual({
      collectUrl: `${process.env.SHOPIFY_APP_URL!.replace(/\/$/, "")}/api/pixel/${feed.pixelToken}`,
    });
    await app.db.prisma.adEvent.create({
      data: {
        shop: SHOP_A,
        linkId: "l1",
        stage: "shipped",
        platform: "meta",
        occurredAt: new Date(),
        day: "2026-11-27",
      },
    });
    expect(await saveFeed({ enabled: "false" })).toMatchObject({ ok: true, view: { pixelRegistered: false } });
    expect(shopify.shop(SHOP_A).webPixel).toBeNull();
    expect(await app.db.prisma.adEvent.findFirstOrThrow()).toMatchObject({ state: "cancelled" });
  });

  it("GIVEN Shopify fails while adding the pixel WHEN the feed is switched on THEN the page is told what failed, and a retry adds it", async () => {
    shopify.shop(SHOP_A).userErrorsNext.webPixelCreate = [
      { field: ["webPixel"], message: "An unexpected error occurred.", code: "UNEXPECTED_ERROR" },
    ];
    expect(await saveFeed({})).toMatchObject({
      ok: true,
      pixelFailure: { kind: "refused" },
      view: { settings: { enabled: true } },
    });
    expect(shopify.shop(SHOP_A).webPixel).toBeNull();
    expect(await submit(route.action, SHOP_A, "/app/settings", { intent: "adFeedPixel" })).toMatchObject({
      pixelFailure: null,
      view: { pixelRegistered: true },
    });
  });

  it("GIVEN all of the above WHEN the page loads THEN no token is in its data, an answer or a log line", async () => {
    const page = JSON.stringify(await load(route.loader, SHOP_A, "/app/settings"));
    expect(page).toContain("Atlas Beauty COD");
    for (const secret of [META_TOKEN, WRONG_TOKEN, TIKTOK_TOKEN]) {
      expect(page).not.toContain(secret);
      expect(lines.join("\n")).not.toContain(secret);
    }
  });
});
