/**
 * One log line and the metrics for every request the web server answers: the
 * access log. Fields: request id (X-Request-Id when the proxy sent a sane one,
 * else made here; echoed in the answer), method, URL with its credentials
 * redacted, route group, shop (when the request names one), status, duration,
 * bytes sent and outcome. Health probes and scrapes log at debug: a load
 * balancer asks every few seconds.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { redactUrl } from "../http/access-log";
import { isWebhookTopic } from "../shopify/webhook-topics";
import { log, type LogLevel } from "./logger.server";
import { recordHttpRequest, recordWebhook } from "./metrics.server";

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,99}\.myshopify\.com$/i;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The request's id: the proxy's X-Request-Id when it looks like one, else 16 random hex digits. */
export function requestIdOf(req: Pick<IncomingMessage, "headers">): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomBytes(8).toString("hex");
}

/** The shop a request names: Shopify's webhook header, else the `shop` query parameter (validated). */
export function shopOf(req: Pick<IncomingMessage, "headers" | "url">): string | undefined {
  const header = req.headers["x-shopify-shop-domain"];
  if (typeof header === "string" && SHOP_DOMAIN.test(header)) return header.toLowerCase();
  const url = req.url ?? "";
  const at = url.indexOf("shop=");
  if (at === -1) return undefined;
  const value = decodeURIComponentSafe(url.slice(at + 5).split(/[&#]/)[0]);
  return SHOP_DOMAIN.test(value) ? value.toLowerCase() : undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export type RouteGroup =
  "webhook" | "platform_events" | "admin" | "auth" | "extension" | "health" | "metrics" | "asset" | "other";

/** A fixed set of groups for the metrics' label (never the path itself). */
export function routeGroupOf(path: string): RouteGroup {
  if (path.startsWith("/webhooks/seller/")) return "platform_events";
  if (path.startsWith("/webhooks/")) return "webhook";
  if (path === "/healthz" || path === "/readyz") return "health";
  if (path === "/metrics") return "metrics";
  if (path.startsWith("/assets/") || path.startsWith("/build/") || /\.(js|css|png|svg|ico|woff2?|map)$/.test(path))
    return "asset";
  if (path.startsWith("/auth")) return "auth";
  if (path.startsWith("/app")) return "admin";
  if (path.startsWith("/api/") || path.startsWith("/extensions/")) return "extension";
  return "other";
}

/**
 * "/webhooks/orders/create" -> "orders/create"; the platform's events address -> "platform_events";
 * any other path -> "unknown": a label value comes from the app's own topics, never from the request.
 */
export function webhookTopicOf(path: string): string {
  if (path.startsWith("/webhooks/seller/")) return "platform_events";
  const topic = path.replace(/^\/webhooks\//, "").replace(/\/+$/, "");
  return isWebhookTopic(topic) ? topic : "unknown";
}

export interface RequestLine {
  requestId: string;
  method: string;
  /** req.url or req.originalUrl, before redaction. */
  url: string;
  path: string;
  shop?: string;
  status: number;
  durationMs: number;
  bytes?: number;
  /** The client went away before the answer was finished. */
  aborted?: boolean;
}

const levelFor = (group: RouteGroup, status: number): LogLevel =>
  status >= 500 ? "error" : group === "health" || group === "metrics" || group === "asset" ? "debug" : "info";

/** Writes the request's line and counts it (webhooks by topic, with their acknowledgement time). */
export function logRequest(line: RequestLine): void {
  const group = routeGroupOf(line.path);
  const topic = group === "webhook" || group === "platform_events" ? webhookTopicOf(line.path) : undefined;
  if (topic) recordWebhook(topic, line.status, line.durationMs / 1000);
  else recordHttpRequest(group, line.status);
  const level = levelFor(group, line.status);
  if (!log.isEnabled(level)) return;
  const outcome = line.aborted
    ? "aborted"
    : line.status >= 500
      ? "server_error"
      : line.status >= 400
        ? "client_error"
        : "ok";
  log[level]("request", {
    requestId: line.requestId,
    method: line.method,
    url: redactUrl(line.url),
    route: group,
    ...(topic ? { topic } : {}),
    ...(line.shop ? { shop: line.shop } : {}),
    status: line.status,
    durationMs: Math.round(line.durationMs * 10) / 10,
    ...(line.bytes !== undefined ? { bytes: line.bytes } : {}),
    outcome,
  });
}

/** Logs the request once its answer is finished (or the client left). */
export function logWhenAnswered(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
  started: number,
): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const length = res.getHeader("content-length");
    logRequest({
      requestId,
      method: req.method ?? "GET",
      url: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "/",
      path,
      shop: shopOf(req),
      status: res.statusCode,
      durationMs: performance.now() - started,
      bytes: typeof length === "string" || typeof length === "number" ? Number(length) : undefined,
      aborted: !res.writableFinished,
    });
  };
  res.once("finish", finish);
  res.once("close", finish);
}
