/**
 * The local preview of the embedded admin, for the demo only: a server on
 * 127.0.0.1 that answers loopback callers only (by address and by Host header,
 * so a web page cannot reach it through DNS rebinding). It serves a frame like
 * the Shopify admin's at `/`, mints session tokens for the demo shop, and
 * reverse-proxies every other path to the app server, swapping the App Bridge
 * script from Shopify's CDN for a local stub. The app itself has no preview
 * switch: this server is the whole preview.
 *
 * It can show several shops (`/?shop=...`); the shop being shown is remembered in
 * a cookie, so App Bridge's session tokens name it. Its language menu (`/?locale=fr`)
 * opens the app as Shopify does for a merchant whose admin is in that language
 * (the `locale` parameter), remembered in a cookie too. The app sees each request
 * as the browser sent it to the preview (X-Forwarded-Host), so its actions pass
 * Remix's check that a form was posted from the page's own origin. With a Shopify Admin stand-in,
 * the app's links to an order in Shopify's admin open that order's page on the
 * stand-in, and "Uninstall" does what Shopify does when a merchant removes the app.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { APP_BRIDGE_STUB_PATH, OPEN_PATH, TOKEN_PATH, UNINSTALL_PATH, appBridgeStub } from "./app-bridge-stub";
import { previewShellHtml } from "./preview-shell";

const APP_BRIDGE_CDN = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export interface PreviewShop {
  domain: string;
  storeName?: string;
}

export interface PreviewServerOptions {
  port: number;
  /** The app server the preview forwards to. */
  appUrl: string;
  /** The first is shown at `/`. */
  shops: PreviewShop[];
  apiKey: string;
  apiSecret: string;
  appName?: string;
  /** The language shown first (default English); the shell's menu switches between LANGUAGES. */
  locale?: string;
  /** The Shopify Admin stand-in: links to https://admin.shopify.com/store/... open its pages. */
  shopifyAdminUrl?: string;
  /** What Shopify does when the merchant uninstalls the app (the shell's button); absent: no button. */
  onUninstall?(shop: string): Promise<void>;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4 === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A Host header naming this machine (not a public name that resolves here). */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  return name === "localhost" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The languages the preview offers, as Shopify names an admin's language in `locale`. */
export const LANGUAGES = ["en", "fr"] as const;
export type PreviewLanguage = (typeof LANGUAGES)[number];
const isLanguage = (value: string | null | undefined): value is PreviewLanguage =>
  (LANGUAGES as readonly string[]).includes(value ?? "");

export const storeNameOf = (shop: string) => shop.replace(/\.myshopify\.com$/, "");
export const hostParamOf = (shop: string) =>
  Buffer.from(`admin.shopify.com/store/${storeNameOf(shop)}`).toString("base64");

/** Only the app's own pages may be opened through /__preview/open. */
export function safeAppPath(path: string | null): string {
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("..")) return "/app";
  // Its query and fragment kept: the demo's links open a filtered list or a section of a page.
  const url = new URL(path, "http://preview.invalid");
  if (url.origin !== "http://preview.invalid" || !/^\/app(\/[\w\-./]*)?$/.test(url.pathname)) return "/app";
  return url.pathname + url.search + url.hash;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
]);

const SHOPIFY_ADMIN_STORE = "https://admin.shopify.com/store/";
const SHOP_COOKIE = "preview_shop";
const LOCALE_COOKIE = "preview_locale";

/**
 * The app's HTML (or Link header, or route data) with App Bridge loaded from the preview
 * instead of Shopify's CDN, and, given a stand-in, Shopify admin links pointed at it.
 */
export function rewriteHtml(html: string, shopifyAdminUrl?: string): string {
  const swapped = html.split(APP_BRIDGE_CDN).join(APP_BRIDGE_STUB_PATH);
  return shopifyAdminUrl ? swapped.split(SHOPIFY_ADMIN_STORE).join(`${shopifyAdminUrl}/store/`) : swapped;
}

