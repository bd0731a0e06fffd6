/**
 * Settings page: one save for the whole page. A new seller API key is verified
 * against the real sandbox over loopback as part of it, stored sealed, and never
 * leaves the server again; settings are validated field by field; a wrong field
 * or a refused key saves nothing; every call is scoped to the session's shop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxControl, startSandbox, type SandboxKey } from "../../sandbox/index";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { t } from "../../app/i18n";
import { adminRequest } from "../helpers/admin";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";

type SettingsRoute = typeof import("../../app/routes/app.settings");

let app: AdminApp;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let route: SettingsRoute;
let atlasKey: SandboxKey;
let rifKey: SandboxKey;
const box = () => createSecretBox(process.env.ENCRYPTION_KEY!);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  atlasKey = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  rifKey = sandbox.keys.find((k) => k.account === "ACC-1002")!;
  app = await startAdminApp({ SELLER_API_BASE_URL: sandbox.url });
  route = await import("../../app/routes/app.settings");
});
afterAll(async () => {
  await stopAdminApp(app);
  await sandbox?.close();
});

const shopRow = (domain: string) => app.db.prisma.shop.findUnique({ where: { domain } });

describe("API key", () => {
  it("verifies a sandbox key with GET /v1/me, stores it sealed and shows only the account", async () => {
    // GIVEN a shop paused because its previous key was rejected
    await app.db.prisma.shop.create({ data: { domain: SHOP_A, pausedReason: "key_rejected", pausedAt: new Date() } });

    // WHEN the merchant saves the key of ACC-1001 (blank base URL: the default, the sandbox)
    const result = await submit(route.action, SHOP_A, "/app/settings", {
      intent: "save",
      apiKey: atlasKey.key,
      baseUrl: "",
    });

    // THEN the page learns the account, and the answer carries nothing of the key but its last four
    expect(result).toMatchObject({
      ok: true,
      keyChanged: true,
      keyStore: SHOP_A,
      connection: {
        account: "ACC-1001",
        name: "Atlas Beauty SARL",
        leadPrefix: "ATB",
        rateLimitPerMinute: 60,
        apiVersion: "1.3",
      },
    });
    expect(JSON.stringify(result)).not.toContain(atlasKey.key);
    // AND the row holds the key sealed, what /v1/me said, and the pause is lifted
    const row = await shopRow(SHOP_A);
    expect(row?.sellerApiKeyCipher).toBeTruthy();
    expect(row?.sellerApiKeyCipher).not.toContain(atlasKey.key);
    expect(box().open(row!.sellerApiKeyCipher!, { shop: SHOP_A, purpose: "seller-api-key" })).toBe(atlasKey.key);
    expect(row).toMatchObject({
      sellerApiKeyLast4: atlasKey.key.slice(-4),
      sellerApiBaseUrl: null,
      sellerAccount: "ACC-1001",
      sellerName: "Atlas Beauty SARL",
      leadPrefix: "ATB",
      rateLimitPerMinute: 60,
      apiVersion: "1.3",
      pausedReason: null,
      pausedAt: null,
    });
    expect(row?.keyVerifiedAt).toBeInstanceOf(Date);
    expect(app.shopifyCalls).toEqual([]);
  });

  it("never returns the key or its cipher from the loader", async () => {
    const data = await load(route.loader, SHOP_A, "/app/settings");
    const json = JSON.stringify(data);
    const row = await shopRow(SHOP_A);
    expect(json).not.toContain(atlasKey.key);
    expect(json).not.toContain(row!.sellerApiKeyCipher!);
    expect(json).not.toMatch(/cipher/i);
    expect(data.connection).toEqual({
      account: "ACC-1001",
      name: "Atlas Beauty SARL",
      leadPrefix: "ATB",
      rateLimitPerMinute: 60,
      apiVersion: "1.3",
      keyLast4: atlasKey.key.slice(-4),
      verifiedAt: row!.keyVerifiedAt!.toISOString(),
      verifiedLocal: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      pausedReason: null,
      pausedAt: null,
    });
    expect(data.eventsUrl).toBe(`${process.env.SHOPIFY_APP_URL}/webhooks/seller/${row!.eventsToken}`);
    expect(data.defaultBaseUrl).toBe(sandbox.url);
  });

  it("re-verifies the saved key when the key field is left blank", async () => {
    const before = await shopRow(SHOP_A);
    const result = await submit(route.action, SHOP_A, "/app/settings", {
      intent: "save",
      apiKey: "",
      baseUrl: `${sandbox.url}/`,
    });
    expect(result).toMatchObject({ ok: true, connection: { account: "ACC-1001" } });
    const after = await shopRow(SHOP_A);
    expect(box().open(after!.sellerApiKeyCipher!, { shop: SHOP_A, purpose: "seller-api-key" })).toBe(atlasKey.key);
    expect(after?.sellerApiBaseUrl).toBe(sandbox.url);
    expect(after!.keyVerifiedAt!.getTime()).toBeGreaterThanOrEqual(before!.keyVerifiedAt!.getTime());
  });

  it("rejects a revoked key and a mistyped one, storing nothing", async () => {
    const control = sandboxControl(sandbox.url);
    const revoked = await control.createKey({ account: "ACC-1002", name: "old key", store: SHOP_B });
    await control.revoke(revoked.id);

    for (const apiKey of [revoked.key, `${rifKey.key.slice(0, -1)}x`]) {
      const result = await submit(route.action, SHOP_B, "/app/settings", { intent: "save", apiKey, baseUrl: "" });
      expect(result).toEqual({ ok: false, fieldErrors: {}, keyError: "not_verified" });
      expect(JSON.stringify(result)).not.toContain(apiKey);
    }
    const row = await shopRow(SHOP_B);
    expect(row).toMatchObject({
      sellerApiKeyCipher: null,
      sellerApiKeyLast4: null,
      sellerAccount: null,
      keyVerifiedAt: null,
    });
    // The banner the merchant reads: the same one as for an unreachable address.
    expect(t("en", "settings.key.error.notVerified")).toMatch(/did not accept this key/);
    expect(t("fr", "settings.key.error.notVerified")).toMatch(/n'a pas accepté cette clé/);
  });

  it("answers an unreachable address like a refused key, and refuses a base URL that is not http(s)", async () => {
    // A port that was just free: connection refused at once.
    const closed = await startSandbox({ port: 0, quiet: true });
    await closed.close();
    const unreachable = await submit(route.action, SHOP_B, "/app/settings", {
      intent: "save",
      apiKey: rifKey.key,
      baseUrl: closed.url,
    });
    expect(unreachable).toEqual({ ok: false, fieldErrors: {}, keyError: "not_verified" });

    for (const baseUrl of [
      "ftp://platform.example",
      "not a url",
      "https://user:pw@platform.example",
      "https://platform.example/api?x=1",
    ]) {
      const result = await submit(route.action, SHOP_B, "/app/settings", {
        intent: "save",
        apiKey: rifKey.key,
        baseUrl,
      });
      expect(result).toEqual({ ok: false, fieldErrors: {}, keyError: "invalid_base_url" });
    }
    // A new address with no key typed: the saved key (none here) cannot go there.
    expect(
      await submit(route.action, SHOP_B, "/app/settings", {
        intent: "save",
        apiKey: "",
        baseUrl: "https://platform.example",
      }),
    ).toMatchObject({
      ok: false,
      keyError: "missing_key",
    });
    expect((await shopRow(SHOP_B))?.sellerApiKeyCipher).toBeNull();
  });

  it("saves nothing when the key is refused, not even the other settings changed with it", async () => {
    const before = (await shopRow(SHOP_B))?.settings ?? null;
    const result = await submit(route.action, SHOP_B, "/app/settings", {
      intent: "save",
      apiKey: `${rifKey.key}x`,
      baseUrl: "",
      retentionDays: "45",
    });
    expect(result).toMatchObject({ ok: false, keyError: "not_verified" });
    expect((await shopRow(SHOP_B))?.settings ?? null).toBe(before);
  });

  it("saves the other settings of a shop not connected yet, verifying no key", async () => {
    const result = await submit(route.action, SHOP_B, "/app/settings", {
      intent: "save",
      apiKey: "",
      baseUrl: "",
      currencyLabel: "DH",
    });
    expect(result).toMatchObject({ ok: true, keyChanged: false, connection: null, settings: { currencyLabel: "DH" } });
    expect(await shopRow(SHOP_B)).toMatchObject({ sellerApiKeyCipher: null, keyVerifiedAt: null });
  });
});

describe("settings form", () => {
  it("gives a field error per invalid value and saves nothing", async () => {
    const before = (await shopRow(SHOP_A))!.settings;
    const result = await submit(route.action, SHOP_A, "/app/settings", {
      intent: "save",
      // A key typed with invalid settings is not even sent to the platform.
      apiKey: "a-key-that-would-be-refused",
      statusSyncMinutes: "0",
      retentionDays: "ten",
      codGatewayPatterns: " \n ",
      autoSend: "false",
    });
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        statusSyncMinutes: { code: "min", min: 1 },
        retentionDays: { code: "integer" },
        codGatewayPatterns: { code: "required" },
      },
      keyError: null,
    });
    expect((await shopRow(SHOP_A))!.settings).toBe(before);

    const tooBig = await submit(route.action, SHOP_A, "/app/settings", { intent: "save", retentionDays: "5000" });
    expect(tooBig).toMatchObject({ ok: false, fieldErrors: { retentionDays: { code: "max", max: 3650 } } });
  });

  it("saves valid settings as JSON and seals the events secret", async () => {
    const secret = "whsec_events_secret_for_atlas_123";
    const result = await submit(route.action, SHOP_A, "/app/settings", {
      intent: "save",
      autoSend: "false",
      sendAllOrders: "true",
      codGatewayPatterns: "Cash on Delivery\nCOD\n\nCOD",
      "holdPolicy.city_fuzzy": "true",
      "holdPolicy.sku_unmatched": "false",
      "writeBack.cancel": "true",
      "writeBack.tags": "false",
      statusSyncMinutes: "15",
      retentionDays: "90",
      carrierName: "Amana",
      currencyLabel: "DH",
      eventsSecret: secret,
    });
    expect(result).toMatchObject({ ok: true, hasEventsSecret: true, keyChanged: false });
    expect(JSON.stringify(result)).not.toContain(secret);

    const row = await shopRow(SHOP_A);
    const saved = JSON.parse(row!.settings);
    expect(saved).toMatchObject({
      autoSend: false,
      sendAllOrders: true,
      codGatewayPatterns: ["Cash on Delivery", "COD"],
      holdPolicy: { city_fuzzy: "hold", sku_unmatched: "send", city_missing: "hold" },
      writeBack: { cancel: true, tags: false, fulfillment: true, markPaid: true },
      statusSyncMinutes: 15,
      retentionDays: 90,
      carrierName: "Amana",
      currencyLabel: "DH",
    });
    expect(box().open(row!.eventsSecretCipher!, { shop: SHOP_A, purpose: "events-secret" })).toBe(secret);

    // The page shows the saved values back, and that a secret exists, not the secret.
    const data = await load(route.loader, SHOP_A, "/app/settings");
    expect(data.hasEventsSecret).toBe(true);
    expect(data.form).toMatchObject({
      autoSend: "false",
      "holdPolicy.city_fuzzy": "true",
      statusSyncMinutes: "15",
      carrierName: "Amana",
      currencyLabel: "DH",
    });
    expect(JSON.stringify(data)).not.toContain(secret);
    expect(JSON.stringify(data)).not.toContain(row!.eventsSecretCipher!);

    // A blank secret keeps the saved one.
    await submit(route.action, SHOP_A, "/app/settings", { intent: "save", eventsSecret: "" });
    // A currency name the page does not offer is a field error.
    expect(await submit(route.action, SHOP_A, "/app/settings", { intent: "save", currencyLabel: "EUR" })).toMatchObject(
      {
        ok: false,
        fieldErrors: { currencyLabel: { code: "invalid" } },
      },
    );
    expect((await shopRow(SHOP_A))!.eventsSecretCipher).toBe(row!.eventsSecretCipher);
  });
});

describe("shop isolation", () => {
  it("shows and changes only the session's own shop", async () => {
    // GIVEN shop A connected and configured (above), shop B not
    const a = await shopRow(SHOP_A);

    // WHEN shop B's session token opens Settings from a URL naming shop A
    const request = await adminRequest(SHOP_B, "/app/settings");
    const url = new URL(request.url);
    url.searchParams.set("shop", SHOP_A);
    const bData = await route.loader({
      request: new Request(url, { headers: request.headers }),
      params: {},
      context: {},
    });
    expect(bData.shop).toBe(SHOP_B);
    expect(bData.connection).toBeNull();
    expect(bData.hasEventsSecret).toBe(false);
    expect(bData.form.autoSend).toBe("true");
    expect(JSON.stringify(bData)).not.toContain("ACC-1001");
    expect(JSON.stringify(bData)).not.toContain(a!.eventsToken);

    // AND shop B saves settings and a key while naming shop A in the form
    await submit(route.action, SHOP_B, "/app/settings", {
      intent: "save",
      shop: SHOP_A,
      retentionDays: "31",
      apiKey: rifKey.key,
      baseUrl: "",
    });

    // THEN the token's shop is the only one read or changed
    const b = await shopRow(SHOP_B);
    expect(JSON.parse(b!.settings).retentionDays).toBe(31);
    expect(b?.sellerAccount).toBe("ACC-1002");
    const aAfter = await shopRow(SHOP_A);
    expect(aAfter?.settings).toBe(a?.settings);
    expect(aAfter?.sellerApiKeyCipher).toBe(a?.sellerApiKeyCipher);
    expect(aAfter?.sellerAccount).toBe("ACC-1001");
    expect((await load(route.loader, SHOP_A, "/app/settings")).connection?.account).toBe("ACC-1001");
  });

  it("refuses a request without a valid session token", async () => {
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/app/settings`, {
      method: "POST",
      body: new URLSearchParams({ intent: "save", retentionDays: "40" }),
      headers: { Authorization: "Bearer forged", "User-Agent": "Mozilla/5.0 Chrome/156.0" },
    });
    const outcome = await route.action({ request, params: {}, context: {} }).catch((thrown: unknown) => thrown);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBe(401);
  });
});
