/**
 * The HTTP server: Admin GraphQL per shop, the OAuth token endpoint, and the control
 * API (loopback callers only). The shop is the SHOP_HEADER the fetch rewrite sets, or
 * the Host when it is a *.myshopify.com name.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ControlError, answerControl, type ControlRuntime } from "./control";
import { SHOP_HEADER } from "./fetch-rewrite";
import { answerGraphql, type GraphqlRuntime } from "./graphql-endpoint";
import { ORDER_PAGE_PATH, orderNotFoundHtml, orderPageHtml } from "./order-page";
import { answerAccessTokenRequest, parseOAuthBody } from "./token-exchange";
import { ZodError } from "zod";

export type StandInRuntime = GraphqlRuntime & ControlRuntime & { log: (...args: unknown[]) => void };

const GRAPHQL_PATH = /^\/admin\/api\/([^/]+)\/graphql\.json$/;
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

export function shopOf(req: IncomingMessage): string | null {
  const header = req.headers[SHOP_HEADER];
  if (typeof header === "string" && header) return header.toLowerCase();
  const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
  return host.endsWith(".myshopify.com") ? host : null;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ControlError(413, "too_large", "The body is larger than 5 MB.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createStandInServer(rt: StandInRuntime): Server {
  return createServer((req, res) => {
    handle(rt, req, res).catch((error: unknown) => {
      if (error instanceof ControlError)
        return send(res, error.status, { error: { code: error.code, message: error.message } });
      if (error instanceof ZodError) {
        const issue = error.issues[0];
        return send(res, 422, {
          error: { code: "validation_error", field: issue.path.join("."), message: issue.message },
        });
      }
      rt.log("unexpected error", error);
      send(res, 500, { errors: "Internal Server Error" });
    });
  });
}

async function handle(rt: StandInRuntime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://stand-in");
  const method = req.method ?? "GET";
  const text = await readBody(req);

  if (url.pathname === "/_control" || url.pathname.startsWith("/_control/")) {
    if (!isLoopback(req.socket.remoteAddress)) {
      return send(res, 403, {
        error: { code: "forbidden", message: "The control API answers loopback callers only." },
      });
    }
    const answer = await answerControl(rt, method, url.pathname, url.searchParams, text);
    return send(res, answer.status, answer.body);
  }

  const graphql = GRAPHQL_PATH.exec(url.pathname);
  if (graphql) {
    if (method !== "POST") return send(res, 405, { errors: "Method Not Allowed" });
    const token = req.headers["x-shopify-access-token"];
    const answer = await answerGraphql(rt, {
      shop: shopOf(req),
      apiVersion: graphql[1],
      accessToken: typeof token === "string" && token ? token : null,
      body: text,
    });
    if (answer.delayMs > 0) await sleep(answer.delayMs);
    // Network refusal: no status line at all, the client sees a reset connection.
    if (answer.kind === "refuse") return void req.socket.destroy();
    return send(res, answer.status, answer.body, answer.headers);
  }

  if (url.pathname === "/admin/oauth/access_token") {
    if (method !== "POST") return send(res, 405, { errors: "Method Not Allowed" });
    const shop = shopOf(req);
    if (!shop)
      return send(res, 400, {
        error: "invalid_request",
        error_description: "No shop: call https://SHOP.myshopify.com/admin/oauth/access_token.",
      });
    const answer = answerAccessTokenRequest({
      shop,
      body: parseOAuthBody(text, req.headers["content-type"]),
      app: rt.app,
      installations: rt.installations,
      nowMs: rt.clock.now(),
    });
    return send(res, answer.status, answer.body);
  }

  const orderPage = ORDER_PAGE_PATH.exec(url.pathname);
  if (orderPage && method === "GET") {
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    };
    if (!isLoopback(req.socket.remoteAddress)) return html(403, "The order pages answer loopback callers only.");
    const shop = `${orderPage[1]}.myshopify.com`;
    const order = rt.store.isLoaded(shop)
      ? rt.store.stateFor(shop).orders[`gid://shopify/Order/${orderPage[2]}`]
      : undefined;
    return order ? html(200, orderPageHtml(shop, order)) : html(404, orderNotFoundHtml(shop, orderPage[2]));
  }

  if (method === "GET" && url.pathname === "/") {
    return send(res, 200, {
      name: "Shopify Admin stand-in",
      apiVersion: "2026-07",
      graphql: "/admin/api/2026-07/graphql.json",
      control: "/_control",
    });
  }
  return send(res, 404, { errors: "Not Found" });
}
