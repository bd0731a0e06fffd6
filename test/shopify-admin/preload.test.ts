/**
 * The production server started as every script starts it (appServerArgs) with
 * SHOPIFY_ADMIN_STAND_IN_URL set: the stand-in's preload routes the app's
 * @shopify/shopify-api calls to it, with no switch in the app. A shop opened for the
 * first time is installed through the stand-in's token exchange, and a loader that
 * asks the Admin API (Mappings, Products tab) shows the stand-in's variants.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standInPreloadArgs } from "../../scripts/dev/lib/app-build";
import { createSecretBox, isSealedSecret } from "../../app/crypto/secret-box.server";
import { ACCESS_TOKEN, openToken } from "../../app/models/session-tokens.server";
import { DESKTOP_CHROME_UA } from "../helpers/browser";
import { demoWorld, shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  ensurePreviewBuild,
  removePreviewBuild,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";

const SHOP = "preload-demo.myshopify.com";
let buildDir: string;
let admin: RunningShopifyAdmin;
let server: PreviewServer;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  admin.shop(SHOP, demoWorld({ nowMs: Date.now() }));
  // No session row: the first request must install the shop.
  server = await startPreviewServer({
    buildDir,
    sellerApiBaseUrl: "http://127.0.0.1:9",
    shops: [],
    // This process's key: the test opens the session the server sealed.
    env: { SHOPIFY_ADMIN_STAND_IN_URL: admin.url, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY! },
  });
});

afterAll(async () => {
  await server?.close();
  await admin?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

describe("the stand-in preload in the production server", () => {
  it("installs a shop through the token exchange and serves its variants from the stand-in", async () => {
    // A browser's user agent: the app's auth answers bots with 410.
    const response = await fetch(await server.embeddedUrl(SHOP, "/app/mappings?tab=products"), {
      headers: { "user-agent": DESKTOP_CHROME_UA },
    });
    const html = await response.text();
    expect(response.status, server.output()).toBe(200);
    // Variants of the demo catalogue: one the platform knows, one that needs a mapping.
    expect(html).toContain("ARG-OIL-100");
    expect(html).toContain("DJELLABA-BRODEE-M");

    const control = shopifyAdminControl(admin.url);
    const installed = await control.shop(SHOP);
    expect(installed.installed).toBe(true);
    const session = await server.db.session.findFirstOrThrow({ where: { shop: SHOP, isOnline: false } });
    // Stored sealed; it opens to the token the exchange gave.
    expect(isSealedSecret(session.accessToken)).toBe(true);
    const token = openToken(createSecretBox(process.env.ENCRYPTION_KEY!), session.accessToken, SHOP, ACCESS_TOKEN);
    expect(token).toMatch(/^shpat_/);
    // The loader's call reached the stand-in with that token.
    const calls = await control.calls({ shop: SHOP, operation: "ProductVariantsPage" });
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.every((call) => call.accessToken === token && call.status === 200)).toBe(true);
    // Nothing else was let out.
    expect(server.output()).not.toContain("network is not allowed");
  });
});

describe("the preload on its own", () => {
  const root = join(import.meta.dirname, "..", "..");
  // Which fetch @shopify/shopify-api would use, in a process started with the app's preloads.
  const script = `const runtime = await import("@shopify/shopify-api/runtime"); console.log(runtime.abstractFetch?.name ?? "none");`;
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [...standInPreloadArgs(buildDir), "--input-type=module", "-e", script], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", ...env },
    });

  it("changes nothing when SHOPIFY_ADMIN_STAND_IN_URL is unset, and installs the rewrite when it is set", async () => {
    expect((await run({})).stdout.trim()).not.toBe("rewrite");
    expect((await run({ SHOPIFY_ADMIN_STAND_IN_URL: "http://127.0.0.1:4020" })).stdout.trim()).toBe("rewrite");
  });

  it("stops the process when the URL is not a loopback address", async () => {
    const failed = await run({ SHOPIFY_ADMIN_STAND_IN_URL: "https://stand-in.example.com" }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toContain("SHOPIFY_ADMIN_STAND_IN_URL must be a loopback address, got stand-in.example.com");
  });
});
