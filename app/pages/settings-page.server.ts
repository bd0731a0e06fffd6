/**
 * The Settings page's loader and action work, as its route calls them once it has
 * authenticated: the settings with the connection, the store pairing, the conversion feed and
 * the delivery odds' model; then the page's one save (a new key verified with the platform as
 * part of it), or one of the forms that save at once (the conversion feed's, the pairing's).
 */
import prisma from "../db.server";
import { env } from "../env.server";
import { formText } from "../http/form";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { loadPairingView, runPairingAction } from "../customers/pairing.server";
import {
  loadSettingsPage,
  saveSettingsPage,
  sendReleasedFromSettings,
  type SettingsFormValues,
} from "./settings.server";
import { loadOddsModelStatus } from "./delivery-odds.server";
import { loadAdFeedView, runAdFeedAction } from "./ad-feed.server";

export async function settingsPageData(shop: string) {
  const [page, pairing, adFeed, oddsModel] = await Promise.all([
    loadSettingsPage(prisma, shop, { appUrl: env.SHOPIFY_APP_URL, defaultBaseUrl: env.SELLER_API_BASE_URL }),
    loadPairingView(prisma, shop, { defaultBaseUrl: env.SELLER_API_BASE_URL ?? null }),
    loadAdFeedView(prisma, shop),
    loadOddsModelStatus(prisma, shop),
  ]);
  return { ...page, pairing, adFeed, oddsModel };
}

export async function settingsPageAction(request: Request, shop: string, admin: AdminGraphqlClient) {
  const form = await request.formData();
  const intent = formText(form, "intent");
  if (intent === "sendReleased") return sendReleasedFromSettings(prisma, shop, form);
  if (intent !== "save") {
    // The conversion feed's forms save at once too.
    const adFeed = await runAdFeedAction(prisma, shop, intent, (name) => formText(form, name), {
      admin,
      appUrl: env.SHOPIFY_APP_URL,
    });
    if (adFeed) return adFeed;
    // The store pairing's own forms (create, redeem, end a pairing) save at once, apart from the page's save.
    const pairing = await runPairingAction(prisma, shop, intent, (name) => formText(form, name), {
      defaultBaseUrl: env.SELLER_API_BASE_URL ?? null,
    });
    if (pairing) return pairing;
    throw new Response("Unknown intent", { status: 400 });
  }
  const values: SettingsFormValues = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && name !== "intent") values[name] = value;
  }
  return saveSettingsPage(prisma, shop, values, { defaultBaseUrl: env.SELLER_API_BASE_URL });
}
