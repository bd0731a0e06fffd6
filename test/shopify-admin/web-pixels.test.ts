/**
 * Web pixels in the Shopify stand-in, as the app registers its conversion
 * pixel: settings checked against the extension's TOML, one pixel per app and
 * shop (TAKEN), updated, read back, deleted; and the app's registration, which
 * creates it, updates it when it is already there, and removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { registerWebPixel, removeWebPixel } from "../../app/ad-feed/web-pixel.server";
import type { AdminGraphqlClient } from "../../app/shopify/admin-graphql.server";
import { graphql } from "./helpers";

const SHOP = "pixels.myshopify.com";
const COLLECT = "https://app.example.com/api/pixel/cm0abcdefghijklmnopqrstu";
let admin: RunningShopifyAdmin;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  admin.shop(SHOP);
});
afterAll(() => admin?.close());

const run = async (document: string, variables: Record<string, unknown> = {}) =>
  (await graphql(admin.url, SHOP, document, variables)).body.data as Record<string, Record<string, unknown>>;

/** The stand-in behind the client shape the app's Admin calls take. */
const client: AdminGraphqlClient = {
  graphql: (async (document: string, options?: { variables?: Record<string, unknown> }) => {
    const answer = await graphql(admin.url, SHOP, document, options?.variables ?? {});
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  }) as unknown as AdminGraphqlClient["graphql"],
};

describe("web pixels in the Shopify stand-in", () => {
  it("GIVEN settings the extension does not declare, or a short value WHEN created THEN INVALID_SETTINGS", async () => {
    const unknown = await run(documents.WEB_PIXEL_CREATE, {
      webPixel: { settings: JSON.stringify({ accountID: "1" }) },
    });
    expect(unknown.webPixelCreate.userErrors).toEqual([
      { code: "INVALID_SETTINGS", field: ["webPixel", "settings"], message: "Unknown settings: accountID." },
    ]);
    const empty = await run(documents.WEB_PIXEL_CREATE, { webPixel: { settings: JSON.stringify({ collectUrl: "" }) } });
    expect((empty.webPixelCreate.userErrors as { code: string }[])[0].code).toBe("INVALID_SETTINGS");
  });

  it("GIVEN the app's registration WHEN run twice THEN one pixel, updated, then removed", async () => {
    const id = await registerWebPixel(client, COLLECT, null);
    expect(id).toMatch(/^gid:\/\/shopify\/WebPixel\/\d+$/);
    // Lost its id (a reinstall): create answers TAKEN, the registration updates the shop's own.
    const again = await registerWebPixel(client, `${COLLECT}x`, null);
    expect(again).toBe(id);
    expect(JSON.parse(String((await run(documents.WEB_PIXEL)).webPixel.settings))).toEqual({
      collectUrl: `${COLLECT}x`,
    });
    await removeWebPixel(client, id);
    expect((await run(documents.WEB_PIXEL)).webPixel).toBeNull();
    // Already gone: fine.
    await removeWebPixel(client, id);
  });
});
