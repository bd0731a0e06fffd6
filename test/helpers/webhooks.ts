/**
 * Builds a Shopify webhook request exactly as Shopify sends it: HMAC-SHA256 of
 * the raw body with the app secret, base64, plus every header
 * authenticate.webhook reads.
 */
import { createHmac, randomUUID } from "node:crypto";

export interface SignedWebhookOptions {
  topic: string;
  shop: string;
  body: unknown;
  secret?: string;
  url?: string;
  webhookId?: string;
  eventId?: string;
  apiVersion?: string;
  /** Sign with this secret instead, to produce a wrong HMAC. */
  signWith?: string;
  omitHeaders?: string[];
}

export function hmacBase64(secret: string, rawBody: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

export function signedWebhookHeaders(options: SignedWebhookOptions, rawBody: string): Record<string, string> {
  const secret = options.signWith ?? options.secret ?? process.env.SHOPIFY_API_SECRET!;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Shopify-Hmac-Sha256": hmacBase64(secret, rawBody),
    "X-Shopify-Topic": options.topic,
    "X-Shopify-Shop-Domain": options.shop,
    "X-Shopify-API-Version": options.apiVersion ?? "2026-07",
    "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
  if (options.eventId) headers["X-Shopify-Event-Id"] = options.eventId;
  for (const name of options.omitHeaders ?? []) delete headers[name];
  return headers;
}

export function signedWebhookRequest(options: SignedWebhookOptions): Request {
  const rawBody = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const url = options.url ?? `https://cod-lead-sync.test/webhooks/${options.topic}`;
  return new Request(url, { method: "POST", headers: signedWebhookHeaders(options, rawBody), body: rawBody });
}
