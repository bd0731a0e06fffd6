/**
 * Installs a shop as Shopify does when a merchant first opens an embedded app: the
 * admin loads the app's URL with a session token, the app's auth (token exchange)
 * trades it at the Shopify Admin stand-in for an offline token and stores the session.
 * Nothing is written to the database here: the app does it all.
 */
import type { PrismaClient } from "@prisma/client";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { hostParamOf, storeNameOf } from "./preview-server";

const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

export class InstallError extends Error {
  constructor(shop: string, detail: string) {
    super(`${shop} was not installed: ${detail}`);
    this.name = "InstallError";
  }
}

/** The URL the Shopify admin opens in its iframe, with a fresh session token. */
export async function embeddedAppUrl(
  baseUrl: string,
  shop: string,
  app: { apiKey: string; apiSecret: string },
  path = "/app",
): Promise<string> {
  const { token } = await getJwt(storeNameOf(shop), app.apiKey, app.apiSecret);
  const url = new URL(path, baseUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", hostParamOf(shop));
  url.searchParams.set("id_token", token);
  url.searchParams.set("locale", "en");
  return url.href;
}

/** Opens url (the app, or the preview that forwards to it) and checks the app stored the shop's offline session. */
export async function installThroughTokenExchange(db: PrismaClient, shop: string, url: string): Promise<void> {
  let status: number;
  try {
    // As the admin's iframe would load it: the app's auth answers bots (no browser user agent) with 410.
    const response = await fetch(url, { headers: { "user-agent": BROWSER_USER_AGENT } });
    status = response.status;
    await response.arrayBuffer();
  } catch (error) {
    throw new InstallError(shop, `the app did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } });
  if (!session)
    throw new InstallError(shop, `the app answered ${status} and stored no offline session (see the app's log)`);
}
