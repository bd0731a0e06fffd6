/**
 * English messages of the conversion feed (Settings, Analytics, Activity, the
 * order's timeline), spread into en.ts. ad-feed.fr.ts has the same keys.
 */
export const adFeedEn = {
  "adFeed.platform.meta": "Meta",
  "adFeed.platform.tiktok": "TikTok",
  "adFeed.stage.confirmed": "Confirmed",
  "adFeed.stage.shipped": "Shipped",
  "adFeed.stage.delivered": "Delivered",
  "adFeed.stage.refused": "Refused",
  "adFeed.stage.returned": "Returned",

  "settings.adFeed.title": "Conversion feed (Meta and TikTok)",
  "settings.adFeed.help":
    "Tell Meta and TikTok which orders really became sales: the ads then look for buyers who accept their parcel, not for buyers who order and refuse. Nothing is sent until you switch the feed on.",
  "settings.adFeed.on": "On",
  "settings.adFeed.off": "Off",
  "settings.adFeed.meta.title": "Meta (Facebook and Instagram)",
  "settings.adFeed.meta.id": "Dataset ID (pixel ID)",
  "settings.adFeed.meta.idHelp": "In Meta's Events Manager: the digits under your dataset's name.",
  "settings.adFeed.meta.token": "Conversions API access token",
  "settings.adFeed.meta.tokenHelp":
    "Generated in Events Manager (your dataset, Settings, Conversions API). Kept encrypted, never shown again.",
  "settings.adFeed.tiktok.title": "TikTok",
  "settings.adFeed.tiktok.id": "Pixel code",
  "settings.adFeed.tiktok.idHelp": "In TikTok's Events Manager: the 20 letters and digits beside your pixel's name.",
  "settings.adFeed.tiktok.token": "Events API access token",
  "settings.adFeed.tiktok.tokenHelp":
    "Generated in Events Manager (your pixel, Settings, Events API). Kept encrypted, never shown again.",
  "settings.adFeed.connected": "Connected to {name}",
  "settings.adFeed.connectedUnnamed": "Connected",
  "settings.adFeed.tokenSaved": "Token ending in {last4}, verified on {date}. Leave the field empty to keep it.",
  "settings.adFeed.tokenSavedNoDigits": "Token verified on {date}. Leave the field empty to keep it.",
  "settings.adFeed.connect": "Connect {platform}",
  "settings.adFeed.checkAgain": "Check {platform} again",
  "settings.adFeed.disconnect": "Disconnect {platform}",
  "settings.adFeed.connectedToast": "{platform} connected",
  "settings.adFeed.disconnectedToast": "{platform} disconnected",
  "settings.adFeed.error.invalid_id.meta":
    "A dataset ID is made of digits only (Events Manager shows it under the dataset's name).",
  "settings.adFeed.error.invalid_id.tiktok":
    "A pixel code is made of 20 capital letters and digits (Events Manager shows it beside the pixel's name).",
  "settings.adFeed.error.token_required": "Paste the access token: the saved one was verified for another ID.",
  "settings.adFeed.error.invalid_token": "This is not an access token: paste it whole, without spaces.",
  "settings.adFeed.error.refused": "{platform} refused this token. Its answer: “{message}”",
  "settings.adFeed.error.unreachable": "{platform} could not be reached: nothing was saved. Try again in a moment.",
  "settings.adFeed.tokenRefused":
    "{platform} refused the saved access token on {date}: nothing is sent to it until you connect it again with a new token.",
  "settings.adFeed.feed.title": "What is sent",
  "settings.adFeed.enabled": "Send the orders' outcomes to the ads",
  "settings.adFeed.stage": "The outcome that counts",
  "settings.adFeed.stage.confirmed": "Confirmed on the call",
  "settings.adFeed.stage.shipped": "Shipped",
  "settings.adFeed.stage.delivered": "Delivered (recommended)",
  "settings.adFeed.naming": "How it is named",
  "settings.adFeed.naming.custom": "A custom event ({event}): it never adds to the Purchase Shopify's checkout sends",
  "settings.adFeed.naming.purchase":
    "Purchase, only in a dataset or pixel of its own (not the one Shopify's checkout uses, or every purchase is counted twice)",
  "settings.adFeed.negative":
    "Also send refused and returned orders (CODRefused, CODReturned), to exclude those buyers from your audiences",
  "settings.adFeed.withoutConsent": "Send orders without a consent signal, from customer data only",
  "settings.adFeed.withoutConsentHelp":
    "Orders created by a COD form app never pass Shopify's checkout, so the storefront cannot ask the buyer. Off: only orders whose buyer allowed marketing at checkout are sent.",
  "settings.adFeed.save": "Save the feed",
  "settings.adFeed.saved": "Conversion feed saved",
  "settings.adFeed.error.connect_first": "Connect Meta or TikTok before switching the feed on.",
  "settings.adFeed.error.invalid": "These choices cannot be saved: reload the page and try again.",
  "settings.adFeed.pixel.added":
    "Storefront pixel added: it collects the ads' click ids at checkout, with the buyer's consent.",
  "settings.adFeed.pixel.missing": "The storefront pixel is not added yet.",
  "settings.adFeed.pixel.retry": "Add the storefront pixel",
  "shopifyError.what.storefrontPixel": "adding the storefront pixel",

  "analytics.adFeed.title": "What the ads were told",
  "analytics.adFeed.off":
    "The conversion feed is off. Switch it on in Settings (Conversion feed) to tell Meta and TikTok what became of each order.",
  "analytics.adFeed.gap":
    "At checkout, the ads were told of {placed, plural, one {# purchase} other {# purchases}}; since the feed was switched on, {reached, plural, one {# order} other {# orders}} reached “{stage}”.",
  "analytics.adFeed.perPlatform": "The feed told Meta of {meta} and TikTok of {tiktok}.",
  "analytics.adFeed.week": "Week of",
  "analytics.adFeed.placed": "Orders placed",
  "analytics.adFeed.reached": "{stage}",
  "analytics.adFeed.sentTo": "Told {platform}",
  "analytics.adFeed.negative": "Refused and returned told",
  "analytics.adFeed.notSent": "Not told",
  "analytics.adFeed.notSentHelp":
    "Not told: too late (over 7 days old), no consent from the buyer, or refused by the platform. Waiting: {pending}.",

  "activity.adFeed.title": "Conversion feed",
  "activity.adFeed.pending": "{count, plural, one {# outcome waits} other {# outcomes wait}} to be sent.",
  "activity.adFeed.sent.title": "Last sent",
  "activity.adFeed.notSent.title": "Not sent",
  "activity.adFeed.none": "Nothing sent yet.",
  "activity.adFeed.noneNotSent": "Every outcome was sent.",
  "activity.adFeed.order": "Order",
  "activity.adFeed.outcome": "Outcome",
  "activity.adFeed.platform": "Platform",
  "activity.adFeed.at": "When",
  "activity.adFeed.why": "Why",
  "activity.adFeed.how": "Told with",
  "activity.adFeed.withCheckout": "Checkout and customer data",
  "activity.adFeed.customerDataOnly": "Customer data alone (an order placed without the checkout)",
  "activity.adFeed.why.too_late": "Too late: over 7 days old",
  "activity.adFeed.why.no_consent": "No consent from the buyer",
  "activity.adFeed.why.refused": "Refused by the platform: “{detail}”",
  "activity.adFeed.tokenRefused": "{platform} refused the saved access token: connect it again in Settings.",
  "activity.jobKind.ad-feed": "Send outcomes to the ads",

  "timeline.ad_feed": "Ads",
  "timeline.text.adFeedSent": "Told {platform}: {event}",
  "timeline.text.adFeedRefused": "{platform} refused {event}",
};
