/**
 * The Shopify webhook topics the app subscribes to (shopify.app.toml), each
 * answered by its route at /webhooks/<topic>. A closed set: the metrics label
 * webhooks by it, so a path nobody subscribed to can never add a series.
 */
export const WEBHOOK_TOPICS = [
  "orders/create",
  "orders/updated",
  "orders/cancelled",
  "app/uninstalled",
  "app/scopes_update",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

const KNOWN = new Set<string>(WEBHOOK_TOPICS);

export const isWebhookTopic = (topic: string): topic is WebhookTopic => KNOWN.has(topic);