/** Responses the preview reads and rewrites: pages and Remix's route data (single fetch). */
const isRewritable = (contentType: string) => /text\/html|text\/x-script/.test(contentType);

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  if (options.shops.length === 0) throw new Error("the preview needs at least one shop");
  const app = new URL(options.appUrl);
  const defaultLocale: PreviewLanguage = isLanguage(options.locale) ? options.locale : "en";
  /** The language a request is about: named in the query, else the cookie's, else the default. */
  const localeOf = (req: IncomingMessage, url: URL): PreviewLanguage => {
    const named = url.searchParams.get("locale") ?? cookieOf(req, LOCALE_COOKIE);
    return isLanguage(named) ? named : defaultLocale;
  };
  const known = new Map(options.shops.map((s) => [s.domain, s]));
  /** The shop a request is about: named in the query, else the cookie's, else the first. */
  const shopOf = (req: IncomingMessage, url: URL) => {
    const named = url.searchParams.get("shop") ?? cookieOf(req, SHOP_COOKIE);
    return named && known.has(named) ? named : options.shops[0].domain;
  };
  const mint = async (shop: string) => {
    const { token, payload } = await getJwt(storeNameOf(shop), options.apiKey, options.apiSecret);
    return { token, expiresAt: Math.floor(Number(payload.exp) * 1000) };
  };

  const cookies = (shop: string, locale: PreviewLanguage) => [
    `${SHOP_COOKIE}=${encodeURIComponent(shop)}; Path=/; HttpOnly; SameSite=Strict`,
    `${LOCALE_COOKIE}=${locale}; Path=/; HttpOnly; SameSite=Strict`,
  ];

  async function openApp(res: ServerResponse, url: URL, shop: string, locale: PreviewLanguage) {
    const target = new URL(safeAppPath(url.searchParams.get("path")), "http://preview.invalid");
    target.searchParams.set("embedded", "1");
    target.searchParams.set("shop", shop);
    target.searchParams.set("host", hostParamOf(shop));
    target.searchParams.set("id_token", (await mint(shop)).token);
    target.searchParams.set("locale", locale);
    res
      .writeHead(302, {
        Location: target.pathname + target.search + target.hash,
        "Cache-Control": "no-store",
        "Set-Cookie": cookies(shop, locale),
      })
      .end();
  }

  function proxy(req: IncomingMessage, res: ServerResponse) {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === "accept-encoding") continue;
      headers[name] = value;
    }
    headers.host = app.host;
    // What the browser addressed: Remix checks a posted form's Origin against it (its CSRF guard).
    headers["x-forwarded-host"] = req.headers.host ?? app.host;
    headers["x-forwarded-proto"] = "http";
    const upstream = httpRequest(
      { hostname: app.hostname, port: app.port, method: req.method, path: req.url, headers },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value === undefined || HOP_BY_HOP.has(name)) continue;
          out[name] = value;
        }
        // The app allows only the Shopify admin to frame it; here the preview's page frames it.
        if (out["content-security-policy"]) out["content-security-policy"] = "frame-ancestors 'self'";
        if (typeof out.link === "string") out.link = rewriteHtml(out.link);
        const location = answer.headers.location;
        if (location?.startsWith(app.origin)) out.location = location.slice(app.origin.length) || "/";
        if (!isRewritable(answer.headers["content-type"] ?? "")) {
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = Buffer.from(
            rewriteHtml(Buffer.concat(chunks).toString("utf8"), options.shopifyAdminUrl),
            "utf8",
          );
          delete out["content-length"];
          res.writeHead(answer.statusCode ?? 502, { ...out, "content-length": String(body.length) });
          res.end(body);
        });
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("The app server is not answering (is the demo still running?)");
    });
    req.pipe(upstream);
  }

  /** A form post from the preview's own page: a cross-site form cannot uninstall (its Origin differs). */
  const fromPreviewPage = (req: IncomingMessage) => {
    try {
      return new URL(req.headers.origin ?? "").host === req.headers.host;
    } catch {
      return false;
    }
  };

  const server: Server = createServer((req, res) => {
    if (!isLoopbackAddress(req.socket.remoteAddress) || !isLoopbackHostHeader(req.headers.host)) {
      res.writeHead(403, { "content-type": "text/plain" }).end("The admin preview answers loopback requests only.");
      return;
    }
    const url = new URL(req.url ?? "/", "http://preview.invalid");
    const send = (status: number, type: string, body: string) =>
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);
    const shop = shopOf(req, url);
    const locale = localeOf(req, url);
    if (req.method === "GET" && url.pathname === "/") {
      res.setHeader("Set-Cookie", cookies(shop, locale));
      return send(
        200,
        "text/html; charset=utf-8",
        previewShellHtml({
          locale,
          languages: [...LANGUAGES],
          apiKey: options.apiKey,
          shop,
          shops: options.shops.map((s) => s.domain),
          appName: options.appName ?? "COD Lead Sync",
          storeName: known.get(shop)?.storeName ?? storeNameOf(shop),
          canUninstall: Boolean(options.onUninstall),
          uninstalled: url.searchParams.get("uninstalled") === "1",
        }),
      );
    }
    if (req.method === "GET" && url.pathname === APP_BRIDGE_STUB_PATH) {
      return send(200, "text/javascript; charset=utf-8", appBridgeStub({ apiKey: options.apiKey, shop, locale }));
    }
    if (req.method === "GET" && url.pathname === TOKEN_PATH) {
      mint(shop).then(
        (t) => send(200, "application/json", JSON.stringify(t)),
        () => send(500, "text/plain", "could not mint a token"),
      );
      return;
    }
    if (req.method === "GET" && url.pathname === OPEN_PATH) {
      openApp(res, url, shop, locale).catch(() => send(500, "text/plain", "could not mint a token"));
      return;
    }
    if (req.method === "POST" && url.pathname === UNINSTALL_PATH && options.onUninstall) {
      if (!fromPreviewPage(req)) return send(403, "text/plain", "Uninstall from the preview's own page.");
      options.onUninstall(shop).then(
        () =>
          res
            .writeHead(303, {
              Location: `/?shop=${encodeURIComponent(shop)}&uninstalled=1`,
              "cache-control": "no-store",
            })
            .end(),
        (error: unknown) =>
          send(502, "text/plain", `Could not uninstall: ${error instanceof Error ? error.message : String(error)}`),
      );
      return;
    }
    proxy(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
