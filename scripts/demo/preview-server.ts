/**
 * The local preview of the embedded admin, for the demo only: a server on
 * 127.0.0.1 that answers loopback callers only (by address and by Host header,
 * so a web page cannot reach it through DNS rebinding). It serves a frame like
 * the Shopify admin's at `/`, mints session tokens for the demo shop, and
 * reverse-proxies every other path to the app server, swapping the App Bridge
 * script from Shopify's CDN for a local stub. The app itself has no preview
 * switch: this server is the whole preview.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { APP_BRIDGE_STUB_PATH, OPEN_PATH, TOKEN_PATH, appBridgeStub } from "./app-bridge-stub";
import { previewShellHtml } from "./preview-shell";

const APP_BRIDGE_CDN = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export interface PreviewServerOptions {
  port: number;
  /** The app server the preview forwards to. */
  appUrl: string;
  shop: string;
  apiKey: string;
  apiSecret: string;
  appName?: string;
  storeName?: string;
  locale?: string;
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

export const storeNameOf = (shop: string) => shop.replace(/\.myshopify\.com$/, "");
export const hostParamOf = (shop: string) => Buffer.from(`admin.shopify.com/store/${storeNameOf(shop)}`).toString("base64");

/** Only the app's own pages may be opened through /__preview/open. */
export function safeAppPath(path: string | null): string {
  return path && /^\/app(\/[\w\-./]*)?$/.test(path) && !path.includes("..") ? path : "/app";
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

/** The app's HTML (or Link header) with App Bridge loaded from the preview instead of Shopify's CDN. */
export function rewriteHtml(html: string): string {
  return html.split(APP_BRIDGE_CDN).join(APP_BRIDGE_STUB_PATH);
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const app = new URL(options.appUrl);
  const locale = options.locale ?? "en";
  const storeName = options.storeName ?? storeNameOf(options.shop);
  const stub = appBridgeStub({ apiKey: options.apiKey, shop: options.shop, locale });
  const mint = async () => {
    const { token, payload } = await getJwt(storeNameOf(options.shop), options.apiKey, options.apiSecret);
    return { token, expiresAt: Math.floor(Number(payload.exp) * 1000) };
  };

  async function openApp(req: IncomingMessage, res: ServerResponse, url: URL) {
    const target = new URL(safeAppPath(url.searchParams.get("path")), "http://preview.invalid");
    target.searchParams.set("embedded", "1");
    target.searchParams.set("shop", options.shop);
    target.searchParams.set("host", hostParamOf(options.shop));
    target.searchParams.set("id_token", (await mint()).token);
    target.searchParams.set("locale", locale);
    res.writeHead(302, { Location: target.pathname + target.search, "Cache-Control": "no-store" }).end();
  }

  function proxy(req: IncomingMessage, res: ServerResponse) {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === "accept-encoding") continue;
      headers[name] = value;
    }
    headers.host = app.host;
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
        const isHtml = (answer.headers["content-type"] ?? "").includes("text/html");
        if (!isHtml) {
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = Buffer.from(rewriteHtml(Buffer.concat(chunks).toString("utf8")), "utf8");
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

  const server: Server = createServer((req, res) => {
    if (!isLoopbackAddress(req.socket.remoteAddress) || !isLoopbackHostHeader(req.headers.host)) {
      res.writeHead(403, { "content-type": "text/plain" }).end("The admin preview answers loopback requests only.");
      return;
    }
    const url = new URL(req.url ?? "/", "http://preview.invalid");
    const send = (status: number, type: string, body: string) =>
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);
    if (req.method === "GET" && url.pathname === "/") {
      return send(200, "text/html; charset=utf-8", previewShellHtml({ apiKey: options.apiKey, shop: options.shop, appName: options.appName ?? "COD Lead Sync", storeName }));
    }
    if (req.method === "GET" && url.pathname === APP_BRIDGE_STUB_PATH) return send(200, "text/javascript; charset=utf-8", stub);
    if (req.method === "GET" && url.pathname === TOKEN_PATH) {
      mint().then((t) => send(200, "application/json", JSON.stringify(t)), () => send(500, "text/plain", "could not mint a token"));
      return;
    }
    if (req.method === "GET" && url.pathname === OPEN_PATH) {
      openApp(req, res, url).catch(() => send(500, "text/plain", "could not mint a token"));
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
