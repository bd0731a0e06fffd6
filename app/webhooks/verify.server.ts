/**
 * Verifies a Shopify webhook with shopify-api's own `webhooks.validate` (the
 * check at the heart of `authenticate.webhook`: HMAC of the raw body with the
 * app secret, required X-Shopify headers) and answers as it does: 405 for a
 * non-POST, 401 for a wrong HMAC, 400 for a missing header, thrown as Response.
 *
 * What it leaves out on purpose is the rest of `authenticate.webhook`: loading
 * the shop's offline session and, with expiring offline tokens, refreshing a
 * token that is within five minutes of expiry. No handler here uses the
 * session, and that refresh is an HTTP call to Shopify on the webhook's request
 * path: under a flash sale two hundred webhooks would each try it at once, and
 * after an uninstall (token revoked) it fails and app/uninstalled would be
 * answered 500 forever. It also costs a database read per webhook.
 */
import "@shopify/shopify-api/adapters/web-api";
import { LogSeverity, shopifyApi, WebhookValidationErrorReason } from "@shopify/shopify-api";
import { env } from "../env.server";
import { MAX_WEBHOOK_VALUES, readTextWithin, WEBHOOK_BODY_LIMIT } from "../http/body-limit.server";
import { MAX_JSON_DEPTH } from "../http/json-depth";
import { readWebhookJson } from "../http/webhook-json";
import { apiVersion } from "../shopify.server";
import { log } from "../runtime/logger.server";

export interface VerifiedWebhook {
  shop: string;
  /** As Shopify names it in the subscription: ORDERS_CREATE, APP_UNINSTALLED... */
  topic: string;
  webhookId: string;
  /** X-Shopify-Event-Id: the same event sent to several subscriptions shares it. */
  eventId?: string;
  /** X-Shopify-Triggered-At: when Shopify raised the event; a retry hours later keeps it. */
  triggeredAt?: Date;
  apiVersion: string;
  payload: Record<string, unknown>;
}

let api: ReturnType<typeof shopifyApi> | undefined;
function webhookApi() {
  if (api) return api;
  const appUrl = new URL(env.SHOPIFY_APP_URL);
  api = shopifyApi({
    apiKey: env.SHOPIFY_API_KEY,
    apiSecretKey: env.SHOPIFY_API_SECRET,
    apiVersion,
    hostName: appUrl.host,
    hostScheme: appUrl.protocol === "http:" ? "http" : "https",
    isEmbeddedApp: true,
    // It validates only; shopifyApp() already says the version at start-up.
    logger: { level: LogSeverity.Error, log: async (_severity, message) => log.error(message) },
  });
  return api;
}

/**
 * validate() reads only Shopify's headers (X-Shopify-* for webhooks, Shopify-*
 * for events) but canonicalises every header of the request for each of the
 * nine it looks up: behind a proxy that is half of its cost.
 */
function withShopifyHeadersOnly(request: Request): Request {
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    if (name.startsWith("x-shopify-") || name.startsWith("shopify-")) headers.set(name, value);
  }
  return new Request(request.url, { method: request.method, headers });
}

/** A header's ISO time; an unreadable one is as if absent (it only ever makes a delivery count as older). */
function timeOf(value: unknown): Date | undefined {
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/** "orders/create" -> "ORDERS_CREATE", as validate() reports the topic header. */
export const storedTopic = (topic: string) => topic.toUpperCase().replace(/[/.]/g, "_");

/** Compliance topics name their shop in the payload: it must be the shop the headers claim. */
const SHOP_IN_PAYLOAD = new Set(["CUSTOMERS_DATA_REQUEST", "CUSTOMERS_REDACT", "SHOP_REDACT"]);

/** A webhook refused for what it says, not for how it is signed: 400 with the reason. */
const refused = (reason: string) => {
  // Logged without the payload: it may carry a customer's personal data.
  log.warn(`webhook refused: ${reason}`);
  return new Response(reason, { status: 400 });
};

/**
 * `topic` is the route's own topic ("orders/create"): the HMAC covers the body
 * only, so a signed body replayed to another topic's address (or with another
 * shop's header, for the compliance topics that name their shop) is refused.
 */
export async function verifyShopifyWebhook(request: Request, topic: string): Promise<VerifiedWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405, statusText: "Method not allowed" });
  // Counted while read, before the HMAC: an oversized body is never held whole.
  const rawBody = await readTextWithin(request, WEBHOOK_BODY_LIMIT);
  const check = await webhookApi().webhooks.validate({ rawBody, rawRequest: withShopifyHeadersOnly(request) });
  if (!check.valid) {
    const wrongHmac = check.reason === WebhookValidationErrorReason.InvalidHmac;
    throw new Response(
      undefined,
      wrongHmac ? { status: 401, statusText: "Unauthorized" } : { status: 400, statusText: "Bad Request" },
    );
  }
  const expected = storedTopic(topic);
  if (storedTopic(String(check.topic)) !== expected)
    throw refused(`topic ${String(check.topic)} sent to the ${topic} address`);
  // Exact 64-bit ids, well-formed text, and no more values than a real order carries (app/http/webhook-json.ts).
  const read = readWebhookJson(rawBody, { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_WEBHOOK_VALUES });
  if (!read.ok && read.why === "depth") throw refused(`the webhook body nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (!read.ok && read.why === "values") throw refused(`the webhook body holds more than ${MAX_WEBHOOK_VALUES} values`);
  if (!read.ok) throw refused("the webhook body is not JSON");
  const payload = read.value;
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
    throw refused("the webhook body is not a JSON object");
  }
  if (SHOP_IN_PAYLOAD.has(expected)) {
    const { shop_domain: domain, shop_id: id } = payload as { shop_domain?: unknown; shop_id?: unknown };
    if (typeof domain !== "string" || domain.toLowerCase() !== check.domain.toLowerCase()) {
      throw refused(`${topic}: the payload's shop_domain is not the shop in X-Shopify-Shop-Domain`);
    }
    if (!(typeof id === "number" || (typeof id === "string" && /^\d+$/.test(id))))
      throw refused(`${topic}: the payload has no shop_id`);
  }
  return {
    shop: check.domain,
    topic: String(check.topic),
    webhookId: check.webhookId,
    eventId: "eventId" in check ? check.eventId : undefined,
    triggeredAt: "triggeredAt" in check ? timeOf(check.triggeredAt) : undefined,
    apiVersion: check.apiVersion,
    payload: payload as Record<string, unknown>,
  };
}
