/**
 * Installation as Shopify does it, through @shopify/shopify-api's own code pointed at
 * the stand-in by the fetch rewrite: a session token in, an expiring offline token (and
 * its refresh token) out with the app's scopes; that token works on the Admin API, the
 * refresh and the migration of a non-expiring token work, and after an uninstall every
 * token gets a 401.
 */
import "@shopify/shopify-api/adapters/node";
import {
  ApiVersion,
  HttpResponseError,
  LogSeverity,
  RequestedTokenType,
  Session,
  shopifyApi,
  type Shopify,
} from "@shopify/shopify-api";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_VARIANTS_PAGE } from "../../app/shopify/documents";
import {
  shopifyAdminControl,
  signSessionToken,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";

const API_KEY = "stand-in-test-key";
const API_SECRET = "stand-in-test-secret";
const SCOPES = ["read_orders", "write_orders", "read_products"];
const SHOP = "fresh-install.myshopify.com";

let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;
let shopify: Shopify;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true, app: { apiKey: API_KEY, apiSecret: API_SECRET, scopes: SCOPES } });
  control = shopifyAdminControl(admin.url);
  await admin.installFetchRewrite();
  shopify = shopifyApi({
    apiKey: API_KEY,
    apiSecretKey: API_SECRET,
    scopes: SCOPES,
    hostName: "cod-lead-sync.test",
    apiVersion: ApiVersion.July26,
    isEmbeddedApp: true,
    logger: { level: LogSeverity.Error },
  });
});
afterAll(() => admin?.close());

// Valid for two hours: one test moves the stand-in's clock an hour ahead.
const sessionToken = async (shop = SHOP) =>
  (await getJwt(shop.replace(".myshopify.com", ""), API_KEY, API_SECRET, { exp: Math.floor(Date.now() / 1000) + 7200 }))
    .token;
const variants = (session: Session) =>
  new shopify.clients.Graphql({ session }).request(PRODUCT_VARIANTS_PAGE, { variables: { first: 5 } });
const statusOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof HttpResponseError ? error.response.code : error === null ? 200 : error;
};

describe("token exchange through @shopify/shopify-api", () => {
  let offline: Session;

  it("installs the shop: an expiring offline token with the app's scopes and a refresh token", async () => {
    await control.loadShop(SHOP, { variants: [{ id: 9, sku: "ARG-OIL-50", title: "50 ml" }] });
    expect((await control.shop(SHOP)).installed).toBe(false);
    ({ session: offline } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sessionToken(),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    }));
    expect(offline).toMatchObject({
      shop: SHOP,
      isOnline: false,
      scope: SCOPES.join(","),
      accessToken: expect.stringMatching(/^shpat_/),
    });
    expect(offline.refreshToken).toMatch(/^shprt_/);
    const expiresInS = (offline.expires!.getTime() - Date.now()) / 1000;
    expect(expiresInS).toBeGreaterThan(3500);
    expect(expiresInS).toBeLessThanOrEqual(3600);
    expect(offline.refreshTokenExpires!.getTime() - Date.now()).toBeGreaterThan(89 * 24 * 3600 * 1000);
    expect(await control.shop(SHOP)).toMatchObject({
      installed: true,
      installation: { scopes: SCOPES, uninstalledAt: null },
    });

    const answer = await variants(offline);
    expect(answer.data).toMatchObject({ productVariants: { nodes: [{ sku: "ARG-OIL-50" }] } });
    expect(admin.requests.at(-1)).toMatchObject({ shop: SHOP, accessToken: offline.accessToken });
  });

  it("refuses a token the shop never issued once it is installed", async () => {
    const forged = new Session({ id: offline.id, shop: SHOP, state: "", isOnline: false, accessToken: "shpat_forged" });
    expect(await statusOf(variants(forged))).toBe(401);
  });

  it("gives an online token with its user", async () => {
    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sessionToken(),
      requestedTokenType: RequestedTokenType.OnlineAccessToken,
    });
    expect(session).toMatchObject({
      isOnline: true,
      onlineAccessInfo: { associated_user: { id: expect.any(Number), account_owner: true } },
    });
    expect(await statusOf(variants(session))).toBe(200);
  });

  it("refreshes the offline token: the new one works, the old refresh token dies once it is used", async () => {
    const { session: refreshed } = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: offline.refreshToken! });
    expect(refreshed.accessToken).not.toBe(offline.accessToken);
    expect(refreshed.refreshToken).not.toBe(offline.refreshToken);
    expect(await statusOf(variants(refreshed))).toBe(200);
    expect(await statusOf(shopify.auth.refreshToken({ shop: SHOP, refreshToken: offline.refreshToken! }))).toBe(400);
    offline = refreshed;
  });

  it("turns an expired access token into a 401", async () => {
    await control.advanceClock(3601);
    expect(await statusOf(variants(offline))).toBe(401);
    const { session } = await shopify.auth.refreshToken({ shop: SHOP, refreshToken: offline.refreshToken! });
    expect(await statusOf(variants(session))).toBe(200);
    offline = session;
  });

  it("refuses a session token meant for another shop, as invalid_subject_token", async () => {
    const otherShopsToken = signSessionToken({
      shop: "someone-else.myshopify.com",
      apiKey: API_KEY,
      apiSecret: API_SECRET,
    });
    const error = await shopify.auth
      .tokenExchange({
        shop: SHOP,
        sessionToken: otherShopsToken,
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect((error as HttpResponseError).response).toMatchObject({
      code: 400,
      body: { error: "invalid_subject_token" },
    });
  });

  it("refuses an app whose secret is not the one the stand-in was given", async () => {
    const wrong = shopifyApi({
      apiKey: API_KEY,
      apiSecretKey: "another-secret",
      scopes: SCOPES,
      hostName: "x.test",
      apiVersion: ApiVersion.July26,
      isEmbeddedApp: true,
      logger: { level: LogSeverity.Error },
    });
    const token = (await getJwt("fresh-install", API_KEY, "another-secret")).token;
    const error = await wrong.auth
      .tokenExchange({ shop: SHOP, sessionToken: token, requestedTokenType: RequestedTokenType.OfflineAccessToken })
      .catch((e: unknown) => e);
    expect((error as HttpResponseError).response).toMatchObject({ code: 400, body: { error: "invalid_client" } });
  });

  it("migrates a non-expiring offline token to an expiring one", async () => {
    const { session: legacy } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sessionToken(),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: false,
    });
    expect([legacy.expires, legacy.refreshToken]).toEqual([undefined, undefined]);
    const { session: migrated } = await shopify.auth.migrateToExpiringToken({
      shop: SHOP,
      nonExpiringOfflineAccessToken: legacy.accessToken!,
    });
    expect(migrated.refreshToken).toMatch(/^shprt_/);
    expect(await statusOf(variants(migrated))).toBe(200);
    expect(await statusOf(variants(legacy))).toBe(401);
    offline = migrated;
  });

  it("answers 401 to every token after an uninstall, and installs again through a new exchange", async () => {
    await control.uninstall(SHOP);
    expect(await control.shop(SHOP)).toMatchObject({
      installed: false,
      installation: { uninstalledAt: expect.any(Number) },
    });
    expect(await statusOf(variants(offline))).toBe(401);
    expect(await statusOf(shopify.auth.refreshToken({ shop: SHOP, refreshToken: offline.refreshToken! }))).toBe(400);

    const { session } = await shopify.auth.tokenExchange({
      shop: SHOP,
      sessionToken: await sessionToken(),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    });
    expect(await statusOf(variants(session))).toBe(200);
    expect(await statusOf(variants(offline))).toBe(401);
  });
});
