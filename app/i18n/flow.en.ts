/**
 * English messages of the Shopify Flow parts (Settings section, timeline entries),
 * spread into en.ts. flow.fr.ts has the same keys (typed against this object).
 */
export const flowEn = {
  "settings.flow.title": "Shopify Flow",
  "settings.flow.help":
    "Start your Flow workflows when a lead is created, when its status changes, or when an order needs attention. A trigger that Flow reports no active workflow uses is not sent. The action “Send order to the COD platform” is available in Flow.",
  "settings.flow.leadCreated": "Lead created",
  "settings.flow.leadStatusChanged": "Lead status changed",
  "settings.flow.orderNeedsAttention": "Order needs attention (held, refused or created with an anomaly)",
  "timeline.flow": "Shopify Flow",
} as const;
