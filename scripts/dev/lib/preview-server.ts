/**
 * The production build of the app, served the way `npm start` serves it (server.ts), for
 * browser tests and benchmarks: a migrated database the caller gives, an installed
 * shop's offline session, the Seller Order API pointed at a sandbox, no worker, and
 * only loopback addresses.
 *
 * ensurePreviewBuild() builds once (skipped while build/ is newer than the
 * sources) and copies the build to a private directory, so a later
 * `remix vite:build` elsewhere cannot swap files under a running server.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { createPrismaClient } from "../../../app/db/client";
import { prepareBuild } from "./app-build";
import { AppStartError, startServerProcess } from "./app-process";
import { freePort } from "../../lib/ports";

export { freePort };

const root = join(import.meta.dirname, "..", "..", "..");
/** Inside node_modules so the copied server bundle still resolves the app's packages. */
const previewRoot = join(root, "node_modules", ".cache", "cod-lead-sync-e2e");

/** The app's client id and secret in the preview server (a stand-in started beside it needs them). */
export const PREVIEW_API_KEY = "e2e-api-key";
export const PREVIEW_API_SECRET = "e2e-api-secret";

/** The key the preview server seals secrets with unless `env` names one: random, for this process's servers only. */
const PREVIEW_ENCRYPTION_KEY = randomBytes(32).toString("base64");

export const DEFAULT_SCOPES =
  "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_pixels,read_customer_events";

/**
 * The production build (built when older than its sources, under the same lock
 * as the demo's, so concurrent runs never write build/ at once), copied to a
 * directory of its own. Returns that directory (it holds build/).
 */
export async function ensurePreviewBuild(options: { force?: boolean } = {}): Promise<string> {
  if (options.force || process.env.E2E_REBUILD === "1") rmSync(join(root, "build"), { recursive: true, force: true });
  mkdirSync(previewRoot, { recursive: true });
  // Copies left by an interrupted run.
  for (const old of readdirSync(previewRoot)) {
    const path = join(previewRoot, old);
    if (Date.now() - statSync(path).mtimeMs > 3600_000) rmSync(path, { recursive: true, force: true });
  }
  const { dir } = await prepareBuild(root, mkdtempSync(join(previewRoot, "run-")), () => {});
  return dir;
}

export function removePreviewBuild(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface PreviewServerOptions {
  /** Directory returned by ensurePreviewBuild. */
  buildDir: string;
  /** SELLER_API_BASE_URL (a sandbox's URL); none when the test connects no platform. */
  sellerApiBaseUrl?: string;
  /** Shops installed before the test: each gets an offline session. */
  shops: string[];
  env?: Record<string, string>;
  /** The server's database, migrated by the caller and left in place at close (others may share it). */
  databaseUrl: string;
}

export interface PreviewServer {
  url: string;
  port: number;
  /** The server's process id (benchmarks read its CPU time, or confine it). */
  pid: number;
  apiKey: string;
  apiSecret: string;
  /** The server's database, for arranging and asserting. */
  db: PrismaClient;
  /** A session token for shop, as App Bridge's idToken() would give. */
  mintToken(shop: string): Promise<string>;
  /** The URL the Shopify admin opens in its iframe; idToken false: without id_token (bounce page). */
  embeddedUrl(shop: string, path: string, options?: { locale?: string; idToken?: string | false }): Promise<string>;
  /** Everything the server printed, and stdout (its JSON log) and stderr apart. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** SIGKILL: the process dies mid-request, as on a crashed host. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export const storeName = (shop: string) => shop.replace(/\.myshopify\.com$/, "");
export const hostParam = (shop: string) => Buffer.from(`admin.shopify.com/store/${storeName(shop)}`).toString("base64");

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const { databaseUrl } = options;
  const db = createPrismaClient(databaseUrl);

  const apiKey = PREVIEW_API_KEY;
  const apiSecret = PREVIEW_API_SECRET;
  const scopes = options.env?.SCOPES ?? DEFAULT_SCOPES;
  for (const shop of options.shops) {
    const session = {
      shop,
      state: "",
      isOnline: false,
      scope: scopes,
      accessToken: `shpat_e2e_${storeName(shop)}`,
      expires: new Date(Date.now() + 24 * 3600_000),
    };
    // Another server on the same database may have installed it already.
    await db.session.upsert({
      where: { id: `offline_${shop}` },
      create: { id: `offline_${shop}`, ...session },
      update: session,
    });
  }

  // Another process may bind the port between our check and the child's listen: try a new one.
  let server;
  let port = 0;
  let url = "";
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    try {
      server = await startServerProcess({
        root,
        // Its own directory: no developer .env is read, static files come from the copy.
        cwd: options.buildDir,
        port,
        env: {
          DATABASE_URL: databaseUrl,
          SHOPIFY_API_KEY: apiKey,
          SHOPIFY_API_SECRET: apiSecret,
          SHOPIFY_APP_URL: url,
          SCOPES: scopes,
          ENCRYPTION_KEY: PREVIEW_ENCRYPTION_KEY,
          ...(options.sellerApiBaseUrl ? { SELLER_API_BASE_URL: options.sellerApiBaseUrl } : {}),
          SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
          WORKER_IN_PROCESS: "false",
          LOG_LEVEL: "warn",
          ...options.env,
        },
      });
      break;
    } catch (error) {
      if (attempt < 3 && error instanceof AppStartError && error.output.includes("EADDRINUSE")) continue;
      await db.$disconnect();
      throw error;
    }
  }
  const running = server;
  const close = async () => {
    await running.stop();
    await db.$disconnect();
  };

  const mintToken = async (shop: string) => (await getJwt(storeName(shop), apiKey, apiSecret)).token;
  return {
    url,
    port,
    pid: running.pid,
    apiKey,
    apiSecret,
    db,
    mintToken,
    async embeddedUrl(shop, path, { locale = "en", idToken } = {}) {
      const target = new URL(path, url);
      target.searchParams.set("embedded", "1");
      target.searchParams.set("shop", shop);
      target.searchParams.set("host", hostParam(shop));
      target.searchParams.set("locale", locale);
      if (idToken !== false) target.searchParams.set("id_token", idToken ?? (await mintToken(shop)));
      return target.href;
    },
    output: running.output,
    stdout: running.stdout,
    stderr: running.stderr,
    kill: running.kill,
    close,
  };
}
