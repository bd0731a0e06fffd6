/**
 * The Settings page's conversion feed forms (their own intents, saved at once,
 * apart from the page's save bar): connect or disconnect a platform, save the
 * feed's settings, add the storefront pixel again after Shopify failed.
 */
import type { Db } from "../db.server";
import { AD_PLATFORMS, type AdPlatform } from "../ad-platforms/conversion";
import { adPlatformClients } from "../ad-feed/clients.server";
import {
  connectPlatform,
  disconnectPlatform,
  ensureWebPixel,
  loadAdFeedView,
  saveFeedSettings,
  type AdFeedView,
  type ConnectError,
} from "../ad-feed/connection.server";
import type { ShopifyFailure } from "../shopify/failure";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { secretBoxFromEnv } from "../env.server";
import { log } from "../runtime/logger.server";

export { loadAdFeedView };
export { loadAdFeedReport, loadFeedActivity } from "../ad-feed/report.server";

export const AD_FEED_INTENTS = ["adFeedConnect", "adFeedDisconnect", "adFeedSave", "adFeedPixel"] as const;

export type AdFeedActionResult =
  | { intent: "adFeedConnect"; platform: AdPlatform; ok: true; view: AdFeedView }
  | { intent: "adFeedConnect"; platform: AdPlatform; ok: false; error: ConnectError; platformMessage: string | null }
  | { intent: "adFeedDisconnect"; platform: AdPlatform; ok: true; view: AdFeedView }
  | { intent: "adFeedSave"; ok: true; view: AdFeedView; pixelFailure: ShopifyFailure | null }
  | { intent: "adFeedSave"; ok: false; error: "invalid" | "connect_first" }
  | { intent: "adFeedPixel"; ok: true; view: AdFeedView; pixelFailure: ShopifyFailure | null };

export interface AdFeedActionDeps {
  admin: AdminGraphqlClient;
  appUrl: string;
}

const platformOf = (value: string | undefined): AdPlatform | null =>
  (AD_PLATFORMS as readonly string[]).includes(value ?? "") ? (value as AdPlatform) : null;

/** Runs one of the feed's intents; null for an intent that is not the feed's. */
export async function runAdFeedAction(
  db: Db,
  shop: string,
  intent: string | undefined,
  field: (name: string) => string | undefined,
  deps: AdFeedActionDeps,
): Promise<AdFeedActionResult | null> {
  const warn = (line: string) => log.warn(line, { shop });
  if (intent === "adFeedConnect" || intent === "adFeedDisconnect") {
    const platform = platformOf(field("platform"));
    if (!platform) return null;
    if (intent === "adFeedDisconnect")
      return { intent, platform, ok: true, view: await disconnectPlatform(db, shop, platform) };
    const result = await connectPlatform(
      db,
      shop,
      platform,
      { id: field("id") ?? "", token: field("token") ?? "" },
      {
        ...adPlatformClients({ timeoutMs: 10_000, attempts: 1 }),
        secretBox: secretBoxFromEnv(),
        storeUrl: `https://${shop}/`,
        log: warn,
      },
    );
    return result.ok
      ? { intent, platform, ok: true, view: result.view }
      : { intent, platform, ok: false, error: result.error, platformMessage: result.platformMessage };
  }
  if (intent === "adFeedSave") {
    const form = Object.fromEntries(
      ["enabled", "stage", "naming", "negativeOutcomes", "withoutConsentSignal"].map((name) => [name, field(name)]),
    );
    const saved = await saveFeedSettings(db, shop, form, { ...deps, log: warn });
    return saved.ok
      ? { intent, ok: true, view: saved.view, pixelFailure: saved.pixelFailure }
      : { intent, ok: false, error: saved.error };
  }
  if (intent === "adFeedPixel") {
    const pixelFailure = await ensureWebPixel(db, shop, { ...deps, log: warn });
    return { intent, ok: true, view: await loadAdFeedView(db, shop), pixelFailure };
  }
  return null;
}
