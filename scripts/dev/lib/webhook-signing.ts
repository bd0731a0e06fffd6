/**
 * Shopify webhook signing, as Shopify does it: base64 HMAC-SHA256 of the raw
 * body with the app's client secret, plus the headers authenticate.webhook reads.
 */
import { createHmac, randomUUID } from "node:crypto";

export const WEBHOOK_API_VERSION = "2026-07";

export function hmacBase64(secret: string, rawBody: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

export interface WebhookSignature {
  topic: string;
  shop: string;
  secret: string;
  webhookId?: string;
}

export function signedWebhookHeaders(options: WebhookSignature, rawBody: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Hmac-Sha256": hmacBase64(options.secret, rawBody),
    "X-Shopify-Topic": options.topic,
    "X-Shopify-Shop-Domain": options.shop,
    "X-Shopify-API-Version": WEBHOOK_API_VERSION,
    "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
}

export interface Delivery {
  status: number;
  /** The first line of the answer's body, for a non-2xx status. */
  detail?: string;
}

export class DeliveryError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "DeliveryError";
  }
}

/** POSTs one signed webhook to appUrl/webhooks/<topic>; throws DeliveryError when nothing answers. */
export async function deliverWebhook(appUrl: string, options: WebhookSignature & { body: string }): Promise<Delivery> {
  const url = `${appUrl.replace(/\/+$/, "")}/webhooks/${options.topic}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: signedWebhookHeaders(options, options.body),
      body: options.body,
    });
  } catch (error) {
    throw new DeliveryError(url, error);
  }
  const text = await response.text().catch(() => "");
  if (response.ok) return { status: response.status };
  return { status: response.status, detail: text.split("\n")[0].slice(0, 200) || response.statusText };
}
