/**
 * What the app's frame around every admin page needs, as the layout route calls it once it
 * has authenticated: App Bridge's API key, the reader's language, and how the shop writes
 * dirhams (Settings), for every amount on every page.
 */
import prisma from "../db.server";
import { env } from "../env.server";
import { requestLocale } from "./request-locale.server";
import { loadShopSettings } from "./shop-facts.server";

export async function framePageData(request: Request, shop: string) {
  const settings = await loadShopSettings(prisma, shop);
  return { apiKey: env.SHOPIFY_API_KEY, locale: requestLocale(request), currency: settings.currencyLabel };
}
