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
import { apiVersion } from "../shopify.server";

export interface VerifiedWebhook {
  shop: string;
  /** As Shopify names it in the subscription: ORDERS_CREATE, APP_UNINSTALLED... */
  topic: string;
  webhookId: string;
  /** X-Shopify-Event-Id: the same event sent to several subscriptions shares it. */
  eventId?: string;
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
    logger: { level: LogSeverity.Error, log: async (_severity, message) => console.error(message) },
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

export async function verifyShopifyWebhook(request: Request): Promise<VerifiedWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405, statusText: "Method not allowed" });
  const rawBody = await request.text();
  const check = await webhookApi().webhooks.validate({ rawBody, rawRequest: withShopifyHeadersOnly(request) });
  if (!check.valid) {
    const wrongHmac = check.reason === WebhookValidationErrorReason.InvalidHmac;
    throw new Response(undefined, wrongHmac ? { status: 401, statusText: "Unauthorized" } : { status: 400, statusText: "Bad Request" });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new Response("the webhook body is not JSON", { status: 400 });
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
    throw new Response("the webhook body is not a JSON object", { status: 400 });
  }
  return {
    shop: check.domain,
    topic: String(check.topic),
    webhookId: check.webhookId,
    eventId: "eventId" in check ? check.eventId : undefined,
    apiVersion: check.apiVersion,
    payload: payload as Record<string, unknown>,
  };
}
